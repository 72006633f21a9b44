import { useEffect, useState } from 'react';
import { secondsUntil } from './countdown.ts';

/** Seconds left until `deadlineMs`, re-rendering while it runs (and stopping at 0). */
export function useSecondsUntil(deadlineMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  const left = secondsUntil(deadlineMs, now);
  useEffect(() => {
    setNow(Date.now());
    if (deadlineMs === null || deadlineMs <= Date.now()) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= deadlineMs) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [deadlineMs]);
  return left;
}
