import type { FastifyInstance } from 'fastify';
import type { RecommendedResponse } from '#shared/discovery/discovery-schemas';
import { callerOf } from '../../plugins/auth.ts';
import type { RecommendationService } from './recommendation-service.ts';

/** `GET /api/profiles/{userId}/recommended?page&limit` (spec 001 §7); the caller must be {userId}. */
export async function recommendationRoutes(app: FastifyInstance, options: { recommendations: RecommendationService }) {
  app.get<{ Params: { userId: string } }>(
    '/profiles/:userId/recommended',
    // The session row of a cold caller is read by the deck's first statement (decision 0022, amendment 4).
    { preHandler: app.authenticateOrDefer },
    async (request): Promise<RecommendedResponse> => {
      return options.recommendations.recommended(callerOf(request), request.params.userId, request.query);
    },
  );
}
