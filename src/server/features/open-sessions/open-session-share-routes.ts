import type { FastifyInstance } from 'fastify';
import { addShareTargetRoutes } from '../quedadas/share-target-routes-helper.ts';
import type { OpenSessionShareService } from './open-session-share-service.ts';

/**
 * «Compartir con alguien de confianza» for an open session (docs/decisions/0054, amendment of
 * session 17), under `/api/open-sessions`: the create and the list, as a quedada's. Revoke and
 * «¿Todo bien?» are `/api/quedadas/shares/{id}/…`.
 */
export async function openSessionShareRoutes(app: FastifyInstance, options: { shares: OpenSessionShareService }) {
  app.addHook('preHandler', app.authenticate);
  addShareTargetRoutes(app, options.shares);
}
