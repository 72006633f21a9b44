import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased; the unique index makes e-mail case-insensitive. */
    email: text('email').notNull(),
    /** E.164, +34 and 9 digits; set only after the number was verified by an SMS code. */
    phone: text('phone'),
    name: text('name').notNull(),
    lastName: text('last_name').notNull().default(''),
    /** argon2id PHC string; null for an account that only signs in with Google. */
    passwordHash: text('password_hash'),
    googleSub: text('google_sub'),
    completeProfile: boolean('complete_profile').notNull().default(false),
    streak: integer('streak').notNull().default(0),
    /** Madrid day of the last streak update (spec 000 §4). */
    lastLoginDate: date('last_login_date', { mode: 'string' }),
    /** Last position reported at login, snapped to about 1 km (QUALITY 9). */
    lastLatitude: doublePrecision('last_latitude'),
    lastLongitude: doublePrecision('last_longitude'),
    lastLocationAt: timestamp('last_location_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_key').on(sql`lower(${table.email})`),
    uniqueIndex('users_phone_key').on(table.phone),
    uniqueIndex('users_google_sub_key').on(table.googleSub),
  ],
);

export type UserRow = typeof users.$inferSelect;

/**
 * A deleted account keeps its `users` row as a tombstone (docs/decisions/0012) whose e-mail is
 * `<id>@` this domain: no way in may open a session for it (docs/decisions/0043).
 */
export const DELETED_ACCOUNT_EMAIL_DOMAIN = 'deleted.entreno.invalid';

/** Whether a `users` row is a deleted account's tombstone. */
export const isDeletedAccount = (user: Pick<UserRow, 'email'>): boolean =>
  user.email.endsWith(`@${DELETED_ACCOUNT_EMAIL_DOMAIN}`);
