/**
 * Where the session token and the signed-in user live (spec 000 §4): local storage when the user
 * asked to be remembered, session storage otherwise. When both hold a token, session storage wins.
 * Every other module reads and writes them through this adapter, never through the storages.
 */

export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';

export type TokenStorageArea = 'local' | 'session';

export type StoredToken = { readonly token: string; readonly area: TokenStorageArea };

/** The subset of the Web Storage API this adapter needs, so tests can pass a Map-backed fake. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export type TokenStorage = {
  /** The stored token and the storage it came from, or null. */
  readToken(): StoredToken | null;
  /** The stored user, parsed from JSON (unvalidated: parse it with the shared schema), or null. */
  readUser(): unknown;
  /** Stores token and user in one storage (or both, spec 000 §4 Google verify-code), clearing the other. */
  save(session: { token: string; user: unknown; area: TokenStorageArea | 'both' }): void;
  /** Replaces the token where it is kept (the `X-New-Token` header, spec 000 §4). */
  replaceToken(token: string): void;
  /** Replaces the stored user in every storage that holds a token (e.g. after a streak update). */
  replaceUser(user: unknown): void;
  /** Removes token and user from both storages. */
  clear(): void;
  /** Calls `listener` after any change, here or in another tab; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** A stable snapshot for `useSyncExternalStore`: the same object until the token changes. */
  getSnapshot(): StoredToken | null;
};

export type TokenStorageOptions = {
  local: KeyValueStorage | null;
  session: KeyValueStorage | null;
  /** Where `storage` events from other tabs arrive (the window); omitted in tests. */
  events?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
};

/** Builds the adapter over two storages; the app uses `tokenStorage`, tests pass fakes. */
export function createTokenStorage(options: TokenStorageOptions): TokenStorage {
  const areas: Record<TokenStorageArea, KeyValueStorage | null> = { session: options.session, local: options.local };
  const listeners = new Set<() => void>();
  let snapshot: StoredToken | null = null;

  const get = (area: TokenStorageArea, key: string): string | null => {
    try {
      return areas[area]?.getItem(key) ?? null;
    } catch {
      return null;
    }
  };
  const set = (area: TokenStorageArea, key: string, value: string) => {
    try {
      areas[area]?.setItem(key, value);
    } catch {
      // Storage full or blocked (private mode): the session then lasts as long as the page.
    }
  };
  const remove = (area: TokenStorageArea, key: string) => {
    try {
      areas[area]?.removeItem(key);
    } catch {
      // Blocked storage holds nothing to remove.
    }
  };

  const readToken = (): StoredToken | null => {
    for (const area of ['session', 'local'] as const) {
      const token = get(area, TOKEN_KEY);
      if (token) return { token, area };
    }
    return null;
  };

  const notify = () => {
    for (const listener of listeners) listener();
  };

  const onStorageEvent = (event: Event) => {
    const key = (event as StorageEvent).key;
    // A null key means the whole storage was cleared.
    if (key === null || key === TOKEN_KEY || key === USER_KEY) notify();
  };

  return {
    readToken,
    readUser() {
      const stored = readToken();
      const order: TokenStorageArea[] = stored?.area === 'local' ? ['local', 'session'] : ['session', 'local'];
      for (const area of order) {
        const raw = get(area, USER_KEY);
        if (raw === null) continue;
        try {
          return JSON.parse(raw) as unknown;
        } catch {
          return null;
        }
      }
      return null;
    },
    save({ token, user, area }) {
      const targets: TokenStorageArea[] = area === 'both' ? ['session', 'local'] : [area];
      for (const target of ['session', 'local'] as const) {
        if (targets.includes(target)) {
          set(target, TOKEN_KEY, token);
          set(target, USER_KEY, JSON.stringify(user));
        } else {
          remove(target, TOKEN_KEY);
          remove(target, USER_KEY);
        }
      }
      notify();
    },
    replaceToken(token) {
      set(readToken()?.area ?? 'local', TOKEN_KEY, token);
      notify();
    },
    replaceUser(user) {
      for (const area of ['session', 'local'] as const) {
        if (get(area, TOKEN_KEY)) set(area, USER_KEY, JSON.stringify(user));
      }
      notify();
    },
    clear() {
      for (const area of ['session', 'local'] as const) {
        remove(area, TOKEN_KEY);
        remove(area, USER_KEY);
      }
      notify();
    },
    subscribe(listener) {
      if (listeners.size === 0) options.events?.addEventListener('storage', onStorageEvent);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) options.events?.removeEventListener('storage', onStorageEvent);
      };
    },
    getSnapshot() {
      // Read afresh each time (cheap), but keep the old object while nothing changed.
      const next = readToken();
      if (next?.token !== snapshot?.token || next?.area !== snapshot?.area) snapshot = next;
      return snapshot;
    },
  };
}

function browserStorage(pick: () => Storage): KeyValueStorage | null {
  try {
    return pick();
  } catch {
    // Access itself throws when the browser blocks storage for this origin.
    return null;
  }
}

/** The app's token storage over the browser's local and session storage. */
export const tokenStorage: TokenStorage = createTokenStorage({
  local: typeof window === 'undefined' ? null : browserStorage(() => window.localStorage),
  session: typeof window === 'undefined' ? null : browserStorage(() => window.sessionStorage),
  events: typeof window === 'undefined' ? undefined : window,
});
