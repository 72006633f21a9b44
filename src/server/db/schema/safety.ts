import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
    /** The open session reported (its host is `reportedId`), migration 0025. */
    openSessionId: uuid(),
    /** A group chat's message reported, and its text as it read then (evidence outliving the row). */
    messageId: uuid(),
    messageText: text(),
    /** The reporter's outbox clientId: a replay stores no second report (unique per reporter). */
    clientId: text(),
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
    uniqueIndex('reports_reporter_client_key')
      .on(table.reporterId, table.clientId)
      .where(sql`${table.clientId} is not null`),
    index('reports_open_session_idx').on(table.openSessionId).where(sql`${table.openSessionId} is not null`),
  ],
);

export type ReportRow = typeof reports.$inferSelect;
