import type { FastifyInstance } from 'fastify';
import type { AttendanceResponse } from '#shared/open-sessions/open-session-after';
import type {
  OpenSessionListResponse,
  OpenSessionMembersResponse,
  OpenSessionResponse,
} from '#shared/open-sessions/open-session-schemas';
import { requireAuth } from '../../plugins/auth.ts';
import { openSessionCalendar } from './open-session-calendar.ts';
import { OPEN_SESSION_REMINDER_MS } from './open-session-notices.ts';
import type { OpenSessionService } from './open-session-service.ts';
import type { OpenSessionShareService } from './open-session-share-service.ts';

type Params = { id: string };
type MemberParams = { id: string; userId: string };

/**
 * `/api/open-sessions` («Entrenos abiertos», issue #35, docs/decisions/0055). Writes are POSTs
 * carrying the outbox's clientId: a replay answers 200 with the session as it is.
 */
export async function openSessionRoutes(
  app: FastifyInstance,
  options: { sessions: OpenSessionService; publicOrigin: string },
) {
  const { sessions } = options;
  app.addHook('preHandler', app.authenticate);

  app.post('/', async (request, reply) => {
    const outcome = await sessions.publish(requireAuth(request), request.body);
    const body: OpenSessionResponse = { success: true, session: outcome.session };
    return reply.status(outcome.isNew ? 201 : 200).send(body);
  });

  app.get('/nearby', async (request): Promise<OpenSessionListResponse> => {
    return { success: true, sessions: await sessions.nearby(requireAuth(request).userId) };
  });

  app.get('/mine', async (request): Promise<OpenSessionListResponse> => {
    return { success: true, sessions: await sessions.mine(requireAuth(request).userId) };
  });

  app.get<{ Params: Params }>('/:id', async (request): Promise<OpenSessionResponse> => {
    return { success: true, session: await sessions.detail(requireAuth(request).userId, request.params.id) };
  });

  // «Añadir al calendario»: an .ics download for the host and the approved members.
  app.get<{ Params: Params }>('/:id/calendar', async (request, reply) => {
    const session = await sessions.calendar(requireAuth(request).userId, request.params.id);
    const body = openSessionCalendar(session, {
      reminderMinutes: OPEN_SESSION_REMINDER_MS / 60_000,
      url: new URL(`/entrenos/abiertos/${session._id}`, options.publicOrigin).toString(),
      changedAt: new Date(),
    });
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="entreno-abierto-${session._id.slice(0, 8)}.ics"`)
      .send(body);
  });

  app.get<{ Params: Params }>('/:id/members', async (request): Promise<OpenSessionMembersResponse> => {
    return { success: true, members: await sessions.members(requireAuth(request).userId, request.params.id) };
  });

  app.post<{ Params: Params }>('/:id/join', async (request): Promise<OpenSessionResponse> => {
    return { success: true, session: await sessions.join(requireAuth(request), request.params.id, request.body) };
  });

  app.post<{ Params: MemberParams }>('/:id/requests/:userId', async (request): Promise<OpenSessionResponse> => {
    const { id, userId } = request.params;
    return { success: true, session: await sessions.answer(requireAuth(request), id, userId, request.body) };
  });

  app.post<{ Params: MemberParams }>('/:id/members/:userId/remove', async (request): Promise<OpenSessionResponse> => {
    const { id, userId } = request.params;
    return { success: true, session: await sessions.remove(requireAuth(request), id, userId, request.body) };
  });

  app.post<{ Params: Params }>('/:id/leave', async (request): Promise<OpenSessionResponse> => {
    return { success: true, session: await sessions.leave(requireAuth(request), request.params.id, request.body) };
  });

  app.post<{ Params: Params }>('/:id/cancel', async (request): Promise<OpenSessionResponse> => {
    return { success: true, session: await sessions.cancel(requireAuth(request), request.params.id, request.body) };
  });

  // «¿Quién vino?» (after the end, host and approved members): what I marked, and my marks.
  app.get<{ Params: Params }>('/:id/attendance', async (request): Promise<AttendanceResponse> => {
    return { success: true, attendance: await sessions.attendance(requireAuth(request).userId, request.params.id) };
  });

  app.post<{ Params: Params }>('/:id/attendance', async (request): Promise<AttendanceResponse> => {
    const attendance = await sessions.markAttendance(requireAuth(request), request.params.id, request.body);
    return { success: true, attendance };
  });

  // «Conectar» (after the session, two who came): a match without the deck; answers «¿Quién vino?».
  app.post<{ Params: Params }>('/:id/connect', async (request): Promise<AttendanceResponse> => {
    return { success: true, attendance: await sessions.connect(requireAuth(request), request.params.id, request.body) };
  });

  // «Repetir la próxima semana» (the host, once it has ended): 201 the new session, 200 a replay.
  app.post<{ Params: Params }>('/:id/repeat', async (request, reply) => {
    const outcome = await sessions.repeat(requireAuth(request), request.params.id, request.body);
    const body: OpenSessionResponse = { success: true, session: outcome.session };
    return reply.status(outcome.isNew ? 201 : 200).send(body);
  });

  app.post<{ Params: Params }>('/:id/moderation/remove', async (request): Promise<OpenSessionResponse> => {
    const userId = requireAuth(request).userId;
    return { success: true, session: await sessions.moderatorRemove(userId, request.params.id, request.body) };
  });
}

/**
 * `POST /api/dev/open-sessions/{id}/rewind` — outside production only, like the quedadas' rewind:
 * the host's open session moves so that it ended a minute ago (its shares' check-ins and expiry with
 * it), so «¿Quién vino?», «Repetir la próxima semana» and «¿Todo bien?» can be tried (and tested
 * end to end) without waiting.
 */
export async function devOpenSessionRoutes(
  app: FastifyInstance,
  options: { sessions: OpenSessionService; shares?: Pick<OpenSessionShareService, 'runDueCheckIns'> },
) {
  app.post<{ Params: Params }>('/open-sessions/:id/rewind', { preHandler: app.authenticate }, async (request) => {
    const session = await options.sessions.rewind(requireAuth(request).userId, request.params.id);
    // The shares' check-ins moved with it: ask «¿Todo bien?» now, not at the runner's next pass.
    void options.shares
      ?.runDueCheckIns()
      .catch((error: unknown) => request.log.warn({ err: error }, 'open sessions: check-in pass failed'));
    return { success: true, session };
  });
}
