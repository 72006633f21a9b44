import type { FastifyInstance } from 'fastify';
import type { QuedadaShareResponse, SharedSessionResponse } from '#shared/quedadas/share-schemas';
import { requireAuth } from '../../plugins/auth.ts';
import { addShareTargetRoutes } from './share-target-routes-helper.ts';
import type { ShareService } from './share-service.ts';

type Params = { id: string };

/**
 * «Compartir con alguien de confianza» (issue #35, docs/decisions/0054), under `/api/quedadas`:
 * writes are POSTs carrying the outbox's clientId (a replay answers 200 with the same share).
 */
export async function shareRoutes(app: FastifyInstance, options: { shares: ShareService }) {
  const { shares } = options;
  app.addHook('preHandler', app.authenticate);
  addShareTargetRoutes(app, shares);

  app.post<{ Params: Params }>('/shares/:id/revoke', async (request): Promise<QuedadaShareResponse> => {
    return { success: true, share: await shares.revoke(requireAuth(request), request.params.id, request.body) };
  });

  app.post<{ Params: Params }>('/shares/:id/check-in', async (request): Promise<QuedadaShareResponse> => {
    return { success: true, share: await shares.answer(requireAuth(request), request.params.id, request.body) };
  });
}

/** `GET /api/shared/{token}`: the trusted contact's read-only page data, without sign-in. */
export async function sharedPageRoutes(app: FastifyInstance, options: { shares: ShareService }) {
  app.get<{ Params: { token: string } }>('/shared/:token', async (request, reply) => {
    const shared = await options.shares.shared(request.params.token, request.ip);
    const body: SharedSessionResponse = { success: true, shared };
    // A revoked link must stop showing at once: nothing may keep a copy.
    return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send(body);
  });
}
