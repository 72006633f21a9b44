import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
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

/**
 * Each user's own view of a conversation (spec 001 §3 "Conversation"): pin, mute, archive and the
 * unread state. Rows are created lazily the first time the chat feature sees the conversation
 * (conversation-repository `ensureParticipants`), so the swipes feature does not need to know.
 */
export const conversationParticipants = pgTable(
  'conversation_participants',
  {
    conversationId: uuid()
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    /** Highest message seq the user has read. */
    lastReadSeq: integer().notNull().default(0),
    /** Messages to this user not yet read: kept in the same transactions that change it. */
    unreadCount: integer().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.conversationId, table.userId] }),
    index('conversation_participants_user_idx').on(table.userId),
  ],
);

/**
 * A chat message. `seq` orders a conversation (assigned from `conversations.last_seq` in the
 * insert's transaction); `client_id` is the sender's idempotency key (offline outbox, QUALITY 13).
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
    receiverId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text().notNull(),
    clientId: text(),
    seq: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp({ withTimezone: true }),
    readAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('messages_conversation_seq_key').on(table.conversationId, table.seq),
    uniqueIndex('messages_sender_client_key')
      .on(table.senderId, table.clientId)
      .where(sql`${table.clientId} is not null`),
    index('messages_unread_idx').on(table.receiverId, table.conversationId).where(sql`${table.readAt} is null`),
  ],
);

/**
 * The sync cursor's source (docs/decisions/0010): one counter per user, bumped under its row lock
 * in the same transaction as the change, so a user's change numbers commit in order, without gaps.
 */
export const syncCounters = pgTable('sync_counters', {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  lastChange: bigint({ mode: 'number' }).notNull().default(0),
});

/**
 * What changed for a user, newest number per entity: a later change of the same entity moves it
 * forward, so a read from any cursor lists each entity at most once. `kind` is open
 * ('conversation', 'message'; notifications will add theirs).
 */
export const userChanges = pgTable(
  'user_changes',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    changeSeq: bigint({ mode: 'number' }).notNull(),
    kind: text().notNull(),
    entityId: uuid().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.changeSeq] }),
    uniqueIndex('user_changes_entity_key').on(table.userId, table.kind, table.entityId),
  ],
);

export type MessageRow = typeof messages.$inferSelect;
export type ConversationParticipantRow = typeof conversationParticipants.$inferSelect;

/**
 * The work a stored message still owes after its acknowledgement (notification, push): written
 * by the message's own statement and deleted once done, so a process that dies right after an
 * ack leaves it here for the next drain (docs/decisions/0020). `claimed_at` is a lease: a drain
 * takes rows no one holds, or whose holder has not finished within the lease.
 */
export const chatDeliveries = pgTable(
  'chat_deliveries',
  {
    messageId: uuid()
      .primaryKey()
      .references(() => messages.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('chat_deliveries_created_idx').on(table.createdAt)],
);
