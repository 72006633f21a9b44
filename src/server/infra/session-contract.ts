/**
 * What the auth plugins and other features know of a session: the session service
 * (features/auth/session-service.ts) implements `SessionGate`, and the plugins take it as such,
 * so plugins never import a feature.
 */
import type { TokenInvalidatedReason } from '#shared/auth/auth-schemas';

/** Who made an authenticated request, and the fresh token to hand back when one was made. */
export type AuthContext = { userId: string; sessionId: string };
export type AuthenticatedSession = AuthContext & {
  /** When the token passed half its life: a new one (spec 000 §4, the `X-New-Token` header). */
  renewedToken: string | undefined;
  /** End of the presented token's validity. */
  expiresAt: Date;
};

/** The fields of a `sessions` row that decide whether a token is good (a caller's own statement may read them). */
export type SessionLiveness = {
  id: string;
  userId: string;
  rememberMe: boolean;
  expiresAt: Date;
  maxExpiresAt: Date;
  revokedAt: Date | null;
};

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

/** Told about every revocation, to cut real-time connections (plugins/realtime-auth.ts). */
export type SessionRevocationListener = (event: SessionsRevoked) => void | Promise<void>;

/**
 * Where a token's session is checked: `row` reads the `sessions` row (rare, security-sensitive
 * writes); `cache` trusts this node's session cache (GETs, socket events and the hot writes, whose
 * own SQL re-checks the row: docs/decisions/0018 §2, §4).
 */
export type SessionCheck = 'row' | 'cache';

/** The session service as the HTTP and socket auth plugins use it. */
export type SessionGate = {
  authenticate(token: string, check?: SessionCheck): Promise<AuthenticatedSession>;
  authenticateOrDefer(token: string): Promise<DeferredAuthentication>;
  /** A socket handshake's token: the session live and the account still open (docs/decisions/0043). */
  verifyToken(token: string): Promise<AuthContext & { sessionEndsAt: Date }>;
  sessionEnd(sessionId: string, userId: string): Promise<Date | undefined>;
  isLive(auth: AuthContext): Promise<boolean>;
};
