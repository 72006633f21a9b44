import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { conversations } from './discovery.ts';
import { users } from './users.ts';
import { cascadingRef } from './columns.ts';

/**
 * A transaction id (`xid8`, 64 bits, never wraps): the sync's horizon (docs/decisions/0041).
 * Read as text; written only by the database (`pg_current_xact_id()`).
 */
export const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The members of a conversation (spec 001 §3 "Conversation"; docs/decisions/0041): each user's own
 * flags and their **cursors** — everything a count needs is derived from them when read. Every
 * conversation has its member rows: the statement that makes a match's conversation makes them
 * (`record_swipes`, migration 0021; docs/decisions/0057), and migrations 0017 and 0021 made those
 * of older conversations. The chat's `ensureParticipants` stays as a cheap no-op safety net.
 */
export const conversationParticipants = pgTable(
  'conversation_participants',
  {
    conversationId: cascadingRef(() => conversations.id),
    userId: cascadingRef(() => users.id),
    isPinned: boolean().notNull().default(false),
    isMuted: boolean().notNull().default(false),
    isArchived: boolean().notNull().default(false),
    /** Left out of the user's list (an unmatched conversation the user has dismissed). */
    isHidden: boolean().notNull().default(false),
    /**
     * The user's own "Súper entreno" mark (spec 001 §4 toggle); null: the match's type. Only a
     * conversation born of a superlike may be marked superlike.
     */
    swipeType: text(),
    /** Messages up to this seq are read by this member (unread = from others above it). */
    lastReadSeq: integer().notNull().default(0),
    /** Messages up to this seq reached one of this member's clients. */
    deliveredSeq: integer().notNull().default(0),
    /** Notifications and pushes went out for messages up to this seq (the drain's cursor). */
    notifiedSeq: integer().notNull().default(0),
    /** The transaction that last changed what the member's own clients see (flags, its cursors). */
    changedXid: xid8().notNull().default(sql`pg_current_xact_id()`),
    /** The transaction that last moved its read or delivered cursor (what the other members see). */
    receiptXid: xid8().notNull().default(sql`pg_current_xact_id()`),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** A group member who left or was removed (the row keeps its cursors); null while a member. */
    leftAt: timestamp({ withTimezone: true }),
    /** 'left' | 'removed' once `leftAt` is set. */
    leftReason: text(),
  },
  (table) => [
    primaryKey({ columns: [table.conversationId, table.userId] }),
    index('conversation_participants_user_idx').on(table.userId),
  ],
);

/**
 * A chat message: one row, never updated (docs/decisions/0041). `seq` orders a conversation
 * (assigned from `conversations.last_seq` by the send's one statement); `client_id` is the
 * sender's idempotency key (offline outbox, QUALITY 13); its read and delivered state are the
 * members' cursors. `receiver_id`: the other member of a two-member conversation (issue 35 makes it null in a group).
 */
export const messages = pgTable(
  'messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    conversationId: uuid()
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The other member of a match; null in a group (docs/decisions/0056). */
    receiverId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    text: text().notNull(),
    clientId: text(),
    seq: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The transaction that wrote it (the sync's horizon). */
    xid: xid8().notNull().default(sql`pg_current_xact_id()`),
  },
  (table) => [
    uniqueIndex('messages_conversation_seq_key').on(table.conversationId, table.seq),
    uniqueIndex('messages_sender_client_key')
      .on(table.senderId, table.clientId)
      .where(sql`${table.clientId} is not null`),
  ],
);

export type MessageRow = typeof messages.$inferSelect;
export type ConversationParticipantRow = typeof conversationParticipants.$inferSelect;
