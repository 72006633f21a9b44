import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import { createModerationAuditRepository, type ModerationAuditRepository } from './moderation-audit-repository.ts';
import { createModerationGuard } from './moderation-guard.ts';
import { moderationConsoleRoutes } from './moderation-routes.ts';
import { createModeratorRoleRepository, type ModeratorRoleRepository } from './moderator-role-repository.ts';

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
};

/**
 * The moderation console's server side (docs/decisions/0033): `/api/moderation/*`, every route
 * behind the moderator guard (404 to everyone else, checked before the body is even parsed).
 */
export async function registerModeration(
  http: FastifyInstance,
  deps: { db: Database; clock: Clock; sections?: readonly ModerationSection[] },
): Promise<ModerationModule> {
  const roles = createModeratorRoleRepository(deps.db);
  const audit = createModerationAuditRepository(deps.db);
  const guard = createModerationGuard({ authenticate: http.authenticate, roles });
  const context: ModerationSectionContext = { audit, clock: deps.clock };
  await http.register(
    async (api) => {
      // onRequest: before body parsing, so a non-moderator's broken JSON still gets the plain 404.
      api.addHook('onRequest', guard);
      await api.register(moderationConsoleRoutes, { audit });
      for (const section of deps.sections ?? []) await api.register(async (scoped) => section(scoped, context));
    },
    { prefix: '/api/moderation' },
  );
  return { roles, audit };
}
