import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { NEW_TOKEN_HEADER } from '#shared/auth/auth-constants';
import { SERVER_MESSAGES } from '#shared/messages';
import { unauthorized } from '../errors.ts';
import type {
  AuthContext,
  AuthenticatedSession,
  SessionCheck,
  SessionGate,
  SessionLiveness,
} from '../infra/session-contract.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A hot write whose own SQL re-checks the session row (docs/decisions/0018 §4): its token is
     * checked against this node's session cache, like a GET, instead of reading the row first.
     */
    isSessionGuardedInSql?: boolean;
  }
  interface FastifyRequest {
    /** Set by `app.authenticate` on routes that use it; null elsewhere. */
    auth: AuthContext | null;
    /** Set by `app.authenticateOrDefer` when the session row is the handler's to read; null elsewhere. */
    pendingAuth: PendingAuth | null;
  }
  interface FastifyInstance {
    /** preHandler for routes that need a signed-in user: `{ preHandler: app.authenticate }`. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * preHandler of a hot read whose first statement also reads the session row (the deck,
     * docs/decisions/0022 amendment 4): a cached session is `authenticate`'s; a cache miss leaves
     * `request.pendingAuth` for the handler to settle before it answers anything.
     */
    authenticateOrDefer(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

const MAX_TOKEN_LENGTH = 4096;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** The token of an `Authorization: Bearer <token>` header (or undefined when there is none). */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * A signed-in caller whose token is good but whose session row is still to be read: `settle` with
 * the row the handler's own statement read, or `resolve` to read it; either throws 401 or sets
 * `request.auth` (and the renewed token's header) like `authenticate`.
 */
export type PendingAuth = AuthContext & {
  settle(row: SessionLiveness | undefined): Promise<void>;
  resolve(): Promise<void>;
};

/**
 * Bearer-token authentication (QUALITY 7). 401 `{ success: false, message }` for a missing,
 * malformed, tampered, expired or revoked token; a token past half its life gets its successor in
 * `X-New-Token` (spec 000 §4).
 */
export const authPlugin = fp(
  async (app: FastifyInstance, options: { sessions: Pick<SessionGate, 'authenticate' | 'authenticateOrDefer'> }) => {
    // Reads and guarded hot writes trust the session cache; every other write reads the row.
    const checkOf = (request: FastifyRequest): SessionCheck =>
      request.method === 'GET' ||
      request.method === 'HEAD' ||
      request.routeOptions.config.isSessionGuardedInSql === true
        ? 'cache'
        : 'row';
    const tokenOf = (request: FastifyRequest): string => {
      const header = request.headers.authorization;
      const token = bearerToken(header);
      if (!token) throw unauthorized(header ? SERVER_MESSAGES.invalidToken : SERVER_MESSAGES.unauthorized);
      if (token.length > MAX_TOKEN_LENGTH || !JWT_SHAPE.test(token)) throw unauthorized(SERVER_MESSAGES.invalidToken);
      return token;
    };
    const accept = (request: FastifyRequest, reply: FastifyReply, session: AuthenticatedSession) => {
      request.auth = { userId: session.userId, sessionId: session.sessionId };
      if (session.renewedToken) {
        reply.header(NEW_TOKEN_HEADER, session.renewedToken);
        // A cross-origin client (a dev server on another port) may only read exposed headers.
        reply.header('access-control-expose-headers', NEW_TOKEN_HEADER);
      }
    };
    app.decorateRequest('auth', null);
    app.decorateRequest('pendingAuth', null);
    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      accept(request, reply, await options.sessions.authenticate(tokenOf(request), checkOf(request)));
    });
    app.decorate('authenticateOrDefer', async (request: FastifyRequest, reply: FastifyReply) => {
      const result = await options.sessions.authenticateOrDefer(tokenOf(request));
      if (result.status === 'live') {
        accept(request, reply, result.session);
        return;
      }
      const { pending } = result;
      request.pendingAuth = {
        userId: pending.userId,
        sessionId: pending.sessionId,
        settle: async (row) => accept(request, reply, await pending.settle(row)),
        resolve: async () => accept(request, reply, await pending.resolve()),
      };
    });
  },
  { name: 'auth' },
);

/** The authenticated caller of a route guarded by `app.authenticate`. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized(SERVER_MESSAGES.unauthorized);
  return request.auth;
}

/**
 * The caller of a route guarded by `app.authenticateOrDefer`: settled (`pending` absent) or
 * pending, whose identity must not be trusted until `pending.settle` or `pending.resolve` succeeds.
 */
export function callerOf(request: FastifyRequest): AuthContext & { pending?: PendingAuth } {
  if (request.auth) return request.auth;
  if (request.pendingAuth) {
    const { userId, sessionId } = request.pendingAuth;
    return { userId, sessionId, pending: request.pendingAuth };
  }
  throw unauthorized(SERVER_MESSAGES.unauthorized);
}
