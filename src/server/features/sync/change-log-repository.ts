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
 * Appends changes inside the caller's transaction. Each user's counter row is bumped with
 * `insert … on conflict do update … returning`, which holds its row lock until commit: a user's
 * change numbers are handed out and committed in the same order, so a reader never sees N+1
 * before N (no gaps). Users are locked in id order, so two transactions never wait on each other
 * in a circle. A repeated entity moves to its new number (the log keeps the latest per entity).
 */
export async function appendChanges(executor: SqlExecutor, changes: readonly Change[], now: Date): Promise<void> {
  const byUser = new Map<string, Map<string, Change>>();
  for (const change of changes) {
    const entries = byUser.get(change.userId) ?? new Map<string, Change>();
    entries.set(`${change.kind}:${change.entityId}`, change);
    byUser.set(change.userId, entries);
  }
  for (const userId of [...byUser.keys()].sort()) {
    const entries = [...(byUser.get(userId)?.values() ?? [])];
    const count = entries.length;
    const bumped = await executor.execute(sql`
      insert into sync_counters (user_id, last_change) values (${userId}, ${count})
      on conflict (user_id) do update set last_change = sync_counters.last_change + ${count}
      returning last_change`);
    const last = Number(rowsOf<{ last_change: string | number }>(bumped)[0]?.last_change);
    const first = last - count + 1;
    const values = sql.join(
      entries.map(
        (entry, index) =>
          sql`(${userId}::uuid, ${first + index}::bigint, ${entry.kind}, ${entry.entityId}::uuid, ${now})`,
      ),
      sql`, `,
    );
    await executor.execute(sql`
      insert into user_changes (user_id, change_seq, kind, entity_id, created_at) values ${values}
      on conflict (user_id, kind, entity_id)
      do update set change_seq = excluded.change_seq, created_at = excluded.created_at`);
  }
}

/** The rows of a raw query, whichever driver ran it (PGlite and node-postgres both answer `{ rows }`). */
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
