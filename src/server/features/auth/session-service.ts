import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { REMEMBER_ME_SESSION_DAYS } from '#shared/auth/auth-constants';
import type { AuthUser, TokenInvalidatedReason } from '#shared/auth/auth-schemas';
import { SERVER_MESSAGES } from '#shared/messages';
import type { Clock } from '../../clock.ts';
import { unauthorized } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { InvalidationBus } from '../../plugins/invalidation-bus.ts';
import { toAuthUser } from './auth-user.ts';
import { type CachedSession, createSessionCache } from './session-cache.ts';
import type { SessionRecord, SessionRepository } from './session-repository.ts';
import { type VerifiedClaims, verifyHs256 } from './token-verify.ts';
import type { UserRepository } from './user-repository.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Session lengths (docs/decisions/0002): a session slides forward with use by its idle length and
 * never lives past its cap. "Recuérdame" keeps it 30 days from the last use (as the user is
 * told), at most 90; otherwise 12 hours from the last use, at most 24.
 */
export const SESSION_POLICY = {
  remembered: { idleMs: REMEMBER_ME_SESSION_DAYS * DAY_MS, maxMs: 90 * DAY_MS },
  short: { idleMs: 12 * HOUR_MS, maxMs: 24 * HOUR_MS },
} as const;

export const TOKEN_ALGORITHM = 'HS256';
export const TOKEN_ISSUER = 'entreno';

/** Who made an authenticated request, and the fresh token to hand back when one was made. */
export type AuthContext = { userId: string; sessionId: string };
export type AuthenticatedSession = AuthContext & {
  /** When the token passed half its life: a new one (spec 000 §4, the `X-New-Token` header). */
  renewedToken: string | undefined;
  /** End of the presented token's validity. */
  expiresAt: Date;
};

/** The fields of a `sessions` row that decide whether a token is good (a caller's own statement may read them). */
export type SessionLiveness = CachedSession & { revokedAt: Date | null };

/**
 * A token whose signature, algorithm, issuer and expiry are good and whose session this node has
 * not cached: the route reads the session row in its own first statement and hands it to
 * `settle` (the same checks as a row read; 401 when it fails), or calls `resolve` to have it read
 * here (docs/decisions/0022 amendment 4). Nothing may be answered before either succeeds.
 */
export type PendingSession = AuthContext & {
  settle(row: SessionLiveness | undefined): Promise<AuthenticatedSession>;
  resolve(): Promise<AuthenticatedSession>;
};

/** A token checked against the cache, or one whose session row the route reads itself. */
export type DeferredAuthentication =
  | { status: 'live'; session: AuthenticatedSession }
  | { status: 'pending'; pending: PendingSession };

export type SessionsRevoked = {
  userId: string;
  /** 'session': only `sessionIds`; 'user': every session of the user. */
  scope: 'session' | 'user';
  sessionIds: string[];
  reason: TokenInvalidatedReason;
};

/** Told about every revocation, to cut real-time connections (plugins/realtime.ts). */
export type SessionRevocationListener = (event: SessionsRevoked) => void | Promise<void>;

export type SessionServiceDeps = {
  sessions: SessionRepository;
  users: UserRepository;
  clock: Clock;
  logger: Logger;
  /** HS256 key (secrets.ts). */
  tokenKey: Uint8Array;
  onRevoked: SessionRevocationListener;
  /** Every node's revocations (docs/decisions/0018 §3): this node's session cache listens to it. */
  bus: InvalidationBus;
  /**
   * Asked before any session opens (password, Google, registration); throws to refuse it — a
   * suspended or banned account (docs/decisions/0033).
   */
  signInGate?: (userId: string) => Promise<void>;
};

/**
 * Where a token's session is checked: `row` reads the `sessions` row (rare, security-sensitive
 * writes); `cache` trusts this node's session cache (GETs, socket events and the hot writes, whose
 * own SQL re-checks the row: docs/decisions/0018 §2, §4).
 */
export type SessionCheck = 'row' | 'cache';

export type SessionService = ReturnType<typeof createSessionService>;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** Signed bearer tokens backed by revocable `sessions` rows (QUALITY 7). */
export function createSessionService(deps: SessionServiceDeps) {
  const { sessions, clock } = deps;
  const cache = createSessionCache(deps.bus);

  /** This node's cached session when it is live now (a cached end in the past may have slid forward on another node). */
  const cachedLive = (sessionId: string): CachedSession | undefined => {
    const cached = cache.get(sessionId);
    return cached && cached.expiresAt.getTime() > clock.now().getTime() ? cached : undefined;
  };

  /** The session a row read says is live (and cached), or undefined (and dropped from the cache). */
  const liveFromRow = (sessionId: string, row: SessionLiveness | undefined): CachedSession | undefined => {
    if (!row || row.revokedAt || row.expiresAt.getTime() <= clock.now().getTime()) {
      cache.delete(sessionId);
      return undefined;
    }
    cache.set(row);
    return row;
  };

  /** The live session, from the cache when allowed and fresh, else from its row (which refills it). */
  const liveSession = async (sessionId: string, check: SessionCheck): Promise<CachedSession | undefined> => {
    const cached = check === 'cache' ? cachedLive(sessionId) : undefined;
    return cached ?? liveFromRow(sessionId, await sessions.findById(sessionId));
  };

  // The HMAC key as one KeyObject, which jose converts once and caches: given the raw bytes, it
  // imports them again on every sign (crypto.subtle.importKey), costlier than the HMAC. Verifying
  // does not go through jose at all (token-verify.ts: node:crypto, synchronous).
  const tokenKey = createSecretKey(deps.tokenKey);

  const sign = (session: { id: string; userId: string }, issuedAt: Date, expiresAt: Date) =>
    new SignJWT({ sid: session.id })
      .setProtectedHeader({ alg: TOKEN_ALGORITHM, typ: 'JWT' })
      .setSubject(session.userId)
      .setIssuer(TOKEN_ISSUER)
      .setIssuedAt(seconds(issuedAt))
      .setExpirationTime(seconds(expiresAt))
      .sign(tokenKey);

  /**
   * Verifies signature, algorithm, issuer and exp (node:crypto, synchronously: token-verify.ts),
   * then the session row: live, not revoked, same user.
   */
  const claimsOf = (token: string) => {
    const claims = verifyHs256(token, deps.tokenKey, { issuer: TOKEN_ISSUER, now: clock.now() });
    if (!claims || !isUuid(claims.sid)) throw unauthorized(SERVER_MESSAGES.invalidToken);
    return claims;
  };

  /** The token's claims matched with its live session (401 when there is none or it is another user's). */
  const verified = (claims: VerifiedClaims, session: CachedSession | undefined) => {
    if (!session || session.userId !== claims.sub) throw unauthorized(SERVER_MESSAGES.invalidToken);
    return {
      session,
      issuedAt: new Date(claims.iat * 1000),
      expiresAt: new Date(claims.exp * 1000),
      now: clock.now(),
    };
  };

  const verify = async (token: string, check: SessionCheck) => {
    const claims = claimsOf(token);
    return verified(claims, await liveSession(claims.sid, check));
  };

  /** Past half the token's life, the session slides forward and a new token comes back, never ending after the session's cap. */
  const renewIfDue = async ({
    session,
    issuedAt,
    expiresAt,
    now,
  }: ReturnType<typeof verified>): Promise<AuthenticatedSession> => {
    const context = { userId: session.userId, sessionId: session.id, expiresAt };
    const halfLifeMs = (expiresAt.getTime() - issuedAt.getTime()) / 2;
    if (now.getTime() - issuedAt.getTime() < halfLifeMs) return { ...context, renewedToken: undefined };
    const wantedEnd = new Date(Math.min(now.getTime() + policyOf(session).idleMs, session.maxExpiresAt.getTime()));
    // At the cap there is nothing to extend: the token already ends when the session does.
    if (seconds(wantedEnd) <= seconds(expiresAt)) return { ...context, renewedToken: undefined };
    const extended = await sessions.extend(session.id, wantedEnd, now);
    if (!extended) {
      cache.delete(session.id);
      throw unauthorized(SERVER_MESSAGES.invalidToken);
    }
    cache.set(extended);
    return { ...context, renewedToken: await sign(extended, now, extended.expiresAt) };
  };

  const policyOf = (session: Pick<SessionRecord, 'rememberMe'>) =>
    session.rememberMe ? SESSION_POLICY.remembered : SESSION_POLICY.short;

  const revoked = async (event: SessionsRevoked) => {
    // Every node's cache first (this one synchronously): the next request is refused anywhere.
    await deps.bus.publish({
      type: 'sessions-revoked',
      userId: event.userId,
      sessionIds: event.scope === 'user' ? 'all' : event.sessionIds,
    });
    try {
      await deps.onRevoked(event);
    } catch (error) {
      // The rows are revoked either way: HTTP refuses the tokens; sockets re-check on reconnect.
      deps.logger.error({ err: error }, 'sessions: notifying a revocation failed');
    }
  };

  return {
    /** Opens a session for the user and returns its token and the user (login, registration, Google). */
    async issueSession(userId: string, options: { rememberMe: boolean }): Promise<{ token: string; user: AuthUser }> {
      const user = await deps.users.findById(userId);
      if (!user) throw new Error(`issueSession: no user ${userId}`);
      await deps.signInGate?.(userId);
      const now = clock.now();
      const policy = options.rememberMe ? SESSION_POLICY.remembered : SESSION_POLICY.short;
      const session = await sessions.create({
        userId,
        rememberMe: options.rememberMe,
        createdAt: now,
        expiresAt: new Date(now.getTime() + policy.idleMs),
        maxExpiresAt: new Date(now.getTime() + policy.maxMs),
      });
      return { token: await sign(session, now, session.expiresAt), user: toAuthUser(user) };
    },

    /**
     * Authenticates an HTTP request's token. Past half its life, the session slides forward and a
     * new token comes back, never ending after the session's cap.
     */
    async authenticate(token: string, check: SessionCheck = 'row'): Promise<AuthenticatedSession> {
      return renewIfDue(await verify(token, check));
    },

    /**
     * `authenticate(token, 'cache')` when this node has the session cached; otherwise the claims
     * and a pending check the route completes with the row its own first statement reads, so a
     * cold request costs no separate session read (docs/decisions/0022 amendment 4).
     */
    async authenticateOrDefer(token: string): Promise<DeferredAuthentication> {
      const claims = claimsOf(token);
      const cached = cachedLive(claims.sid);
      if (cached) return { status: 'live', session: await renewIfDue(verified(claims, cached)) };
      return {
        status: 'pending',
        pending: {
          userId: claims.sub,
          sessionId: claims.sid,
          settle: (row) => renewIfDue(verified(claims, liveFromRow(claims.sid, row))),
          resolve: async () => renewIfDue(verified(claims, await liveSession(claims.sid, 'row'))),
        },
      };
    },

    /** Authenticates a socket's token (no renewal: sockets get new tokens by reconnecting). */
    async verifyToken(token: string): Promise<AuthContext & { sessionEndsAt: Date }> {
      const { session, expiresAt } = await verify(token, 'row');
      const sessionEndsAt = new Date(Math.min(session.expiresAt.getTime(), expiresAt.getTime()));
      return { userId: session.userId, sessionId: session.id, sessionEndsAt };
    },

    /**
     * When the session ends now (re-read from its row: it may have slid forward), or undefined
     * when it is revoked or over — then every node's cache is told to drop it.
     */
    async sessionEnd(sessionId: string, userId: string): Promise<Date | undefined> {
      const session = await liveSession(sessionId, 'row');
      if (session) return session.expiresAt;
      await deps.bus.publish({ type: 'sessions-revoked', userId, sessionIds: [sessionId] });
      return undefined;
    },

    /**
     * Whether a socket's session is still live, from this node's cache (a miss reads the row):
     * every socket event asks before any other work (docs/decisions/0018 §2).
     */
    async isLive(auth: AuthContext): Promise<boolean> {
      const session = await liveSession(auth.sessionId, 'cache');
      return session?.userId === auth.userId;
    },

    /** Ends one session (logout): its tokens stop working and its sockets are told and dropped. */
    async revokeSession(context: AuthContext, reason: TokenInvalidatedReason): Promise<void> {
      await sessions.revoke(context.sessionId, clock.now());
      await revoked({ userId: context.userId, scope: 'session', sessionIds: [context.sessionId], reason });
    },

    /** Ends every session of a user (password reset, account deletion). */
    async revokeAllSessions(userId: string, reason: TokenInvalidatedReason): Promise<void> {
      const sessionIds = await sessions.revokeAllForUser(userId, clock.now());
      await revoked({ userId, scope: 'user', sessionIds, reason });
    },
  };
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
