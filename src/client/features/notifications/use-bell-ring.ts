import { useEffect, useRef, useState } from 'react';
import { hasCountGrown } from './notification-list.ts';

/** Spec 001 §2: "The bell animates for 1 second when the unread count grows". */
export const BELL_RING_MS = 1000;

/**
 * A ring number that changes each time `count` grows (the bell's `key`, so the animation starts
 * again) and whether the bell is ringing; the CSS animation itself honours reduced motion.
 */
export function useBellRing(count: number): { isRinging: boolean; ring: number } {
  const previous = useRef<number | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [ring, setRing] = useState(0);
  const [isRinging, setIsRinging] = useState(false);
  useEffect(() => {
    const hasGrown = hasCountGrown(previous.current, count);
    previous.current = count;
    if (!hasGrown) return;
    setRing((value) => value + 1);
    setIsRinging(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setIsRinging(false), BELL_RING_MS);
  }, [count]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return { isRinging, ring };
}
