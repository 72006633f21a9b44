import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * A report for moderation (docs/decisions/0012). The reporter is set to null when they delete
 * their account (the report stays, anonymised); the reported user's row is a tombstone after a
 * deletion, so reports about them survive for moderators.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid().primaryKey().defaultRandom(),
    reporterId: uuid().references(() => users.id, { onDelete: 'set null' }),
    reportedId: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** fake_profile | harassment | spam | inappropriate | underage | other */
    reason: text().notNull(),
    details: text(),
    /** The conversation the report is about, when made from a chat (no foreign key: evidence outlives it). */
    conversationId: uuid(),
    /** open | closed */
    status: text().notNull().default('open'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When a moderator closed it (docs/decisions/0033), by whom, and how. */
    resolvedAt: timestamp({ withTimezone: true }),
    resolvedBy: uuid(),
    /** dismissed | warning | suspension | ban */
    resolution: text(),
  },
  (table) => [
    index('reports_reported_idx').on(table.reportedId),
    index('reports_reporter_idx').on(table.reporterId),
    index('reports_status_idx').on(table.status, table.createdAt),
  ],
);

export type ReportRow = typeof reports.$inferSelect;
