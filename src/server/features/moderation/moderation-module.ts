import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../infra/clock.ts';
import type { Database } from '../../db/client.ts';
import type { InvalidationBus } from '../../infra/invalidation-bus.ts';
import type { ChatRealtime } from '../chat/index.ts';
import { appealRoutes } from './appeal-routes.ts';
import { type AppealService, createAppealService } from './appeal-service.ts';
import { createModerationAuditRepository, type ModerationAuditRepository } from './moderation-audit-repository.ts';
import { createModerationGuard } from './moderation-guard.ts';
import { createModerationRepository } from './moderation-repository.ts';
import { moderationConsoleRoutes } from './moderation-routes.ts';
import { createModerationService, type ModerationService } from './moderation-service.ts';
import { createModeratorRoleRepository, type ModeratorRoleRepository } from './moderator-role-repository.ts';
import { createRestrictionRepository } from './restriction-repository.ts';

/** What a console section (a queue of another feature, e.g. verification requests) is given. */
export type ModerationSectionContext = { audit: ModerationAuditRepository; clock: Clock };

/**
 * A queue that plugs into the console: a Fastify plugin registered under `/api/moderation` behind
 * the guard (every route 404s to non-moderators; `requireModerator(request)` gives the moderator).
 * It writes each moderator action to `context.audit`.
 */
export type ModerationSection = (api: FastifyInstance, context: ModerationSectionContext) => Promise<void>;

export type ModerationModule = {
  roles: ModeratorRoleRepository;
  audit: ModerationAuditRepository;
  moderation: ModerationService;
  /** Starts the job that lifts suspensions at their end. */
  start(): void;
  close(): Promise<void>;
};

/**
 * The appeal side, made before the access area: suspended and banned accounts are refused a
 * session on every sign-in path (docs/decisions/0033), and the console acts on the same service.
 */
export function createAppeals(deps: { db: Database; clock: Clock; key: Uint8Array }): AppealService {
  return createAppealService({ restrictions: createRestrictionRepository(deps.db), clock: deps.clock, key: deps.key });
}

/** How often each node looks for suspensions that have ended (lifting is idempotent across nodes). */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The moderation console's server side (docs/decisions/0033): `/api/moderation/*`, every route
 * behind the moderator guard (to everyone else, exactly what an unknown path answers), and
 * `/api/appeals` for the people acted on.
 */
export async function registerModeration(
  http: FastifyInstance,
  deps: {
    db: Database;
    /** The chat's emitter: `user:<id>` on every node (QUALITY 16), the spec's aliases included. */
    realtime: ChatRealtime;
    clock: Clock;
    bus: InvalidationBus;
    appeals: AppealService;
    revokeAllSessions(userId: string): Promise<void>;
    notify(userId: string, notification: { title: string; body: string }): Promise<void>;
    sections?: readonly ModerationSection[];
  },
): Promise<ModerationModule> {
  const roles = createModeratorRoleRepository(deps.db);
  const audit = createModerationAuditRepository(deps.db);
  const chatRealtime = deps.realtime;
  const moderation = createModerationService({
    repository: createModerationRepository(deps.db),
    restrictions: createRestrictionRepository(deps.db),
    audit,
    clock: deps.clock,
    logger: http.log,
    effects: {
      revokeAllSessions: deps.revokeAllSessions,
      conversationChanged(userIds, conversationId, status) {
        void deps.bus.publish({ type: 'pair-ended', userIds, conversationIds: [conversationId] });
        for (const userId of userIds)
          chatRealtime.emitToUser(userId, 'conversationUpdated', { conversationId, status });
      },
      notify: deps.notify,
    },
  });
  const guard = createModerationGuard({ authenticate: http.authenticate, roles });
  const context: ModerationSectionContext = { audit, clock: deps.clock };
  await http.register(
    async (api) => {
      // After parsing, before anything else: an unknown path parses its body too (a broken JSON gets
      // the same 400 either way), and every later step (validation, handler) is the guard's.
      api.addHook('preValidation', guard);
      await api.register(moderationConsoleRoutes, { audit, moderation });
      for (const section of deps.sections ?? []) await api.register(async (scoped) => section(scoped, context));
    },
    { prefix: '/api/moderation' },
  );
  await http.register(appealRoutes, { prefix: '/api/appeals', appeals: deps.appeals });

  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> = Promise.resolve();
  return {
    roles,
    audit,
    moderation,
    start() {
      timer ??= setInterval(() => {
        sweeping = moderation.sweep().catch((error) => http.log.error({ err: error }, 'moderation: sweep failed'));
      }, SWEEP_INTERVAL_MS);
      timer.unref();
    },
    async close() {
      if (timer) clearInterval(timer);
      await sweeping;
    },
  };
}
