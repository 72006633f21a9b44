import type { FastifyInstance } from 'fastify';
import type { Health } from '#shared/api';
import type { ReadinessProbe } from './readiness.ts';

/** Seconds a load balancer or orchestrator should wait before asking a node that is not ready again. */
const READINESS_RETRY_AFTER_S = 5;

/**
 * `GET /api/health`: liveness, no I/O (the process answers). `GET /api/ready`: readiness, 200 or
 * 503 with the failing checks (docs/deploy.md, "Health checks").
 */
export async function healthRoutes(app: FastifyInstance, options: { health: () => Health; readiness: ReadinessProbe }) {
  app.get('/health', async () => options.health());
  app.get('/ready', async (_request, reply) => {
    const readiness = await options.readiness.check();
    if (readiness.status === 'ready') return readiness;
    return reply.status(503).header('retry-after', String(READINESS_RETRY_AFTER_S)).send(readiness);
  });
}
