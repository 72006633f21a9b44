import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
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
import { users } from './users.ts';

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
    conversationId: uuid()
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userA: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userB: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text().notNull(),
    quedadaId: uuid()
      .notNull()
      .references(() => quedadas.id, { onDelete: 'cascade' }),
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
    quedadaId: uuid()
      .notNull()
      .references(() => quedadas.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
