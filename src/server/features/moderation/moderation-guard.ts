import type { FastifyReply, FastifyRequest } from 'fastify';
import { NEW_TOKEN_HEADER } from '#shared/auth/auth-constants';
import { SERVER_MESSAGES } from '#shared/messages';
import { AppError, notFound } from '../../errors.ts';
import type { ModeratorRecord, ModeratorRoleRepository } from './moderator-role-repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the moderation guard on `/api/moderation/*`; null elsewhere. */
    moderator: ModeratorRecord | null;
  }
}

/** Exactly what an unknown `/api` path answers, so the console's routes cannot be told from none. */
export const invisible = () => notFound(SERVER_MESSAGES.routeNotFound);

/**
 * The preHandler of every `/api/moderation/*` route: the caller must be signed in and hold a
 * role. Anything else (no token, a bad or revoked one, a plain user) gets the same 404 as a path
 * that does not exist — never 401 or 403, which would tell that the console is there.
 */
export function createModerationGuard(deps: {
  authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  roles: Pick<ModeratorRoleRepository, 'find'>;
}) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await deps.authenticate(request, reply);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 401) throw invisible();
      throw error;
    }
    const userId = request.auth?.userId;
    const moderator = userId ? await deps.roles.find(userId) : undefined;
    if (!moderator) {
      // A renewed token must not reach a caller who is told the route does not exist.
      reply.removeHeader(NEW_TOKEN_HEADER);
      reply.removeHeader('access-control-expose-headers');
      throw invisible();
    }
    request.moderator = moderator;
  };
}

/** The moderator of a route behind the guard. */
export function requireModerator(request: FastifyRequest): ModeratorRecord {
  if (!request.moderator) throw invisible();
  return request.moderator;
}
