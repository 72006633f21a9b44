/**
 * Sign-in and sign-out orchestration (spec 000 §4): storing the session, the login streak, the
 * server session check (at start-up and every 30 s on signed-in pages), sign-out from every cause
 * (the user, an auth failure, a failed check, another tab) and the registries other parts plug
 * into: `onSignIn` (open the socket, fetch unread counts) and `onSignOut` (close the socket, wipe
 * IndexedDB, the outbox and the push subscription — QUALITY 23).
 */
import * as v from 'valibot';
import {
  type AuthUser,
  type UpdateStreakResponse,
  type ValidateSessionResponse,
  ValidateSessionResponseSchema,
} from '#shared/auth/auth-schemas';
import { nextStreak, streakDay } from '#shared/auth/streak';
import { AUTH_REQUIRED_EVENT, ApiRequestError, requestJson, setLogoutHandler } from './http.ts';
import { TOKEN_KEY, type TokenStorage, type TokenStorageArea, tokenStorage, USER_KEY } from './token-storage.ts';

/** Spec 000 §9: "Session check every 30 seconds". */
export const SESSION_CHECK_INTERVAL_MS = 30_000;

/** Sign-out waits at most this long for the `onSignOut` wipes before it settles. */
const SIGN_OUT_WIPE_LIMIT_MS = 3000;

/** Why a session ended: the person, an auth failure on a call, the periodic check, another tab, start-up. */
export type SignOutReason = 'user' | 'auth_required' | 'session_check' | 'other_tab' | 'startup';

export type ActiveSession = {
  readonly token: string;
  readonly user: StoredUser;
  readonly area: TokenStorageArea;
  /** True when an earlier session was found in storage at start-up rather than just opened. */
  readonly isRestored: boolean;
};

/** What the client keeps as the user: the spec's fields, some possibly absent in older entries. */
export type StoredUser = Partial<AuthUser> & { readonly userId: string; readonly email: string };

/** The server's verdict: valid, invalid (401/403) or unknown (offline, time-out, server error). */
export type SessionCheckResult =
  | { status: 'valid'; user: AuthUser }
  | { status: 'invalid' }
  | { status: 'unreachable' };

type Listener<T> = (value: T) => void | Promise<void>;

/** The side effects the controller needs, so tests can pass fakes. */
export type SessionDependencies = {
  storage: TokenStorage;
  validateSession(): Promise<SessionCheckResult>;
  /** Revokes a token on the server; best effort, must never throw. */
  revokeToken(token: string): Promise<void>;
  postStreak(body: { userId: string; streak: number; lastLoginDate: string }): Promise<UpdateStreakResponse>;
  /** Deletes Cache Storage entries that may hold private data. */
  clearPrivateCaches(): Promise<void>;
  now(): Date;
  log(message: string, error?: unknown): void;
};

/** Reads a stored user entry; null unless it is an object with a userId and a non-empty email. */
export function parseStoredUser(value: unknown): StoredUser | null {
  if (typeof value !== 'object' || value === null) return null;
  const { userId, email } = value as Record<string, unknown>;
  if (typeof userId !== 'string' || userId === '') return null;
  if (typeof email !== 'string' || email.trim() === '') return null;
  return value as StoredUser;
}

/**
 * Runs the session check at once and then every `intervalMs` (never two at a time); stops and calls
 * `onInvalid` when the server says the session is over. An unreachable server is not a failure:
 * an offline-first app keeps its session until the server can answer.
 */
export function createSessionCheckScheduler(options: {
  check(): Promise<SessionCheckResult>;
  onInvalid(): void;
  intervalMs?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}) {
  const intervalMs = options.intervalMs ?? SESSION_CHECK_INTERVAL_MS;
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let timer: unknown;
  let isRunning = false;

  const tick = async () => {
    timer = undefined;
    let result: SessionCheckResult;
    try {
      result = await options.check();
    } catch {
      result = { status: 'unreachable' };
    }
    if (!isRunning) return;
    if (result.status === 'invalid') {
      isRunning = false;
      options.onInvalid();
      return;
    }
    timer = setTimer(() => void tick(), intervalMs);
  };

  return {
    start() {
      if (isRunning) return;
      isRunning = true;
      void tick();
    },
    stop() {
      isRunning = false;
      if (timer !== undefined) clearTimer(timer);
      timer = undefined;
    },
    get isRunning() {
      return isRunning;
    },
  };
}

export type SessionController = ReturnType<typeof createSessionController>;

/** The session layer over injected dependencies; the app uses the `session` instance below. */
export function createSessionController(deps: SessionDependencies) {
  const signInListeners = new Set<Listener<ActiveSession>>();
  const signOutListeners = new Set<Listener<SignOutReason>>();
  let signedOutHandler: ((reason: SignOutReason) => void) | undefined;
  let signingOut: Promise<void> | null = null;
  let inFlightCheck: Promise<SessionCheckResult> | null = null;

  const readSession = (isRestored: boolean): ActiveSession | null => {
    const stored = deps.storage.readToken();
    const user = parseStoredUser(deps.storage.readUser());
    if (!stored || !user) return null;
    return { token: stored.token, area: stored.area, user, isRestored };
  };

  /**
   * Calls every listener once, including those registered while the others run: the app loads
   * the signed-in runtime lazily from a listener, and the runtime's own listeners must hear the
   * sign-in (or sign-out) that loaded it.
   */
  const notifyAll = async <T>(listeners: Set<Listener<T>>, value: T, failure: string) => {
    const called = new Set<Listener<T>>();
    for (;;) {
      const pending = [...listeners].filter((listener) => !called.has(listener));
      if (pending.length === 0) return;
      for (const listener of pending) called.add(listener);
      await Promise.all(
        pending.map(async (listener) => {
          try {
            await listener(value);
          } catch (error) {
            deps.log(failure, error);
          }
        }),
      );
    }
  };

  const notifySignIn = (session: ActiveSession) => notifyAll(signInListeners, session, 'an onSignIn listener failed');

  const runSignOutWipes = async (reason: SignOutReason) => {
    const wipes = Promise.all([
      deps.clearPrivateCaches().catch((error) => deps.log('clearing caches failed', error)),
      notifyAll(signOutListeners, reason, 'an onSignOut listener failed'),
    ]);
    let limit: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([wipes, new Promise<void>((resolve) => (limit = setTimeout(resolve, SIGN_OUT_WIPE_LIMIT_MS)))]);
    clearTimeout(limit);
  };

  /** Keeps the stored user in step (same storages, same token). */
  const patchStoredUser = (patch: Partial<AuthUser>, expectedToken: string) => {
    if (deps.storage.readToken()?.token !== expectedToken) return;
    const current = parseStoredUser(deps.storage.readUser());
    if (current) deps.storage.replaceUser({ ...current, ...patch });
  };

  const controller = {
    /** Calls `listener` after every sign-in and every session restored at start-up; returns the unsubscribe. */
    onSignIn(listener: Listener<ActiveSession>): () => void {
      signInListeners.add(listener);
      return () => signInListeners.delete(listener);
    },

    /**
     * Calls `listener` on every sign-out, before the token is cleared (capped at a few seconds, so a
     * listener may still call the server): close the socket, wipe IndexedDB and the outbox, drop
     * the push subscription. Returns the unsubscribe.
     */
    onSignOut(listener: Listener<SignOutReason>): () => void {
      signOutListeners.add(listener);
      return () => signOutListeners.delete(listener);
    },

    /** The signed-in session held in storage, or null. */
    current(): ActiveSession | null {
      return readSession(false);
    },

    /** Where the app goes after a sign-out (the app layer navigates; this layer knows no router). */
    setSignedOutHandler(handler: ((reason: SignOutReason) => void) | undefined) {
      signedOutHandler = handler;
    },

    /**
     * Stores a new session (spec 000 §4: local storage with "Recuérdame", session storage
     * otherwise, or both), tells the `onSignIn` listeners and posts the login streak.
     */
    async signIn(input: { token: string; user: StoredUser; area: TokenStorageArea | 'both' }): Promise<ActiveSession> {
      if (signingOut) await signingOut;
      deps.storage.save({ token: input.token, user: input.user, area: input.area });
      const session = readSession(false) ?? {
        token: input.token,
        user: input.user,
        area: input.area === 'local' ? 'local' : 'session',
        isRestored: false,
      };
      void controller.updateLoginStreak(session);
      await notifySignIn(session);
      return session;
    },

    /**
     * The login streak (spec 000 §4): computed with the shared rule, kept in the stored user and
     * posted to the server, whose answer (it recomputes from its own records) wins. A failure is
     * only logged.
     */
    async updateLoginStreak(session: Pick<ActiveSession, 'token' | 'user'>): Promise<void> {
      const { user } = session;
      const next = nextStreak(
        { streak: typeof user.streak === 'number' ? user.streak : 0, lastLoginDate: user.lastLoginDate ?? null },
        streakDay(deps.now()),
      );
      const lastLoginDate = next.lastLoginDate ?? streakDay(deps.now());
      patchStoredUser({ streak: next.streak, lastLoginDate }, session.token);
      try {
        const answer = await deps.postStreak({ userId: user.userId, streak: next.streak, lastLoginDate });
        patchStoredUser({ streak: answer.streak, lastLoginDate: answer.lastLoginDate }, session.token);
      } catch (error) {
        deps.log('the login streak could not be saved', error);
      }
    },

    /** One server session check; concurrent callers share the same request. */
    checkSession(): Promise<SessionCheckResult> {
      if (!deps.storage.readToken()) return Promise.resolve({ status: 'invalid' });
      inFlightCheck ??= deps.validateSession().finally(() => {
        inFlightCheck = null;
      });
      return inFlightCheck;
    },

    /**
     * Ends the session: clears private caches and runs the `onSignOut` listeners (at most 3 s)
     * while the token is still stored, then clears token and user from both storages, revokes
     * the token on the server (best effort, docs/decisions/0003) and hands over to the
     * signed-out handler (the app goes to /login). Calls made while one is running share it.
     */
    signOut(reason: SignOutReason = 'user'): Promise<void> {
      if (signingOut) return signingOut;
      signingOut = (async () => {
        const token = deps.storage.readToken()?.token;
        // The listeners run first, while the token is still stored and valid: dropping the push
        // subscription is a server call on behalf of this session (QUALITY 23). Capped at 3 s.
        await runSignOutWipes(reason);
        deps.storage.clear();
        if (token) void deps.revokeToken(token);
        signedOutHandler?.(reason);
      })().finally(() => {
        signingOut = null;
      });
      return signingOut;
    },

    /**
     * Start-up (spec 000 §4): a stored token plus user is checked with the server; stored
     * credentials are cleared when it is invalid or the user has no e-mail. Skipped on
     * /reset-password, where a stored session must not interfere with the link.
     */
    async restore(pathname: string): Promise<'restored' | 'cleared' | 'none' | 'kept' | 'skipped'> {
      if (pathname.startsWith('/reset-password')) return 'skipped';
      const stored = deps.storage.readToken();
      if (!stored) return 'none';
      if (!parseStoredUser(deps.storage.readUser())) {
        deps.storage.clear();
        return 'cleared';
      }
      const result = await controller.checkSession();
      if (result.status === 'invalid') {
        // The 401 itself already went through the auth-failure rule; this covers any other refusal.
        if (deps.storage.readToken()?.token === stored.token) await controller.signOut('startup');
        return 'cleared';
      }
      if (result.status === 'valid') patchStoredUser(result.user, stored.token);
      const session = readSession(true);
      if (session) await notifySignIn(session);
      return result.status === 'valid' ? 'restored' : 'kept';
    },

    /**
     * The reaction to a `storage` event from another tab: when the token or the user entry was
     * removed there and this tab is left without a complete session, it signs out too.
     */
    handleStorageChange(event: Pick<StorageEvent, 'key' | 'newValue' | 'oldValue'>): void {
      const isRemoval = event.key === null || (event.newValue === null && event.oldValue !== null);
      if (!isRemoval) return;
      if (event.key !== null && event.key !== TOKEN_KEY && event.key !== USER_KEY) return;
      if (readSession(false)) return;
      void controller.signOut('other_tab');
    },
  };
  return controller;
}

/** GET /auth/validate-session: a 401/403 is invalid; no answer or a server error is unreachable. */
export async function validateSessionOnServer(): Promise<SessionCheckResult> {
  try {
    const answer = await requestJson<ValidateSessionResponse>('auth/validate-session', { timeout: 10_000 });
    const parsed = v.safeParse(ValidateSessionResponseSchema, answer);
    return parsed.success ? { status: 'valid', user: parsed.output.user } : { status: 'invalid' };
  } catch (error) {
    if (error instanceof ApiRequestError && error.kind === 'http' && (error.status === 401 || error.status === 403)) {
      return { status: 'invalid' };
    }
    return { status: 'unreachable' };
  }
}

/**
 * POST /auth/logout with the given token. Plain fetch, not the shared client: the token is
 * already gone from storage, and a 401 here must not re-enter the auth-failure rule.
 * `keepalive` lets it finish while the page navigates.
 */
async function revokeTokenOnServer(token: string): Promise<void> {
  try {
    await fetch('/api/auth/logout', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      keepalive: true,
    });
  } catch {
    // Offline: the session ends by itself (docs/decisions/0002).
  }
}

/**
 * Cache Storage entries other than Workbox's precache (the app shell, public by nature) may hold
 * private data such as photos or API answers; they go at sign-out (QUALITY 23).
 */
async function clearPrivateCachesInBrowser(): Promise<void> {
  if (typeof caches === 'undefined') return;
  const names = await caches.keys();
  await Promise.all(names.filter((name) => !name.startsWith('workbox-precache')).map((name) => caches.delete(name)));
}

/** The app's session layer over the browser. */
export const session: SessionController = createSessionController({
  storage: tokenStorage,
  validateSession: validateSessionOnServer,
  revokeToken: revokeTokenOnServer,
  postStreak: (body) => requestJson<UpdateStreakResponse>('auth/update-streak', { method: 'post', json: body }),
  clearPrivateCaches: clearPrivateCachesInBrowser,
  now: () => new Date(),
  log: (message, error) => console.warn(`[session] ${message}`, error ?? ''),
});

/** Registry for what must happen on every sign-in or restored session (socket, unread counts). */
export const onSignIn = session.onSignIn;
/** Registry for what must happen on every sign-out (socket, IndexedDB wipe, outbox, push). */
export const onSignOut = session.onSignOut;
export const signIn = session.signIn;
export const signOut = session.signOut;

let isStarted = false;

/**
 * Wires the session layer into the page once: the logout handler of the HTTP client, the
 * `auth_required` event, sign-outs in other tabs, and the start-up check of a stored session.
 */
export function startSession(options: { onSignedOut(reason: SignOutReason): void }): void {
  session.setSignedOutHandler(options.onSignedOut);
  if (isStarted || typeof window === 'undefined') return;
  isStarted = true;
  setLogoutHandler(() => void session.signOut('auth_required'));
  window.addEventListener(AUTH_REQUIRED_EVENT, () => void session.signOut('auth_required'));
  window.addEventListener('storage', (event) => {
    if (event.storageArea === window.localStorage || event.storageArea === null) session.handleStorageChange(event);
  });
  void session.restore(window.location.pathname);
}

/** Starts the 30-second session check for a signed-in page; returns the stop function. */
export function startSessionChecks(): () => void {
  const scheduler = createSessionCheckScheduler({
    check: () => session.checkSession(),
    onInvalid: () => void session.signOut('session_check'),
  });
  scheduler.start();
  return () => scheduler.stop();
}
