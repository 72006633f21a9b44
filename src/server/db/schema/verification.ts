import { sql } from 'drizzle-orm';
import { customType, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { profiles } from './profiles.ts';
import { users } from './users.ts';
import { cascadingRef } from './columns.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});

/**
 * Where each profile stands in its verification (issue #23 part 2, docs/decisions/0034): one row
 * per profile once it asks, deleted with the profile (so with the account). `status` follows the
 * shared state machine (none | pending | verified | recheck | rejected); `profiles.verified` is the
 * public badge and is true only while `status` is `verified`.
 */
export const profileVerifications = pgTable('profile_verifications', {
  userId: uuid()
    .primaryKey()
    .references(() => profiles.userId, { onDelete: 'cascade' }),
  status: text().notNull().default('none'),
  /** Why the last review said no (shown to the person). */
  reason: text(),
  /** The pose asked for the next selfie, and when it was chosen (it expires). */
  challengePose: text(),
  challengeIssuedAt: timestamp({ withTimezone: true }),
  /** The profile photos a moderator compared with the selfie (or re-checked); new ones suspend the badge. */
  approvedPhotoKeys: jsonb().$type<string[]>().notNull().default([]),
  verifiedAt: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The review queue and its history: a selfie request (`kind` selfie, with its pose) or the
 * automatic re-check after new photos (`kind` recheck). At most one pending request per profile.
 */
export const verificationRequests = pgTable(
  'verification_requests',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: cascadingRef(() => profiles.userId),
    /** selfie | recheck */
    kind: text().notNull(),
    pose: text(),
    /** pending | approved | rejected */
    status: text().notNull().default('pending'),
    /** The profile's photos when the request was made. */
    photoKeys: jsonb().$type<string[]>().notNull().default([]),
    reason: text(),
    reviewedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('verification_requests_one_pending_key').on(table.userId).where(sql`${table.status} = 'pending'`),
    index('verification_requests_queue_idx').on(table.status, table.createdAt),
  ],
);

/**
 * Selfies, private: only in the database (never under DATA_DIR/photos nor behind the public photo
 * route), read only by moderators, deleted when the request is reviewed, and with the profile.
 */
export const verificationSelfies = pgTable('verification_selfies', {
  requestId: uuid()
    .primaryKey()
    .references(() => verificationRequests.id, { onDelete: 'cascade' }),
  /** WebP, re-encoded without metadata. */
  data: bytea().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type ProfileVerificationRow = typeof profileVerifications.$inferSelect;
export type VerificationRequestRow = typeof verificationRequests.$inferSelect;
