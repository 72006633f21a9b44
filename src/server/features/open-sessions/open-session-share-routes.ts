import type { FastifyInstance } from 'fastify';
import type { QuedadaShareListResponse, QuedadaShareResponse } from '#shared/quedadas/share-schemas';
import { requireAuth } from '../../plugins/auth.ts';
import type { OpenSessionShareService } from './open-session-share-service.ts';

type Params = { id: string };

/**
 * «Compartir con alguien de confianza» for an open session (docs/decisions/0054, amendment of
 * session 17), under `/api/open-sessions`: the create carries the outbox's clientId (a replay
 * answers 200 with the same share). Revoke and «¿Todo bien?» are `/api/quedadas/shares/{id}/…`.
 */
export async function openSessionShareRoutes(app: FastifyInstance, options: { shares: OpenSessionShareService }) {
  const { shares } = options;
  app.addHook('preHandler', app.authenticate);

  app.post<{ Params: Params }>('/:id/shares', async (request, reply) => {
    const outcome = await shares.create(requireAuth(request), request.params.id, request.body);
    const body: QuedadaShareResponse = { success: true, share: outcome.share };
    return reply.status(outcome.isNew ? 201 : 200).send(body);
  });

  app.get<{ Params: Params }>('/:id/shares', async (request): Promise<QuedadaShareListResponse> => {
    return { success: true, shares: await shares.list(requireAuth(request).userId, request.params.id) };
  });
}
