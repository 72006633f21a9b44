import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { conversations } from './discovery.ts';
import { openSessions } from './open-sessions.ts';
import { users } from './users.ts';
import { cascadingRef } from './columns.ts';

/**
 * A planned training session between the two members of a conversation (issue #21,
 * docs/decisions/0029). `user_a`/`user_b` copy the conversation's pair so a user's quedadas are
 * found by index; `version` is what every guarded update re-checks; `client_id` is the proposer's
 * idempotency key (offline outbox).
 */
export const quedadas = pgTable(
  'quedadas',
  {
    id: uuid().primaryKey().defaultRandom(),
    conversationId: cascadingRef(() => conversations.id),
    userA: cascadingRef(() => users.id),
    userB: cascadingRef(() => users.id),
    proposerId: uuid().notNull(),
    proposedBy: uuid().notNull(),
    /** proposed | countered | accepted | declined | cancelled | done | missed */
    status: text().notNull(),
    gymName: text().notNull(),
    gymAddress: text(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    durationMin: integer().notNull(),
    activity: text().notNull(),
    note: text(),
    history: jsonb().notNull().default(sql`'[]'::jsonb`),
    cancelledBy: uuid(),
    isLateCancel: boolean().notNull().default(false),
    confirmations: jsonb().notNull().default(sql`'{}'::jsonb`),
    version: integer().notNull().default(1),
    clientId: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('quedadas_proposer_client_key').on(table.proposerId, table.clientId),
    // One open proposal per conversation; an accepted one blocks a new proposal only until it
    // has ended, which the insert's own guard checks (docs/decisions/0029).
    uniqueIndex('quedadas_one_open_key')
      .on(table.conversationId)
      .where(sql`${table.status} in ('proposed', 'countered')`),
    index('quedadas_user_a_idx').on(table.userA, table.startsAt),
    index('quedadas_user_b_idx').on(table.userB, table.startsAt),
    index('quedadas_conversation_idx').on(table.conversationId, table.createdAt),
  ],
);

/** Answers already applied, by the answering user's clientId: a replayed answer changes nothing. */
export const quedadaActions = pgTable(
  'quedada_actions',
  {
    userId: cascadingRef(() => users.id),
    clientId: text().notNull(),
    quedadaId: cascadingRef(() => quedadas.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.clientId] })],
);

/**
 * Durable jobs (docs/decisions/0029): the reminder before a quedada and the "¿Entrenasteis
 * juntos?" question after it, one row per member. A node claims due rows with
 * `for update skip locked` and a lease (`claimed_until`); a node that dies holding a lease leaves
 * the row to be claimed again when it runs out; `done_at` is set once the notification is out.
 */
export const quedadaJobs = pgTable(
  'quedada_jobs',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    quedadaId: cascadingRef(() => quedadas.id),
    userId: cascadingRef(() => users.id),
    /** reminder | confirm */
    kind: text().notNull(),
    runAt: timestamp({ withTimezone: true }).notNull(),
    claimedUntil: timestamp({ withTimezone: true }),
    claimToken: uuid(),
    attempts: integer().notNull().default(0),
    doneAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('quedada_jobs_key').on(table.quedadaId, table.kind, table.userId),
    index('quedada_jobs_due_idx').on(table.runAt).where(sql`${table.doneAt} is null`),
  ],
);

export type QuedadaRow = typeof quedadas.$inferSelect;
export type QuedadaJobRow = typeof quedadaJobs.$inferSelect;

/**
 * «Compartir con alguien de confianza» (issue #35, docs/decisions/0054): a read-only link to one
 * member's quedada or open session (exactly one of `quedada_id`, `session_id`; migration 0024).
 * Only the SHA-256 of the token is stored; `client_id` makes the outbox's replay answer the same
 * row. A quedada's check-in is a `quedada_jobs` row (kind `checkin`); a session's is a job the
 * share row carries (`check_in_claimed_until`, `check_in_claim_token`, `check_in_done_at`).
 */
export const quedadaShares = pgTable(
  'quedada_shares',
  {
    id: uuid().primaryKey().defaultRandom(),
    quedadaId: uuid().references(() => quedadas.id, { onDelete: 'cascade' }),
    sessionId: uuid().references(() => openSessions.id, { onDelete: 'cascade' }),
    userId: cascadingRef(() => users.id),
    tokenHash: text().notNull(),
    clientId: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    checkInAt: timestamp({ withTimezone: true }),
    checkInAnswer: text(),
    answeredAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    checkInClaimedUntil: timestamp({ withTimezone: true }),
    checkInClaimToken: uuid(),
    checkInDoneAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('quedada_shares_token_key').on(table.tokenHash),
    uniqueIndex('quedada_shares_client_key').on(table.userId, table.clientId),
    index('quedada_shares_quedada_idx').on(table.quedadaId, table.userId),
    index('quedada_shares_session_idx').on(table.sessionId, table.userId).where(sql`${table.sessionId} is not null`),
    index('quedada_shares_session_check_in_due_idx')
      .on(table.checkInAt)
      .where(sql`${table.sessionId} is not null and ${table.checkInAt} is not null and ${table.checkInDoneAt} is null`),
    check('quedada_shares_one_target', sql`num_nonnulls(${table.quedadaId}, ${table.sessionId}) = 1`),
  ],
);
