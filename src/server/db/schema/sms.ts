import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** The one live code per phone and purpose; a resend overwrites it (QUALITY 4). */
export const smsCodes = pgTable(
  'sms_codes',
  {
    phone: text('phone').notNull(),
    /** 'register' | 'google-register' */
    purpose: text('purpose').notNull(),
    /** HMAC-SHA256 of the code under a server key: a database leak does not reveal live codes. */
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Guesses made against this code, right or wrong; capped (QUALITY 4). */
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.phone, table.purpose] })],
);

/** Per-number send history: the resend cooldown and the MAX_ATTEMPTS lock, shared by every node. */
export const smsSendLimits = pgTable('sms_send_limits', {
  phone: text('phone').primaryKey(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  sendsInWindow: integer('sends_in_window').notNull().default(0),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/** A phone proven by a code, usable for its purpose until `expiresAt`, then once. */
export const phoneVerifications = pgTable(
  'phone_verifications',
  {
    phone: text('phone').notNull(),
    purpose: text('purpose').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.phone, table.purpose] })],
);

export type SmsCodeRow = typeof smsCodes.$inferSelect;
export type SmsSendLimitRow = typeof smsSendLimits.$inferSelect;
