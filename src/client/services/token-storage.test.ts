import { describe, expect, it, vi } from 'vitest';
import { createTokenStorage, type KeyValueStorage, TOKEN_KEY, USER_KEY } from './token-storage.ts';

function memoryStorage(): KeyValueStorage & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  };
}

function setup() {
  const local = memoryStorage();
  const session = memoryStorage();
  return { local, session, storage: createTokenStorage({ local, session }) };
}

describe('token storage', () => {
  it('prefers session storage when both hold a token (spec 000 §4)', () => {
    const { local, session, storage } = setup();
    local.setItem(TOKEN_KEY, 'local-token');
    local.setItem(USER_KEY, '{"userId":"l"}');
    expect(storage.readToken()).toEqual({ token: 'local-token', area: 'local' });
    session.setItem(TOKEN_KEY, 'session-token');
    session.setItem(USER_KEY, '{"userId":"s"}');
    expect(storage.readToken()).toEqual({ token: 'session-token', area: 'session' });
    expect(storage.readUser()).toEqual({ userId: 's' });
  });

  it('saves into one storage and clears the other, or into both', () => {
    const { local, session, storage } = setup();
    storage.save({ token: 't1', user: { userId: 'u' }, area: 'session' });
    storage.save({ token: 't2', user: { userId: 'u' }, area: 'local' });
    expect(session.entries.size).toBe(0);
    expect(local.getItem(TOKEN_KEY)).toBe('t2');
    expect(local.getItem(USER_KEY)).toBe('{"userId":"u"}');
    storage.save({ token: 't3', user: { userId: 'u' }, area: 'both' });
    expect(session.getItem(TOKEN_KEY)).toBe('t3');
    expect(local.getItem(TOKEN_KEY)).toBe('t3');
  });

  it('replaces the token in the storage that holds it', () => {
    const { local, session, storage } = setup();
    storage.save({ token: 'old', user: {}, area: 'session' });
    storage.replaceToken('new');
    expect(session.getItem(TOKEN_KEY)).toBe('new');
    expect(local.getItem(TOKEN_KEY)).toBeNull();
  });

  it('replaces the user wherever a token is kept, and nowhere else', () => {
    const { local, session, storage } = setup();
    storage.save({ token: 't', user: { streak: 1 }, area: 'both' });
    storage.replaceUser({ streak: 2 });
    expect(JSON.parse(session.getItem(USER_KEY) ?? '')).toEqual({ streak: 2 });
    expect(JSON.parse(local.getItem(USER_KEY) ?? '')).toEqual({ streak: 2 });
    storage.save({ token: 't', user: { streak: 2 }, area: 'local' });
    storage.replaceUser({ streak: 3 });
    expect(session.getItem(USER_KEY)).toBeNull();
    expect(JSON.parse(local.getItem(USER_KEY) ?? '')).toEqual({ streak: 3 });
  });

  it('clears token and user from both storages', () => {
    const { local, session, storage } = setup();
    storage.save({ token: 't', user: { userId: 'u' }, area: 'both' });
    storage.clear();
    expect(local.entries.size).toBe(0);
    expect(session.entries.size).toBe(0);
    expect(storage.readToken()).toBeNull();
    expect(storage.readUser()).toBeNull();
  });

  it('returns null for a user entry that is not JSON', () => {
    const { local, storage } = setup();
    local.setItem(TOKEN_KEY, 't');
    local.setItem(USER_KEY, '{oops');
    expect(storage.readUser()).toBeNull();
  });

  it('notifies subscribers and keeps a stable snapshot while nothing changes', () => {
    const { storage } = setup();
    const listener = vi.fn();
    const unsubscribe = storage.subscribe(listener);
    storage.save({ token: 't', user: {}, area: 'local' });
    const first = storage.getSnapshot();
    expect(first).toEqual({ token: 't', area: 'local' });
    expect(storage.getSnapshot()).toBe(first);
    storage.clear();
    expect(storage.getSnapshot()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    storage.save({ token: 'u', user: {}, area: 'local' });
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('survives storages that throw (blocked by the browser)', () => {
    const throwing: KeyValueStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const storage = createTokenStorage({ local: throwing, session: null });
    expect(() => storage.save({ token: 't', user: {}, area: 'local' })).not.toThrow();
    expect(storage.readToken()).toBeNull();
    expect(() => storage.clear()).not.toThrow();
  });
});
