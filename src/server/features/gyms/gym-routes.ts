import type { FastifyInstance } from 'fastify';
import type { GymSearchResponse } from '#shared/discovery/discovery-schemas';
import type { GymService } from './gym-service.ts';

/** `POST /api/mcp/tool` (spec 001 §7): the gym search, bearer-authenticated. */
export async function gymRoutes(app: FastifyInstance, options: { gyms: GymService }) {
  app.post('/mcp/tool', { preHandler: app.authenticate }, async (request): Promise<GymSearchResponse> => {
    return { success: true, ...(await options.gyms.callTool(request.body)) };
  });
}
