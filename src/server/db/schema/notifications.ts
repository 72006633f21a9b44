import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * The Notification entity (spec 001 §3). `collapseKey` keeps one unread notification per key
 * (a conversation's messages): a new one updates it and counts up in `collapseCount`; marking it
 * read clears the key, so a later message starts a fresh notification (docs/decisions/0007).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** welcome | match | message | system | activity | reminder */
    type: text('type').notNull(),
    /** high | normal | low */
    priority: text('priority').notNull().default('normal'),
    title: text('title').notNull(),
    body: text('body').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    referenceId: text('reference_id'),
    referenceType: text('reference_type'),
    collapseKey: text('collapse_key'),
    collapseCount: integer('collapse_count').notNull().default(1),
  },
  (table) => [
    index('notifications_user_created_idx').on(table.userId, table.createdAt.desc(), table.id.desc()),
    index('notifications_user_unread_idx').on(table.userId).where(sql`${table.isRead} = false`),
    uniqueIndex('notifications_user_collapse_key')
      .on(table.userId, table.collapseKey)
      .where(sql`${table.isRead} = false and ${table.collapseKey} is not null`),
  ],
);
export type NotificationRow = typeof notifications.$inferSelect;

/**
 * One row per browser (endpoint): the last user who subscribed from it owns it. Push services
 * answer 404/410 for endpoints that are gone, and the row is deleted then.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    expirationTime: timestamp('expiration_time', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(table.endpoint),
    index('push_subscriptions_user_idx').on(table.userId),
  ],
);
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** Settings of spec 001 §3, stored as given (partial); defaults fill the rest when read (0008). */
export const userSettings = pgTable('user_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  settings: jsonb('settings').notNull().default(sql`'{}'::jsonb`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The Madrid day each user last got the streak reminder. Claiming a day is one conditional
 * upsert, so with many nodes running the scheduler each user still gets one reminder a day.
 */
export const streakReminders = pgTable('streak_reminders', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sentOn: date('sent_on', { mode: 'string' }).notNull(),
});
