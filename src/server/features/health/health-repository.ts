import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { MIGRATIONS_DIR } from '../../paths.ts';
import { rowsOf } from '../../db/rows.ts';

/** The `when` of the newest migration this build ships (drizzle stores it as `created_at`). */
export function latestShippedMigration(migrationsDir: string = MIGRATIONS_DIR): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(0, ...journal.entries.map((entry) => entry.when));
}

export type HealthRepository = ReturnType<typeof createHealthRepository>;

/** The readiness probe's two queries: one round trip each, no table scanned. */
export function createHealthRepository(db: Database) {
  return {
    async ping(): Promise<void> {
      await db.execute(sql`select 1`);
    },
    /** The newest migration applied to this database, or 0 when none is. */
    async latestAppliedMigration(): Promise<number> {
      const [row] = rowsOf<{ latest: string | number | null }>(
        await db.execute(sql`select max(created_at) as latest from drizzle.__drizzle_migrations`),
      );
      return Number(row?.latest ?? 0);
    },
  };
}
