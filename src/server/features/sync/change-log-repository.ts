import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf, type SqlExecutor } from '../../db/rows.ts';

// Re-exported for the sync service and the writers that import them from here (services may not import db/).
export { rowsOf, type SqlExecutor };

export type SnapshotReader = ReturnType<typeof createSnapshotReader>;

/**
 * The snapshot's horizon: the oldest transaction it shows in progress that may write to this
 * database (else its `xmax`). Every change it does not show carries an xid at or above it. A
 * transaction the activity view places in another database cannot write here and is left out
 * (a shared cluster's long transactions elsewhere would otherwise hold every sync's horizon
 * back); one it does not place (finished since, hidden, prepared) counts, which is only cautious.
 */
const HORIZON = sql`
  with snap as (select pg_current_snapshot() as s)
  select coalesce((select min(x)::text from snap, pg_snapshot_xip(snap.s) as x
      where not exists (select 1 from pg_stat_activity a
        where a.backend_xid is not null and a.datname is distinct from current_database()
          and a.backend_xid::text = ((x::text::numeric) % 4294967296)::text)),
    (select pg_snapshot_xmax(s)::text from snap)) as horizon`;

/**
 * Reads in one repeatable-read, read-only snapshot and tells its horizon (`HORIZON`,
 * docs/decisions/0041): everything the snapshot does not show was written at or above it.
 */
export function createSnapshotReader(db: Database) {
  return {
    read<T>(work: (executor: SqlExecutor, horizon: string | undefined) => Promise<T>): Promise<T> {
      return db.transaction(
        async (tx) => {
          const horizon = rowsOf<{ horizon: string }>(await tx.execute(HORIZON))[0]?.horizon;
          return work(tx, horizon);
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    },
  };
}
