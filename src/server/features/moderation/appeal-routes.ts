import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../plugins/auth.ts';
import type { AppealService } from './appeal-service.ts';

/**
 * `/api/appeals` — the person acted on, not moderators: `POST /` (the one appeal: the refused
 * sign-in's `appealToken`, or signed in against a warning), `GET /notice` and
 * `POST /notice/seen` (the warning notice shown once in the app).
 */
export async function appealRoutes(app: FastifyInstance, options: { appeals: AppealService }) {
  const { appeals } = options;

  app.post('/', async (request, reply) => {
    // Signed in when a token comes with it (a warning); otherwise the body's appeal token decides.
    if (request.headers.authorization) await app.authenticate(request, reply);
    const answer = await appeals.appeal(request.body, request.auth?.userId);
    return reply.code(201).send(answer);
  });

  app.get('/notice', { preHandler: app.authenticate }, async (request) => appeals.notice(requireAuth(request).userId));

  app.post('/notice/seen', { preHandler: app.authenticate }, async (request) =>
    appeals.markNoticeSeen(requireAuth(request).userId, request.body),
  );
}
