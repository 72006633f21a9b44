/** The login screen's timing and layout hooks (no window access during render: the route is prerendered). */
import { useEffect, useState, useSyncExternalStore } from 'react';

/** True once `ms` have passed since mount. */
export function useDelay(ms: number): boolean {
  const [isDone, setIsDone] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setIsDone(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return isDone;
}

// The `lg` breakpoint, where preview and form sit side by side.
const WIDE_QUERY = '(min-width: 64rem)';

function subscribeToWidth(listener: () => void): () => void {
  const query = window.matchMedia(WIDE_QUERY);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

export function useIsWideScreen(): boolean {
  return useSyncExternalStore(
    subscribeToWidth,
    () => window.matchMedia(WIDE_QUERY).matches,
    // The page rendered at build time (docs/decisions/0031) does not know the width: as on a wide
    // screen, the form's title is an h2 there, so a wide screen never shows two h1 (on a phone the
    // form is hidden behind the preview anyway).
    () => true,
  );
}
