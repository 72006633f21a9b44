import type { FastifyInstance } from 'fastify';
import {
  AuditQuerySchema,
  type AuditList,
  IdParamsSchema,
  type ModerationQueue,
  type ModeratorMe,
  type ReportDetail,
} from '#shared/moderation/moderation-schemas';
import { parseInput } from '../../validation.ts';
import type { ModerationAuditRepository } from './moderation-audit-repository.ts';
import { requireModerator } from './moderation-guard.ts';
import { type ModerationService, toAuditRecord } from './moderation-service.ts';

const AUDIT_PAGE = 50;

/**
 * The console's own routes (the guard is the parent's hook): who am I, the queue, a report with
 * its evidence and the person's history, the actions, lifting, appeals, the audit log. No route
 * edits or deletes an audit entry.
 */
export async function moderationConsoleRoutes(
  app: FastifyInstance,
  options: { audit: ModerationAuditRepository; moderation: ModerationService },
) {
  const { moderation } = options;
  const actor = (request: Parameters<typeof requireModerator>[0]) => {
    const moderator = requireModerator(request);
    return { userId: moderator.userId, email: moderator.email };
  };
  app.get('/me', async (request): Promise<ModeratorMe> => {
    const moderator = requireModerator(request);
    return { success: true, role: moderator.role, name: moderator.name, email: moderator.email };
  });

  app.get('/queue', async (request): Promise<ModerationQueue> => {
    requireModerator(request);
    return moderation.queue();
  });

  app.get('/reports/:id', async (request): Promise<ReportDetail> => {
    requireModerator(request);
    return moderation.reportDetail(parseInput(IdParamsSchema, request.params).id);
  });

  app.post('/reports/:id/resolve', async (request) =>
    moderation.resolve(actor(request), parseInput(IdParamsSchema, request.params).id, request.body),
  );

  app.post('/restrictions/:id/lift', async (request) =>
    moderation.lift(actor(request), parseInput(IdParamsSchema, request.params).id, request.body),
  );

  app.post('/appeals/:id/decide', async (request) =>
    moderation.decideAppeal(actor(request), parseInput(IdParamsSchema, request.params).id, request.body),
  );

  app.get('/audit', async (request): Promise<AuditList> => {
    requireModerator(request);
    const query = parseInput(AuditQuerySchema, request.query);
    const entries = await options.audit.list({ limit: AUDIT_PAGE, beforeId: query.before, targetUserId: query.userId });
    const last = entries.at(-1);
    return {
      success: true,
      entries: entries.map(toAuditRecord),
      nextBefore: entries.length === AUDIT_PAGE && last ? last.id : null,
    };
  });
}
