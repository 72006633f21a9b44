import type { FastifyInstance } from 'fastify';
import type { MatchesResponse, SwipeResponse, UndoSwipeResponse } from '#shared/discovery/discovery-schemas';
import { requireAuth } from '../../plugins/auth.ts';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import { enforceSwipeLimit } from './swipe-limits.ts';
import type { SwipeService } from './swipe-service.ts';
import type { SwipeUndoService } from './swipe-undo-service.ts';

type Params = { id: string };

/** Swipes and matches (spec 001 §7), mounted at /api/swipes; the caller must be {id}. */
export async function swipeRoutes(
  app: FastifyInstance,
  options: { swipes: SwipeService; undos: SwipeUndoService; limiter: RateLimiter },
) {
  const { swipes } = options;
  const guarded = { preHandler: app.authenticate };

  // The swipe's statement re-checks the session row itself (docs/decisions/0018 §4).
  const hotWrite = { ...guarded, config: { isSessionGuardedInSql: true } };
  app.post<{ Params: Params }>('/users/:id/swipe', hotWrite, async (request): Promise<SwipeResponse> => {
    await enforceSwipeLimit(options.limiter, requireAuth(request).userId);
    return swipes.swipe(requireAuth(request), request.params.id, request.body);
  });

  // "Deshacer" counts against the same budget as the swipes it takes back (docs/decisions/0023).
  app.post<{ Params: Params }>('/users/:id/undo', guarded, async (request): Promise<UndoSwipeResponse> => {
    await enforceSwipeLimit(options.limiter, requireAuth(request).userId);
    return options.undos.undo(requireAuth(request).userId, request.params.id, request.body);
  });

  app.get<{ Params: Params }>('/users/:id/matches', guarded, async (request): Promise<MatchesResponse> => {
    return swipes.listMatches(requireAuth(request).userId, request.params.id);
  });
}
