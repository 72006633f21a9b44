import type { FastifyInstance } from 'fastify';
import type { Outbox } from '../../delivery/outbox.ts';
import { devSurfacePlugin } from './dev-surface.ts';
import { outboxRoutes } from './outbox-routes.ts';

/**
 * The development surfaces: `/api/dev/*` answers the machine itself only (dev-surface.ts), and the
 * outbox's list when the outbox is on (never in production).
 */
export async function registerDev(
  http: FastifyInstance,
  deps: { isOpenToNetwork: boolean; outbox: Outbox | undefined },
): Promise<void> {
  await http.register(devSurfacePlugin, { isOpenToNetwork: deps.isOpenToNetwork });
  const { outbox } = deps;
  if (outbox) await http.register(outboxRoutes, { prefix: '/api/dev', outbox });
}
