/**
 * The browser's online flag for screens (issue #22): whether to say "Sin conexión", and when a
 * screen that could not load offline should fill itself again. Plain window events, no Dexie, so
 * any screen (and the app shell) can use it.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const isOnlineNow = () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false);

export function useIsOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnlineNow, () => true);
}

/**
 * While `isWaiting` (a screen that found nothing on the device and no network), loads it again as
 * soon as the connection returns; no "Reintentar" needed.
 */
export function useReloadWhenOnline(isWaiting: boolean, reload: () => unknown): void {
  const latest = useRef(reload);
  latest.current = reload;
  useEffect(() => {
    if (!isWaiting) return;
    const onOnline = () => void latest.current();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [isWaiting]);
}
