import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../infra/clock.ts';
import type { Database } from '../../db/client.ts';
import { periodicPass } from '../../infra/periodic-pass.ts';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import type { ChatRealtime } from '../chat/index.ts';
import { createModerationAuditRepository, createModeratorRoleRepository } from '../moderation/index.ts';
import type { PrivacyReader } from '../profiles/profile-model.ts';
import { createProfileRepository } from '../profiles/profile-repository.ts';
import { createOpenSessionRepository } from './open-session-repository.ts';
import { devOpenSessionRoutes, openSessionRoutes } from './open-session-routes.ts';
import { createOpenSessionShareRepository } from './open-session-share-repository.ts';
import { openSessionShareRoutes } from './open-session-share-routes.ts';
import { createOpenSessionShareService, type OpenSessionShareService } from './open-session-share-service.ts';
import {
  createOpenSessionService,
  type OpenSessionNotifier,
  type OpenSessionService,
  type OpenSessionServiceDeps,
} from './open-session-service.ts';

/** How often each node looks for due reminders (the claim in the database keeps nodes apart). */
export const OPEN_SESSION_JOB_INTERVAL_MS = 15_000;

export type OpenSessionModule = {
  sessions: OpenSessionService;
  /** Sharing a session with someone you trust; its page is served by the quedadas' `/api/shared/{token}`. */
  shares: OpenSessionShareService;
  /** Starts the reminder runner's interval (before the start, and «¿Quién vino?» after the end). */
  start(): void;
  /** Stops it and waits for a pass under way. */
  close(): Promise<void>;
};

/** «Entrenos abiertos» (issue #35, docs/decisions/0055): repository, service, `/api/open-sessions` and the reminder runner. */
export async function registerOpenSessions(
  http: FastifyInstance,
  deps: {
    db: Database;
    /** Where the `.ics` links back to (a session's page). */
    publicOrigin: string;
    /** The chat's emitter: `user:<id>` on every node (QUALITY 16). */
    realtime: ChatRealtime;
    clock: Clock;
    limiter: RateLimiter;
    notifier: OpenSessionNotifier;
    privacyOf: PrivacyReader;
    reliabilityOf: OpenSessionServiceDeps['reliabilityOf'];
    /** The swipes' announcement of a new match, for the ones «Conectar» makes. */
    matches?: OpenSessionServiceDeps['matches'];
    /** The chat module's group conversations (its `groups`); without them sessions have no chat. */
    groupChat?: OpenSessionServiceDeps['groupChat'];
    /** Outside production: `/api/dev/open-sessions/{id}/rewind`. */
    hasDevRoutes?: boolean;
  },
): Promise<OpenSessionModule> {
  const roles = createModeratorRoleRepository(deps.db);
  const audit = createModerationAuditRepository(deps.db);
  const sessions = createOpenSessionService({
    sessions: createOpenSessionRepository(deps.db),
    profiles: createProfileRepository(deps.db),
    privacyOf: deps.privacyOf,
    reliabilityOf: deps.reliabilityOf,
    isModerator: async (userId) => Boolean(await roles.find(userId)),
    auditRemoval: async ({ moderatorId, hostId, sessionId, now }) => {
      const moderator = await roles.find(moderatorId);
      await audit.record({
        moderator: moderator && { userId: moderator.userId, email: moderator.email },
        action: 'open_session_removed',
        targetUserId: hostId,
        reason: 'Entreno abierto retirado',
        details: { openSessionId: sessionId },
        now,
      });
    },
    groupChat: deps.groupChat,
    matches: deps.matches,
    realtime: { emitToUser: (userId, event, payload) => deps.realtime.emitToUser(userId, event, payload) },
    notifier: deps.notifier,
    limiter: deps.limiter,
    clock: deps.clock,
    logger: http.log,
    // Someone approved after a link was made is told, as those in it then were (0054, session 17);
    // `shares` is made below, and approvals only come with requests, once all is registered.
    onApproved: (session, userId) =>
      void shares
        .tellNewcomer(session, userId)
        .catch((error: unknown) => http.log.warn({ err: error }, 'open sessions: share notice failed')),
  });
  // «Salir» in a session's chat leaves the session (docs/decisions/0056).
  deps.groupChat?.onLeave?.((userId, conversationId, clientId) => sessions.leaveChat(userId, conversationId, clientId));
  const shares = createOpenSessionShareService({
    shares: createOpenSessionShareRepository(deps.db),
    visible: sessions.visible,
    notifier: deps.notifier,
    limiter: deps.limiter,
    clock: deps.clock,
    logger: http.log,
  });
  await http.register(openSessionRoutes, { prefix: '/api/open-sessions', sessions, publicOrigin: deps.publicOrigin });
  await http.register(openSessionShareRoutes, { prefix: '/api/open-sessions', shares });
  if (deps.hasDevRoutes) await http.register(devOpenSessionRoutes, { prefix: '/api/dev', sessions, shares });

  // The reminder before the start, «¿Quién vino?» after the end, the shares' «¿Todo bien?»: one runner.
  const runner = periodicPass(
    async () => {
      await sessions.runDueReminders();
      await sessions.runDueAttendanceReminders();
      await shares.runDueCheckIns();
    },
    OPEN_SESSION_JOB_INTERVAL_MS,
    (error) => http.log.error({ err: error }, 'open sessions: reminder runner failed'),
  );
  return { sessions, shares, start: runner.start, close: runner.close };
}
