/**
 * Small per-browser preferences that never leave the device (the notification sound), in local
 * storage under `entreno:`. Readable with
 * `useSyncExternalStore`: the snapshot is the stored string, so it is stable between changes.
 */
const PREFIX = 'entreno:';

const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function readLocalPreference(key: string): string | null {
  try {
    return storage()?.getItem(PREFIX + key) ?? null;
  } catch {
    return null;
  }
}

/** Stores (or, with null, removes) a preference and tells the subscribers. */
export function writeLocalPreference(key: string, value: string | null): void {
  try {
    const target = storage();
    if (value === null) target?.removeItem(PREFIX + key);
    else target?.setItem(PREFIX + key, value);
  } catch {
    // Storage full or blocked: the preference lasts until the page closes.
  }
  for (const listener of listeners) listener();
}

/** Calls `listener` after any preference changes here or in another tab; returns the unsubscribe. */
export function subscribeLocalPreferences(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(PREFIX)) listener();
  };
  listeners.add(listener);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
