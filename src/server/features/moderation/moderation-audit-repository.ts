import { and, desc, eq, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { moderationAudit } from '../../db/schema/index.ts';

export type AuditEntry = {
  id: number;
  moderatorId: string | null;
  moderatorEmail: string | null;
  action: string;
  targetUserId: string | null;
  reportId: string | null;
  restrictionId: string | null;
  appealId: string | null;
  reason: string;
  details: Record<string, unknown>;
  createdAt: Date;
};

export type NewAuditEntry = {
  /** Undefined: the operator command or the system. */
  moderator: { userId: string; email: string } | undefined;
  action: string;
  targetUserId?: string | null;
  reportId?: string | null;
  restrictionId?: string | null;
  appealId?: string | null;
  reason: string;
  details?: Record<string, unknown>;
  now: Date;
};

export type ModerationAuditRepository = ReturnType<typeof createModerationAuditRepository>;

/** The append-only audit log (a trigger refuses UPDATE, DELETE and TRUNCATE): insert and read, nothing else. */
export function createModerationAuditRepository(db: Pick<Database, 'insert' | 'select'>) {
  return {
    async record(entry: NewAuditEntry): Promise<void> {
      await db.insert(moderationAudit).values({
        moderatorId: entry.moderator?.userId ?? null,
        moderatorEmail: entry.moderator?.email ?? null,
        action: entry.action,
        targetUserId: entry.targetUserId ?? null,
        reportId: entry.reportId ?? null,
        restrictionId: entry.restrictionId ?? null,
        appealId: entry.appealId ?? null,
        reason: entry.reason,
        details: entry.details ?? {},
        createdAt: entry.now,
      });
    },
    /** Newest first; `beforeId` pages back; `targetUserId` narrows to one person. */
    async list(options: { limit: number; beforeId?: number; targetUserId?: string }): Promise<AuditEntry[]> {
      const conditions = [
        options.beforeId === undefined ? undefined : lt(moderationAudit.id, options.beforeId),
        options.targetUserId === undefined ? undefined : eq(moderationAudit.targetUserId, options.targetUserId),
      ];
      return db
        .select()
        .from(moderationAudit)
        .where(and(...conditions))
        .orderBy(desc(moderationAudit.id))
        .limit(options.limit);
    },
  };
}
