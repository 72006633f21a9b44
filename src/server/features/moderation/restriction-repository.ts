import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { DELETED_ACCOUNT_EMAIL_DOMAIN } from '../../db/schema/index.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { rowsOf, type SqlExecutor } from '../../db/rows.ts';
import { createModerationAuditRepository, type NewAuditEntry } from './moderation-audit-repository.ts';

export type Actor = { userId: string; email: string } | undefined;
export type ClosedConversation = { conversationId: string; otherUserId: string };
export type LiveRestriction = {
  id: string;
  kind: 'suspension' | 'ban';
  reason: string;
  endsAt: Date | null;
  hasAppeal: boolean;
};

/** Kinds that take the profile out of every deck while live. */
const HIDING = sql`('suspension', 'ban', 'review_hold')`;

/**
 * `profiles.active` is the moderation switch the deck excludes on (docs/decisions/0022, 0033):
 * false while a suspension, ban or review hold is live. The deck's NOTIFY trigger already covers
 * the column, so every node's index drops (or takes back) the profile at commit.
 */
async function refreshInDecks(tx: SqlExecutor, userId: string, now: Date) {
  await tx.execute(sql`update profiles p set active = not exists (
      select 1 from account_restrictions r where r.user_id = p.user_id and r.kind in ${HIDING}
        and r.lifted_at is null and (r.ends_at is null or r.ends_at > ${now}))
    where p.user_id = ${userId}::uuid
      and p.active = exists (
        select 1 from account_restrictions r where r.user_id = p.user_id and r.kind in ${HIDING}
          and r.lifted_at is null and (r.ends_at is null or r.ends_at > ${now}))`);
}

export type RestrictionRepository = ReturnType<typeof createRestrictionRepository>;

/** Restrictions, report resolutions and appeals: every write of a moderator action, one transaction each. */
export function createRestrictionRepository(db: Database) {
  const auditIn = (tx: SqlExecutor) => createModerationAuditRepository(tx as unknown as Database);

  /** Ends the user's live conversations ('blocked' status: read-only for both, gone from the lists). */
  const closeConversations = async (tx: SqlExecutor, userId: string, now: Date) => {
    const closed = rowsOf<{ id: string; user_a: string; user_b: string }>(
      await tx.execute(sql`update conversations set status = 'blocked', updated_at = ${now},
          changed_xid = pg_current_xact_id()
        where (user_a = ${userId}::uuid or user_b = ${userId}::uuid) and status = 'active'
        returning id, user_a, user_b`),
    );
    return closed.map((row) => ({
      conversationId: row.id,
      otherUserId: row.user_a === userId ? row.user_b : row.user_a,
    }));
  };

  return {
    /**
     * One moderator action on the person a report is about: the restriction (none for a dismissal),
     * every open report about them closed with this resolution, an open review hold lifted, and
     * for a suspension or ban their conversations closed and push subscriptions removed; then the
     * deck switch recomputed and the audit row written — all or nothing.
     */
    async act(input: {
      reportId: string;
      targetUserId: string;
      action: 'dismiss' | 'warn' | 'suspend' | 'ban';
      reason: string | undefined;
      endsAt: Date | null;
      actor: NonNullable<Actor>;
      note: string;
      now: Date;
    }): Promise<{ restrictionId: string | null; reporterIds: string[]; closed: ClosedConversation[] } | undefined> {
      return db.transaction(async (tx) => {
        const [report] = rowsOf<{ id: string }>(
          await tx.execute(
            sql`select id from reports where id = ${input.reportId}::uuid and status = 'open' for update`,
          ),
        );
        if (!report) return undefined;
        const kind = { dismiss: null, warn: 'warning', suspend: 'suspension', ban: 'ban' }[input.action];
        let restrictionId: string | null = null;
        let closed: ClosedConversation[] = [];
        if (kind) {
          const [inserted] = rowsOf<{ id: string }>(
            await tx.execute(sql`insert into account_restrictions (user_id, kind, reason, report_id, created_by, created_at, ends_at)
              values (${input.targetUserId}::uuid, ${kind}, ${input.reason ?? 'other'}, ${input.reportId}::uuid,
                ${input.actor.userId}::uuid, ${input.now}, ${input.endsAt}) returning id`),
          );
          restrictionId = inserted?.id ?? null;
        }
        if (kind === 'suspension' || kind === 'ban') {
          closed = await closeConversations(tx, input.targetUserId, input.now);
          await tx.execute(sql`update account_restrictions set closed_conversation_ids = ${`{${closed.map((c) => c.conversationId).join(',')}}`}::uuid[]
            where id = ${restrictionId}::uuid`);
          await tx.execute(sql`delete from push_subscriptions where user_id = ${input.targetUserId}::uuid`);
        }
        const reporters = rowsOf<{ reporter_id: string | null }>(
          await tx.execute(sql`update reports set status = 'closed', resolution = ${kind ?? 'dismissed'},
              resolved_at = ${input.now}, resolved_by = ${input.actor.userId}::uuid
            where reported_id = ${input.targetUserId}::uuid and status = 'open'
            returning reporter_id`),
        );
        await tx.execute(sql`update account_restrictions set lifted_at = ${input.now}, lifted_by = ${input.actor.userId}::uuid
          where user_id = ${input.targetUserId}::uuid and kind = 'review_hold' and lifted_at is null`);
        await refreshInDecks(tx, input.targetUserId, input.now);
        await auditIn(tx).record({
          moderator: input.actor,
          action: input.action,
          targetUserId: input.targetUserId,
          reportId: input.reportId,
          restrictionId,
          reason: input.note,
          details: {
            ...(input.reason ? { category: input.reason } : {}),
            ...(input.endsAt ? { endsAt: input.endsAt.toISOString() } : {}),
            reportsClosed: reporters.length,
          },
          now: input.now,
        });
        const reporterIds = [...new Set(reporters.flatMap((row) => (row.reporter_id ? [row.reporter_id] : [])))];
        return { restrictionId, reporterIds, closed };
      });
    },

    /**
     * Lifts a live restriction (a moderator, a granted appeal, or a suspension's end when `actor` is
     * undefined): conversations it closed reopen unless the pair has blocked each other or one
     * account is gone since; the deck switch is recomputed. Undefined when it was not live.
     */
    async lift(input: {
      restrictionId: string;
      actor: Actor;
      audit: Omit<NewAuditEntry, 'moderator' | 'now' | 'restrictionId' | 'targetUserId'>;
      now: Date;
    }): Promise<{ userId: string; kind: string; reopened: ClosedConversation[] } | undefined> {
      return db.transaction(async (tx) => {
        const [row] = rowsOf<{ user_id: string; kind: string; closed_conversation_ids: string[] }>(
          await tx.execute(sql`update account_restrictions set lifted_at = ${input.now}, lifted_by = ${input.actor?.userId ?? null}::uuid
            where id = ${input.restrictionId}::uuid and lifted_at is null and kind in ('suspension', 'ban', 'warning', 'review_hold')
            returning user_id, kind, closed_conversation_ids`),
        );
        if (!row) return undefined;
        const ids = row.closed_conversation_ids ?? [];
        const reopened =
          ids.length === 0
            ? []
            : rowsOf<{ id: string; user_a: string; user_b: string }>(
                await tx.execute(sql`update conversations c set status = 'active', updated_at = ${input.now},
                    changed_xid = pg_current_xact_id()
                  where c.id = any(${`{${ids.join(',')}}`}::uuid[]) and c.status = 'blocked'
                    and not exists (select 1 from blocks b where (b.blocker_id = c.user_a and b.blocked_id = c.user_b)
                                                            or (b.blocker_id = c.user_b and b.blocked_id = c.user_a))
                    and not exists (select 1 from users u where u.id in (c.user_a, c.user_b) and u.email like ${`%@${DELETED_ACCOUNT_EMAIL_DOMAIN}`})
                    and not exists (select 1 from account_restrictions r where r.id <> ${input.restrictionId}::uuid
                      and r.kind in ('suspension', 'ban') and r.lifted_at is null and (r.ends_at is null or r.ends_at > ${input.now})
                      and r.user_id in (c.user_a, c.user_b))
                  returning c.id, c.user_a, c.user_b`),
              );
        await refreshInDecks(tx, row.user_id, input.now);
        await auditIn(tx).record({
          ...input.audit,
          moderator: input.actor,
          targetUserId: row.user_id,
          restrictionId: input.restrictionId,
          now: input.now,
        });
        return {
          userId: row.user_id,
          kind: row.kind,
          reopened: reopened.map((c) => ({
            conversationId: c.id,
            otherUserId: c.user_a === row.user_id ? c.user_b : c.user_a,
          })),
        };
      });
    },

    /** Suspensions whose end has passed and that nobody lifted yet (the sweep lifts them). */
    async endedSuspensions(now: Date): Promise<string[]> {
      const rows = rowsOf<{ id: string }>(
        await db.execute(sql`select id from account_restrictions
          where kind = 'suspension' and lifted_at is null and ends_at <= ${now} order by ends_at limit 100`),
      );
      return rows.map((row) => row.id);
    },

    /** The suspension or ban that refuses sign-in now, the most severe first. */
    async liveRestriction(userId: string, now: Date): Promise<LiveRestriction | undefined> {
      const [row] = rowsOf<{
        id: string;
        kind: 'suspension' | 'ban';
        reason: string;
        ends_at: Date | null;
        has_appeal: boolean;
      }>(
        await db.execute(sql`select r.id, r.kind, r.reason, r.ends_at,
            exists (select 1 from moderation_appeals a where a.restriction_id = r.id) as has_appeal
          from account_restrictions r
          where r.user_id = ${userId}::uuid and r.kind in ('suspension', 'ban') and r.lifted_at is null
            and (r.ends_at is null or r.ends_at > ${now})
          order by (r.kind = 'ban') desc, r.ends_at desc nulls first limit 1`),
      );
      return (
        row && {
          id: row.id,
          kind: row.kind,
          reason: row.reason,
          endsAt: row.ends_at ? new Date(row.ends_at) : null,
          hasAppeal: row.has_appeal,
        }
      );
    },

    /** The person's latest warning they have not acknowledged, with whether they appealed it. */
    async unseenWarning(userId: string) {
      const [row] = rowsOf<{ id: string; reason: string; created_at: Date; has_appeal: boolean }>(
        await db.execute(sql`select r.id, r.reason, r.created_at,
            exists (select 1 from moderation_appeals a where a.restriction_id = r.id) as has_appeal
          from account_restrictions r
          where r.user_id = ${userId}::uuid and r.kind = 'warning' and r.lifted_at is null and r.seen_at is null
          order by r.created_at desc limit 1`),
      );
      return row && { id: row.id, reason: row.reason, createdAt: new Date(row.created_at), hasAppeal: row.has_appeal };
    },

    async markSeen(userId: string, restrictionId: string, now: Date): Promise<boolean> {
      const rows = rowsOf<{ id: string }>(
        await db.execute(sql`update account_restrictions set seen_at = coalesce(seen_at, ${now})
          where id = ${restrictionId}::uuid and user_id = ${userId}::uuid and kind = 'warning' returning id`),
      );
      return rows.length > 0;
    },

    /** The person's one appeal against a live restriction of theirs: 'duplicate' once there is one. */
    async appeal(input: { userId: string; restrictionId: string; text: string; now: Date }) {
      const [restriction] = rowsOf<{ id: string }>(
        await db.execute(sql`select id from account_restrictions where id = ${input.restrictionId}::uuid
          and user_id = ${input.userId}::uuid and kind in ('warning', 'suspension', 'ban') and lifted_at is null
          and (ends_at is null or ends_at > ${input.now})`),
      );
      if (!restriction) return { status: 'not-found' as const };
      try {
        const [row] = rowsOf<{ id: string }>(
          await db.execute(sql`insert into moderation_appeals (restriction_id, user_id, text, created_at)
            values (${input.restrictionId}::uuid, ${input.userId}::uuid, ${input.text}, ${input.now}) returning id`),
        );
        return { status: 'created' as const, appealId: row?.id ?? '' };
      } catch (error) {
        if (uniqueViolation(error) !== undefined) return { status: 'duplicate' as const };
        throw error;
      }
    },

    /** Closes an open appeal; `grant` lifts its restriction in the same breath (through `lift`). */
    async closeAppeal(appealId: string, decision: 'granted' | 'upheld', actor: NonNullable<Actor>, now: Date) {
      const [row] = rowsOf<{ restriction_id: string; user_id: string }>(
        await db.execute(sql`update moderation_appeals set status = ${decision}, resolved_at = ${now}, resolved_by = ${actor.userId}::uuid
          where id = ${appealId}::uuid and status = 'open' returning restriction_id, user_id`),
      );
      return row && { restrictionId: row.restriction_id, userId: row.user_id };
    },
  };
}
