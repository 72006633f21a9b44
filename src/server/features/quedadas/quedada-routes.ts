import type { FastifyInstance } from 'fastify';
import {
  type PairSummaryListResponse,
  QuedadaListQuerySchema,
  type QuedadaListResponse,
  type QuedadaResponse,
  type QuedadaSuggestionsResponse,
  type ReliabilityResponse,
} from '#shared/quedadas/quedada-schemas';
import { QUEDADA_MESSAGES } from '#shared/quedadas/quedada-messages';
import type { Config } from '../../config.ts';
import { badRequest } from '../../errors.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { parseInput } from '../../validation.ts';
import { quedadaCalendar } from './quedada-calendar.ts';
import { type QuedadaService, toQuedada } from './quedada-service.ts';

type Params = { id: string };

/**
 * `/api/quedadas` (issue #21, docs/decisions/0029): writes are POSTs carrying the outbox's
 * clientId (a replay answers 200 with the current state and announces nothing); reads are the
 * history REST calls. Every route needs a bearer token; only the two members see a quedada.
 */
export async function quedadaRoutes(
  app: FastifyInstance,
  options: { quedadas: QuedadaService; publicOrigin: Config['publicOrigin'] },
) {
  const { quedadas } = options;
  app.addHook('preHandler', app.authenticate);

  app.post('/', async (request, reply) => {
    const caller = requireAuth(request);
    const outcome = await quedadas.propose(caller, request.body);
    const body: QuedadaResponse = { success: true, quedada: toQuedada(outcome.quedada) };
    reply.status(outcome.isNew ? 201 : 200).send(body);
    quedadas.announce(outcome, caller.userId);
    return reply;
  });

  app.post<{ Params: Params }>('/:id/actions', async (request, reply) => {
    const caller = requireAuth(request);
    const outcome = await quedadas.act(caller, request.params.id, request.body);
    const body: QuedadaResponse = { success: true, quedada: toQuedada(outcome.quedada) };
    reply.status(200).send(body);
    quedadas.announce(outcome, caller.userId);
    return reply;
  });

  app.get('/', async (request): Promise<QuedadaListResponse> => {
    const { userId } = requireAuth(request);
    const query = parseInput(QuedadaListQuerySchema, request.query ?? {});
    if (query.conversationId) {
      return { success: true, quedadas: await quedadas.listForConversation(userId, query.conversationId) };
    }
    if (query.upcoming) return { success: true, quedadas: await quedadas.listUpcoming(userId) };
    throw badRequest(QUEDADA_MESSAGES.invalidQuedada, 'VALIDATION');
  });

  app.get('/pairs', async (request): Promise<PairSummaryListResponse> => {
    return { success: true, pairs: await quedadas.pairs(requireAuth(request).userId) };
  });

  app.get<{ Params: Params }>('/reliability/:id', async (request): Promise<ReliabilityResponse> => {
    return { success: true, reliability: await quedadas.reliability(requireAuth(request).userId, request.params.id) };
  });

  app.get<{ Params: Params }>(
    '/conversations/:id/suggestions',
    async (request): Promise<QuedadaSuggestionsResponse> => {
      return { success: true, suggestions: await quedadas.suggestions(requireAuth(request).userId, request.params.id) };
    },
  );

  app.get<{ Params: Params }>('/:id', async (request): Promise<QuedadaResponse> => {
    return { success: true, quedada: await quedadas.get(requireAuth(request).userId, request.params.id) };
  });

  // "Añadir al calendario": an .ics download (accepted quedadas only).
  app.get<{ Params: Params }>('/:id/calendar', async (request, reply) => {
    const data = await quedadas.calendarData(requireAuth(request).userId, request.params.id);
    const url = new URL(`/messages/${data.quedada.conversationId}`, options.publicOrigin).toString();
    const body = quedadaCalendar(data.quedada, {
      otherName: data.otherName,
      reminderMinutes: data.reminderMinutes,
      url,
    });
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="entreno-${data.quedada._id.slice(0, 8)}.ics"`)
      .send(body);
  });
}

/**
 * `POST /api/dev/quedadas/{id}/rewind` — outside production only, like the other `/api/dev`
 * tools: an accepted quedada of one's own moves so that it ended a minute ago, so the
 * "¿Entrenasteis juntos?" step can be tried (and tested end to end) without waiting for it.
 */
export async function devQuedadaRoutes(app: FastifyInstance, options: { quedadas: QuedadaService }) {
  app.post<{ Params: Params }>('/quedadas/:id/rewind', { preHandler: app.authenticate }, async (request) => {
    return { success: true, quedada: await options.quedadas.rewind(requireAuth(request).userId, request.params.id) };
  });
}
