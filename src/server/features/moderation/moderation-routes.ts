import type { FastifyInstance } from 'fastify';
import { AuditQuerySchema, type AuditList, type ModeratorMe } from '#shared/moderation/moderation-schemas';
import { parseInput } from '../../validation.ts';
import type { AuditEntry, ModerationAuditRepository } from './moderation-audit-repository.ts';
import { requireModerator } from './moderation-guard.ts';

const AUDIT_PAGE = 50;

/** The console's own routes (the guard is the parent's hook): who am I, the audit log. */
export async function moderationConsoleRoutes(app: FastifyInstance, options: { audit: ModerationAuditRepository }) {
  app.get('/me', async (request): Promise<ModeratorMe> => {
    const moderator = requireModerator(request);
    return { success: true, role: moderator.role, name: moderator.name, email: moderator.email };
  });

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

export function toAuditRecord(entry: AuditEntry) {
  return {
    id: entry.id,
    moderator: entry.moderatorEmail ?? (entry.action.startsWith('role_') ? 'Operador' : 'Sistema'),
    action: entry.action,
    targetUserId: entry.targetUserId,
    reportId: entry.reportId,
    restrictionId: entry.restrictionId,
    appealId: entry.appealId,
    reason: entry.reason,
    createdAt: entry.createdAt.toISOString(),
  };
}
