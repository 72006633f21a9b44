import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { cascadingRef } from './columns.ts';

/**
 * Who may open the moderation console (docs/decisions/0033). Rows are written only by the
 * operator command `npm run moderator`; no route grants a role.
 */
export const moderatorRoles = pgTable('moderator_roles', {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** moderator | admin */
  role: text().notNull(),
  grantedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * A moderator's action on an account, or the automatic review hold (three reports in 24 h). A
 * suspension, ban or open hold takes the profile out of every deck (profiles.active = false).
 */
export const accountRestrictions = pgTable(
  'account_restrictions',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: cascadingRef(() => users.id),
    /** warning | suspension | ban | review_hold */
    kind: text().notNull(),
    /** One of MODERATION_REASONS (shown to the person), or 'three_reports' for a hold. */
    reason: text().notNull(),
    reportId: uuid(),
    createdBy: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** A suspension's end; null for a ban, a warning or a hold. */
    endsAt: timestamp({ withTimezone: true }),
    liftedAt: timestamp({ withTimezone: true }),
    liftedBy: uuid(),
    /** Conversations this restriction closed, reopened when it is lifted. */
    closedConversationIds: uuid().array().notNull().default(sql`'{}'`),
    /** When the person saw the notice (a warning). */
    seenAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('account_restrictions_user_idx').on(table.userId, table.createdAt),
    uniqueIndex('account_restrictions_one_hold')
      .on(table.userId)
      .where(sql`${table.kind} = 'review_hold' and ${table.liftedAt} is null`),
  ],
);

/** The one appeal a person may make against a restriction; it lands in the console's queue. */
export const moderationAppeals = pgTable(
  'moderation_appeals',
  {
    id: uuid().primaryKey().defaultRandom(),
    restrictionId: uuid()
      .notNull()
      .unique()
      .references(() => accountRestrictions.id, { onDelete: 'cascade' }),
    userId: cascadingRef(() => users.id),
    text: text().notNull(),
    /** open | upheld | granted */
    status: text().notNull().default('open'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp({ withTimezone: true }),
    resolvedBy: uuid(),
  },
  (table) => [index('moderation_appeals_status_idx').on(table.status, table.createdAt)],
);

/**
 * Every moderator action: who, what, when, why. Append-only: a trigger refuses UPDATE, DELETE and
 * TRUNCATE (migration 0013), and no route edits it.
 */
export const moderationAudit = pgTable(
  'moderation_audit',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Null for the system (the automatic review hold). */
    moderatorId: uuid(),
    /** The moderator's e-mail when acting, so the record reads the same after the account changes. */
    moderatorEmail: text(),
    action: text().notNull(),
    targetUserId: uuid(),
    reportId: uuid(),
    restrictionId: uuid(),
    appealId: uuid(),
    reason: text().notNull(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('moderation_audit_target_idx').on(table.targetUserId, table.createdAt),
    index('moderation_audit_created_idx').on(table.createdAt),
  ],
);
