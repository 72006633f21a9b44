import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { userChanges } from '../../db/schema/index.ts';

/** What a transaction that changes something a user syncs appends (docs/decisions/0010). */
export type Change = { userId: string; kind: ChangeKind; entityId: string };
/** Open: notifications will add 'notification'. */
export type ChangeKind = 'conversation' | 'message';
export type ChangeRecord = { changeSeq: number; kind: string; entityId: string };

/** Anything that runs SQL: the database, or a transaction of it. */
export type SqlExecutor = Pick<Database, 'execute'>;

/**
 * Appends changes inside the caller's transaction, in one statement whatever the number of users.
 * Each user's counter row is bumped with `insert … on conflict do update … returning`, which holds
 * its row lock until commit: a user's change numbers are handed out and committed in the same
 * order, so a reader never sees N+1 before N (no gaps). The counter rows are listed in user id
 * order and PostgreSQL locks them in that order, so two transactions never wait on each other in
 * a circle. A repeated entity moves to its new number (the log keeps the latest per entity).
 */
export async function appendChanges(executor: SqlExecutor, changes: readonly Change[], now: Date): Promise<void> {
  const byUser = new Map<string, Map<string, Change>>();
  for (const change of changes) {
    const entries = byUser.get(change.userId) ?? new Map<string, Change>();
    entries.set(`${change.kind}:${change.entityId}`, change);
    byUser.set(change.userId, entries);
  }
  if (byUser.size === 0) return;
  const users = [...byUser.keys()].sort();
  const counters = users.map((userId) => sql`(${userId}::uuid, ${byUser.get(userId)?.size ?? 0}::bigint)`);
  // Each entry's number: the user's new last number, minus its count, plus the entry's ordinal.
  const entries = users.flatMap((userId) => {
    const list = [...(byUser.get(userId)?.values() ?? [])];
    return list.map(
      (entry, index) =>
        sql`(${userId}::uuid, ${list.length - index - 1}::bigint, ${entry.kind}::text, ${entry.entityId}::uuid)`,
    );
  });
  await executor.execute(sql`
    with bumped as (
      insert into sync_counters (user_id, last_change) values ${sql.join(counters, sql`, `)}
      on conflict (user_id) do update set last_change = sync_counters.last_change + excluded.last_change
      returning user_id, last_change)
    insert into user_changes (user_id, change_seq, kind, entity_id, created_at)
    select e.user_id, b.last_change - e.from_last, e.kind, e.entity_id, ${now}::timestamptz
    from (values ${sql.join(entries, sql`, `)}) as e(user_id, from_last, kind, entity_id)
    join bumped b on b.user_id = e.user_id
    on conflict (user_id, kind, entity_id)
    do update set change_seq = excluded.change_seq, created_at = excluded.created_at`);
}

/** The rows of a raw query (drizzle's `execute` answers node-postgres's QueryResult, `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

export type ChangeLogRepository = ReturnType<typeof createChangeLogRepository>;

export function createChangeLogRepository(db: Database) {
  return {
    /** Up to `limit` changes after `since`, in order. */
    async read(userId: string, since: number, limit: number): Promise<ChangeRecord[]> {
      return db
        .select({ changeSeq: userChanges.changeSeq, kind: userChanges.kind, entityId: userChanges.entityId })
        .from(userChanges)
        .where(and(eq(userChanges.userId, userId), gt(userChanges.changeSeq, since)))
        .orderBy(asc(userChanges.changeSeq))
        .limit(limit);
    },

    append: (changes: readonly Change[], now: Date) => db.transaction((tx) => appendChanges(tx, changes, now)),
  };
}
