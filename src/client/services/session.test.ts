import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthUser } from '#shared/auth/auth-schemas';
import {
  createSessionCheckScheduler,
  createSessionController,
  parseStoredUser,
  SESSION_CHECK_INTERVAL_MS,
  type SessionCheckResult,
  type SessionDependencies,
} from './session.ts';
import { createTokenStorage, type KeyValueStorage } from './token-storage.ts';

function memoryStorage(): KeyValueStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

const USER: AuthUser = {
  userId: '00000000-0000-4000-8000-000000000001',
  name: 'Lucía',
  lastName: 'García',
  email: 'lucia@example.com',
  phone: '+34612398745',
  createdAt: '2025-01-01T10:00:00.000Z',
  completeProfile: false,
  streak: 3,
  lastLoginDate: '2025-03-09',
};

function setup(overrides: Partial<SessionDependencies> = {}) {
  const local = memoryStorage();
  const session = memoryStorage();
  const storage = createTokenStorage({ local, session });
  const deps: SessionDependencies = {
    storage,
    validateSession: vi.fn(async (): Promise<SessionCheckResult> => ({ status: 'valid', user: USER })),
    revokeToken: vi.fn(async () => {}),
    postStreak: vi.fn(async (body) => ({ success: true as const, message: 'ok', ...body })),
    clearPrivateCaches: vi.fn(async () => {}),
    // 10 March 2025, midday in Madrid.
    now: () => new Date('2025-03-10T11:00:00Z'),
    log: vi.fn(),
    ...overrides,
  };
  return { controller: createSessionController(deps), deps, local, session, storage };
}

describe('session check scheduling (spec 000 §2: at once, then every 30 s)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('checks immediately and every 30 s while valid', async () => {
    const check = vi.fn(async (): Promise<SessionCheckResult> => ({ status: 'valid', user: USER }));
    const scheduler = createSessionCheckScheduler({ check, onInvalid: vi.fn() });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS - 1);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS * 3);
    expect(check).toHaveBeenCalledTimes(5);
    scheduler.stop();
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS * 3);
    expect(check).toHaveBeenCalledTimes(5);
  });

  it('stops and reports when the server says the session is over', async () => {
    const results: SessionCheckResult[] = [{ status: 'valid', user: USER }, { status: 'invalid' }];
    const check = vi.fn(async () => results.shift() ?? { status: 'valid' as const, user: USER });
    const onInvalid = vi.fn();
    const scheduler = createSessionCheckScheduler({ check, onInvalid });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS);
    expect(onInvalid).toHaveBeenCalledTimes(1);
    expect(scheduler.isRunning).toBe(false);
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS * 2);
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('keeps the session while the server cannot be reached (offline first)', async () => {
    const check = vi.fn(async (): Promise<SessionCheckResult> => ({ status: 'unreachable' }));
    const onInvalid = vi.fn();
    createSessionCheckScheduler({ check, onInvalid }).start();
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS * 2);
    expect(check).toHaveBeenCalledTimes(3);
    expect(onInvalid).not.toHaveBeenCalled();
  });
});

describe('session controller', () => {
  it('signs in into session storage, tells listeners and posts the streak', async () => {
    const { controller, deps, local, session } = setup();
    const listener = vi.fn();
    controller.onSignIn(listener);
    await controller.signIn({ token: 'a.b.c', user: USER, area: 'session' });
    expect(session.map.get('token')).toBe('a.b.c');
    expect(local.map.has('token')).toBe(false);
    expect(listener).toHaveBeenCalledWith(expect.objectContaining({ token: 'a.b.c', isRestored: false }));
    await vi.waitFor(() =>
      expect(deps.postStreak).toHaveBeenCalledWith({ userId: USER.userId, streak: 4, lastLoginDate: '2025-03-10' }),
    );
    await vi.waitFor(() => expect(JSON.parse(session.map.get('user') ?? '{}')).toMatchObject({ streak: 4 }));
  });

  it('also tells the listeners registered by a listener while it runs (the lazily loaded runtime), once each', async () => {
    const { controller } = setup();
    const late = vi.fn();
    const lateSignOut = vi.fn();
    let loads = 0;
    controller.onSignIn(async () => {
      await Promise.resolve();
      if (loads++ > 0) return;
      controller.onSignIn(late);
      controller.onSignOut(lateSignOut);
    });
    await controller.signIn({ token: 'a.b.c', user: USER, area: 'local' });
    expect(late).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ token: 'a.b.c' }));
    await controller.signOut('user');
    expect(lateSignOut).toHaveBeenCalledExactlyOnceWith('user');
    await controller.signIn({ token: 'd.e.f', user: USER, area: 'local' });
    expect(late).toHaveBeenCalledTimes(2);
  });

  it('keeps the client streak when posting it fails, and only logs', async () => {
    const { controller, deps, local } = setup({
      postStreak: vi.fn(async () => {
        throw new Error('offline');
      }),
    });
    await controller.signIn({ token: 'a.b.c', user: { ...USER, lastLoginDate: '2025-01-01' }, area: 'local' });
    await vi.waitFor(() => expect(deps.log).toHaveBeenCalled());
    expect(JSON.parse(local.map.get('user') ?? '{}')).toMatchObject({ streak: 1, lastLoginDate: '2025-03-10' });
  });

  it('signs out: clears both storages, revokes the token, wipes, runs listeners once and hands over', async () => {
    const { controller, deps, local, session } = setup();
    await controller.signIn({ token: 'a.b.c', user: USER, area: 'both' });
    const onSignOut = vi.fn();
    const onSignedOut = vi.fn();
    controller.onSignOut(onSignOut);
    controller.setSignedOutHandler(onSignedOut);
    await Promise.all([controller.signOut('user'), controller.signOut('auth_required')]);
    expect([...local.map.keys(), ...session.map.keys()]).toEqual([]);
    expect(deps.revokeToken).toHaveBeenCalledWith('a.b.c');
    expect(deps.clearPrivateCaches).toHaveBeenCalledTimes(1);
    expect(onSignOut).toHaveBeenCalledExactlyOnceWith('user');
    expect(onSignedOut).toHaveBeenCalledExactlyOnceWith('user');
  });

  it('runs the sign-out listeners while the token is still stored, and revokes it only afterwards', async () => {
    const { controller, deps, storage } = setup();
    await controller.signIn({ token: 'a.b.c', user: USER, area: 'local' });
    const seen: Array<string | undefined> = [];
    controller.onSignOut(async () => {
      await Promise.resolve();
      seen.push(storage.readToken()?.token);
      expect(deps.revokeToken).not.toHaveBeenCalled();
    });
    await controller.signOut('user');
    expect(seen).toEqual(['a.b.c']);
    expect(storage.readToken()).toBeNull();
    expect(deps.revokeToken).toHaveBeenCalledWith('a.b.c');
  });

  it('restores a valid stored session and refreshes the stored user', async () => {
    const { controller, storage } = setup();
    storage.save({ token: 'a.b.c', user: { ...USER, completeProfile: undefined }, area: 'local' });
    const listener = vi.fn();
    controller.onSignIn(listener);
    await expect(controller.restore('/home')).resolves.toBe('restored');
    expect(storage.readUser()).toMatchObject({ completeProfile: false });
    expect(listener).toHaveBeenCalledWith(expect.objectContaining({ isRestored: true }));
  });

  it('clears stored credentials at start-up when the user has no e-mail or the server refuses', async () => {
    const noEmail = setup();
    noEmail.storage.save({ token: 'a.b.c', user: { userId: 'u1', name: 'Ana' }, area: 'local' });
    await expect(noEmail.controller.restore('/home')).resolves.toBe('cleared');
    expect(noEmail.storage.readToken()).toBeNull();
    expect(noEmail.deps.validateSession).not.toHaveBeenCalled();

    const refused = setup({ validateSession: vi.fn(async () => ({ status: 'invalid' as const })) });
    refused.storage.save({ token: 'a.b.c', user: USER, area: 'session' });
    await expect(refused.controller.restore('/config')).resolves.toBe('cleared');
    expect(refused.storage.readToken()).toBeNull();
  });

  it('keeps the session when the server cannot be reached, and skips /reset-password', async () => {
    const offline = setup({ validateSession: vi.fn(async () => ({ status: 'unreachable' as const })) });
    offline.storage.save({ token: 'a.b.c', user: USER, area: 'local' });
    await expect(offline.controller.restore('/home')).resolves.toBe('kept');
    expect(offline.storage.readToken()?.token).toBe('a.b.c');

    const reset = setup();
    reset.storage.save({ token: 'a.b.c', user: USER, area: 'local' });
    await expect(reset.controller.restore('/reset-password')).resolves.toBe('skipped');
    expect(reset.deps.validateSession).not.toHaveBeenCalled();
  });

  it('shares one request between concurrent checks', async () => {
    const { controller, deps, storage } = setup();
    storage.save({ token: 'a.b.c', user: USER, area: 'local' });
    await Promise.all([controller.checkSession(), controller.checkSession()]);
    expect(deps.validateSession).toHaveBeenCalledTimes(1);
  });

  it('signs out when another tab removed the token this tab relies on', async () => {
    const { controller, local, deps } = setup();
    await controller.signIn({ token: 'a.b.c', user: USER, area: 'local' });
    const onSignedOut = vi.fn();
    controller.setSignedOutHandler(onSignedOut);

    controller.handleStorageChange({ key: 'theme', oldValue: 'dark', newValue: null });
    expect(onSignedOut).not.toHaveBeenCalled();

    local.map.delete('token');
    controller.handleStorageChange({ key: 'token', oldValue: 'a.b.c', newValue: null });
    await vi.waitFor(() => expect(onSignedOut).toHaveBeenCalledWith('other_tab'));
    expect(deps.revokeToken).not.toHaveBeenCalled();
  });

  it('ignores removals elsewhere while this tab keeps its own session', async () => {
    const { controller } = setup();
    await controller.signIn({ token: 'a.b.c', user: USER, area: 'session' });
    const onSignedOut = vi.fn();
    controller.setSignedOutHandler(onSignedOut);
    controller.handleStorageChange({ key: 'token', oldValue: 'x.y.z', newValue: null });
    expect(onSignedOut).not.toHaveBeenCalled();
  });

  it('reads stored users only with an id and an e-mail', () => {
    expect(parseStoredUser(USER)).toEqual(USER);
    expect(parseStoredUser({ userId: 'u', email: ' ' })).toBeNull();
    expect(parseStoredUser(null)).toBeNull();
  });
});
