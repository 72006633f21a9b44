import { desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { type DevOutboxRow, devOutbox } from '../db/schema/index.ts';

export type NewOutboxRow = Omit<DevOutboxRow, 'id'>;

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;

export function createOutboxRepository(db: Database) {
  return {
    async insert(row: NewOutboxRow): Promise<DevOutboxRow> {
      const [inserted] = await db.insert(devOutbox).values(row).returning();
      if (!inserted) throw new Error('dev_outbox insert returned no row');
      return inserted;
    },
    /** Newest first. */
    list(options: { to?: string; limit: number }): Promise<DevOutboxRow[]> {
      return db
        .select()
        .from(devOutbox)
        .where(options.to === undefined ? undefined : eq(devOutbox.to, options.to))
        .orderBy(desc(devOutbox.id))
        .limit(options.limit);
    },
  };
}
