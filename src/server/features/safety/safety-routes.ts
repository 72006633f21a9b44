import type { FastifyInstance } from 'fastify';
import { BlockParamsSchema } from '#shared/safety/safety-schemas';
import { requireAuth } from '../../plugins/auth.ts';
import { parseInput } from '../../validation.ts';
import type { SafetyService } from './safety-service.ts';

/** `/api/safety/blocks`, `/api/safety/reports` (docs/decisions/0012). */
export async function safetyRoutes(app: FastifyInstance, options: { safety: SafetyService }) {
  const { safety } = options;
  app.addHook('preHandler', app.authenticate);

  app.post('/blocks', async (request, reply) => {
    const answer = await safety.block(requireAuth(request).userId, request.body);
    return reply.code(201).send(answer);
  });

  app.get('/blocks', async (request) => safety.listBlocks(requireAuth(request).userId));

  app.delete('/blocks/:userId', async (request) => {
    const { userId } = parseInput(BlockParamsSchema, request.params);
    return safety.unblock(requireAuth(request).userId, userId);
  });

  app.post('/reports', async (request, reply) => {
    const { isNew, ...answer } = await safety.report(requireAuth(request).userId, request.body);
    return reply.code(isNew ? 201 : 200).send(answer);
  });
}

/** `GET /api/account/export`, `GET /api/account/deletion` and `DELETE /api/account`. */
export async function accountRoutes(app: FastifyInstance, options: { safety: SafetyService }) {
  const { safety } = options;
  app.addHook('preHandler', app.authenticate);

  app.get('/export', async (request, reply) => {
    const data = await safety.exportData(requireAuth(request).userId);
    return reply
      .header('content-disposition', 'attachment; filename="entreno-datos.json"')
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(data, null, 2));
  });

  app.get('/deletion', async (request) => safety.deletionMethod(requireAuth(request).userId));

  app.delete('/', async (request) => safety.deleteAccount(requireAuth(request).userId, request.body));
}
