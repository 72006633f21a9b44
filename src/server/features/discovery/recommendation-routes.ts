import type { FastifyInstance } from 'fastify';
import type { RecommendedResponse } from '#shared/discovery/discovery-schemas';
import { requireAuth } from '../../plugins/auth.ts';
import type { RecommendationService } from './recommendation-service.ts';

/** `GET /api/profiles/{userId}/recommended?page&limit` (spec 001 §7); the caller must be {userId}. */
export async function recommendationRoutes(app: FastifyInstance, options: { recommendations: RecommendationService }) {
  app.get<{ Params: { userId: string } }>(
    '/profiles/:userId/recommended',
    { preHandler: app.authenticate },
    async (request): Promise<RecommendedResponse> => {
      return options.recommendations.recommended(requireAuth(request).userId, request.params.userId, request.query);
    },
  );
}
