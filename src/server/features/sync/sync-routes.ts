import type { FastifyInstance } from 'fastify';
import type { SyncResponse } from '#shared/chat/chat-schemas';
import { requireAuth } from '../../plugins/auth.ts';
import type { SyncService } from './sync-service.ts';

/** `GET /api/sync?since&limit` (docs/decisions/0041), mounted at /api. */
export async function syncRoutes(app: FastifyInstance, options: { sync: SyncService }) {
  app.get('/sync', { preHandler: app.authenticate }, async (request): Promise<SyncResponse> => {
    return options.sync.sync(requireAuth(request).userId, request.query);
  });
}
