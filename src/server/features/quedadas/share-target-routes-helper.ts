import type { FastifyInstance } from 'fastify';
import type { QuedadaShareListResponse, QuedadaShareResponse } from '#shared/quedadas/share-schemas';
import { requireAuth } from '../../plugins/auth.ts';
import type { ShareService } from './share-service.ts';

type Params = { id: string };

/** What is shared (a quedada, an open session): its links' create and list. */
type ShareTargetService = Pick<ShareService, 'create' | 'list'>;

/**
 * `POST` and `GET /:id/shares` of a shared thing, under its own prefix (`/api/quedadas`,
 * `/api/open-sessions`): the create carries the outbox's clientId, and a replay answers 200 with
 * the same share. The caller's plugin authenticates.
 */
export function addShareTargetRoutes(app: FastifyInstance, shares: ShareTargetService): void {
  app.post<{ Params: Params }>('/:id/shares', async (request, reply) => {
    const outcome = await shares.create(requireAuth(request), request.params.id, request.body);
    const body: QuedadaShareResponse = { success: true, share: outcome.share };
    return reply.status(outcome.isNew ? 201 : 200).send(body);
  });

  app.get<{ Params: Params }>('/:id/shares', async (request): Promise<QuedadaShareListResponse> => {
    return { success: true, shares: await shares.list(requireAuth(request).userId, request.params.id) };
  });
}
