import type { FastifyInstance } from 'fastify';
import type { Health } from '#shared/api';

export async function healthRoutes(app: FastifyInstance, options: { health: () => Health }) {
  app.get('/health', async () => options.health());
}
