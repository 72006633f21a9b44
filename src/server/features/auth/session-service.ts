import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { REMEMBER_ME_SESSION_DAYS } from '#shared/auth/auth-constants';
import type { AuthUser, TokenInvalidatedReason } from '#shared/auth/auth-schemas';
import { SERVER_MESSAGES } from '#shared/messages';
import type { Clock } from '../../infra/clock.ts';
import { unauthorized } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { InvalidationBus } from '../../infra/invalidation-bus.ts';
import type {
  AuthContext,
  AuthenticatedSession,
  DeferredAuthentication,
  SessionCheck,
  SessionLiveness,
  SessionRevocationListener,
  SessionsRevoked,
} from '../../infra/session-contract.ts';
import type { AccountGate, SecondFactor } from './account-gate.ts';
import { toAuthUser } from './auth-user.ts';
import { type CachedSession, createSessionCache } from './session-cache.ts';
import type { SessionRecord, SessionRepository } from './session-repository.ts';
import { createTokenVerifier, type VerifiedClaims } from './token-verify.ts';

const HOUR_MS = 3_600_000;
/** Sessions a statement of `refreshCached` reads at most. */
const REFRESH_CHUNK = 5_000;
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

export type {
  AuthContext,
  AuthenticatedSession,
  DeferredAuthentication,
  PendingSession,
  SessionCheck,
  SessionLiveness,
  SessionRevocationListener,
  SessionsRevoked,
} from '../../infra/session-contract.ts';

export const TOKEN_ALGORITHM = 'HS256';
export const TOKEN_ISSUER = 'entreno';

export type SessionServiceDeps = {
  sessions: SessionRepository;
  clock: Clock;
  logger: Logger;
  /** HS256 key (secrets.ts). */
  tokenKey: Uint8Array;
  onRevoked: SessionRevocationListener;
  /** Every node's revocations (docs/decisions/0018 §3): this node's session cache listens to it. */
  bus: InvalidationBus;
  /**
   * The account-state gate (docs/decisions/0043): asked before any session opens, and again when
   * a token is renewed or a socket connects.
   */
  gate: Pick<AccountGate, 'admit' | 'isOpen'>;
};

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

  const tokenClaims = createTokenVerifier(deps.tokenKey, { issuer: TOKEN_ISSUER });

  /**
   * Verifies signature, algorithm, issuer and exp (node:crypto, synchronously, a token seen
   * before from memory: token-verify.ts),
   * then the session row: live, not revoked, same user.
   */
  const claimsOf = (token: string) => {
    const claims = tokenClaims(token, clock.now());
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
    // A renewal is a way in too: a deleted, suspended or banned account gets no new token, and
    // its sessions end here (docs/decisions/0043).
    await assertStillOpen(session.userId);
    const extended = await sessions.extend(session.id, wantedEnd, now);
    if (!extended) {
      cache.delete(session.id);
      throw unauthorized(SERVER_MESSAGES.invalidToken);
    }
    cache.set(extended);
    return { ...context, renewedToken: await sign(extended, now, extended.expiresAt) };
  };

  /** A live session's account asked again; when it is closed, every session of it ends (401). */
  const assertStillOpen = async (userId: string) => {
    if (await deps.gate.isOpen(userId)) return;
    const sessionIds = await sessions.revokeAllForUser(userId, clock.now());
    await revoked({ userId, scope: 'user', sessionIds, reason: 'revoked' });
    throw unauthorized(SERVER_MESSAGES.invalidToken);
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
    /**
     * Opens a session for the user and returns its token and the user (every sign-in path), once
     * the account-state gate admits it with the factors shown (docs/decisions/0043; none by
     * default, so an account with two-step on is refused unless its second step is named).
     */
    async issueSession(
      userId: string,
      options: { rememberMe: boolean; secondFactor?: SecondFactor },
    ): Promise<{ token: string; user: AuthUser }> {
      const user = await deps.gate.admit(userId, options.secondFactor ?? 'none');
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
      await assertStillOpen(session.userId);
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
     * Reads again, in one statement a chunk, the rows of the cached sessions in use whose rows
     * were read a while ago (session-cache.ts `takeDue`), so a session in use stays cached: run
     * every few seconds by the auth module. Revocations still drop entries at once (the bus).
     */
    async refreshCached(): Promise<void> {
      const due = cache.takeDue();
      try {
        const live: CachedSession[] = [];
        for (let start = 0; start < due.ids.length; start += REFRESH_CHUNK)
          live.push(...(await sessions.findLive(due.ids.slice(start, start + REFRESH_CHUNK), clock.now())));
        due.settle(live);
      } catch (error) {
        due.abandon();
        throw error;
      }
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
