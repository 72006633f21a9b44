import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
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
import { users } from './users.ts';
import { cascadingRef } from './columns.ts';

/** One swipe per (swiper, target); `clientId` is the offline outbox's idempotency key. */
export const swipes = pgTable(
  'swipes',
  {
    id: uuid().primaryKey().defaultRandom(),
    swiperId: cascadingRef(() => users.id),
    targetId: cascadingRef(() => users.id),
    /** dislike | like | superlike */
    action: text().notNull(),
    clientId: text(),
    /** The match this swipe created (the second like of a pair), so a repeat answers the same. */
    matchId: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('swipes_swiper_target_key').on(table.swiperId, table.targetId),
    uniqueIndex('swipes_swiper_client_key')
      .on(table.swiperId, table.clientId)
      .where(sql`${table.clientId} is not null`),
    index('swipes_target_idx').on(table.targetId),
  ],
);

/** A mutual like; the pair is stored ordered, so one unique key makes it exactly one row. */
export const matches = pgTable(
  'matches',
  {
    id: uuid().primaryKey().defaultRandom(),
    userLow: cascadingRef(() => users.id),
    userHigh: cascadingRef(() => users.id),
    /** like | superlike (superlike when either side superliked). */
    swipeType: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('matches_pair_key').on(table.userLow, table.userHigh),
    index('matches_user_high_idx').on(table.userHigh),
  ],
);

/**
 * One conversation per match (the chat feature adds messages and per-participant state), or a
 * group (kind 'group', docs/decisions/0056): no match and no pair, a title, an owner and members.
 * A check (migration 0019) holds a match to its match and pair and a group to its title and members.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid().primaryKey().defaultRandom(),
    matchId: uuid().references(() => matches.id, { onDelete: 'cascade' }),
    userA: uuid().references(() => users.id, { onDelete: 'cascade' }),
    userB: uuid().references(() => users.id, { onDelete: 'cascade' }),
    swipeType: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // The chat feature's columns (migration 0003_chat, schema/chat.ts, docs/decisions/0009).
    /** active | unmatched | blocked (a match); active | closed (a group) */
    status: text().notNull().default('active'),
    /** match (two members) | group (docs/decisions/0041; issue 35). */
    kind: text().notNull().default('match'),
    /** The per-conversation message sequence: `update … set last_seq = last_seq + 1 returning`. */
    lastSeq: integer().notNull().default(0),
    lastMessageId: uuid(),
    lastMessagePreview: text(),
    lastMessageAt: timestamp({ withTimezone: true }),
    lastMessageSenderId: uuid(),
    unmatchedBy: uuid(),
    unmatchedAt: timestamp({ withTimezone: true }),
    /** The transaction that last changed it (the sync's horizon, docs/decisions/0041). */
    changedXid: customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' })()
      .notNull()
      .default(sql`pg_current_xact_id()`),
    /** A group's name (its session's title); null for a match. */
    title: text(),
    /** Who made the group (the session's host); null for a match. */
    ownerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    /**
     * A group's current members (those whose participant row has not left), kept on the row the
     * send locks so that its update re-checks membership under that lock; null for a match.
     */
    groupMembers: uuid().array(),
    /** A closed group reads but takes no more messages (status 'closed'). */
    closedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('conversations_match_key').on(table.matchId),
    index('conversations_user_a_idx').on(table.userA),
    index('conversations_user_b_idx').on(table.userB),
  ],
);

/** Who blocked whom; the deck, swipes and profile views exclude a blocked pair in both directions. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: cascadingRef(() => users.id),
    blockedId: cascadingRef(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.blockerId, table.blockedId] }),
    index('blocks_blocked_idx').on(table.blockedId, table.blockerId),
  ],
);

/** [candidate userId, SQL score, distance km] in deck order. */
export type DeckEntry = [string, number, number];

/**
 * The ranked deck of one viewer, computed on page 1 and read by position on the next pages, so
 * pages never overlap and a page costs the same whatever its number (docs/decisions/0006).
 */
export const recommendationDecks = pgTable('recommendation_decks', {
  viewerId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  entries: jsonb().$type<DeckEntry[]>().notNull(),
  /** Candidates when the deck was computed (totalProfiles). */
  total: integer().notNull(),
  /** False when more candidates exist beyond `entries` (fetched by a seek from the last entry). */
  isComplete: boolean().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type SwipeRow = typeof swipes.$inferSelect;
export type MatchRow = typeof matches.$inferSelect;
export type ConversationRow = typeof conversations.$inferSelect;
