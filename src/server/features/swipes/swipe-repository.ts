import { and, desc, eq, or, sql } from 'drizzle-orm';
import { type Database, preparedStatement } from '../../db/client.ts';
import { blocks, conversations, matches } from '../../db/schema/index.ts';
import { createBatcher } from '../../infra/batcher.ts';
import { rowsOf } from '../sync/change-log-repository.ts';

export type SwipeActionValue = 'dislike' | 'like' | 'superlike';

export type StoredMatch = {
  matchId: string;
  conversationId: string;
  swipeType: 'like' | 'superlike';
  createdAt: Date;
  userLow: string;
  userHigh: string;
};

/** What a match celebration shows of a user (spec 001 §3: otherUser {name, photos}). */
export type MatchFace = { name: string; photos: string[] };

/** The last message of a listed match's conversation (the shape of a Conversation's lastMessage). */
export type MatchLastMessage = { text: string; at: Date; senderId: string; isRead: boolean };

export type ListedMatch = StoredMatch & { lastMessage: MatchLastMessage | null };

export type SwipeOutcome =
  /** The swiper's session was revoked or ended (checked by the statement itself): nothing was written. */
  | { status: 'revoked' }
  /** The target has no profile, or either user blocks the other: nothing was written. */
  | { status: 'refused' }
  | {
      status: 'recorded';
      /** False when the swipe (same pair, or same clientId) was already recorded: nothing new was written. */
      isNew: boolean;
      /** The new swipe's id (only when isNew): what a superlike's notification refers to. */
      swipeId?: string;
      /** The match the (original) swipe created, if any. */
      match: StoredMatch | undefined;
      /**
       * The match was made by this swipe: false when the pair already had it (made by «Conectar»
       * after an open session, docs/decisions/0055), which is then not announced again.
       */
      isNewMatch?: boolean;
      /** With a match: the other user of the (original) swipe, and its face for the celebration. */
      targetId: string;
      target: MatchFace | undefined;
      /** With a new match: the swiper's face, for the other user's celebration. */
      swiper: MatchFace | undefined;
    };

export type SwipeRepository = ReturnType<typeof createSwipeRepository>;

const orderedPair = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);
const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const swipeTypeOf = (value: string): 'like' | 'superlike' => (value === 'superlike' ? 'superlike' : 'like');
const faceOf = (name: string | null, photos: string[] | null): MatchFace | undefined =>
  name === null ? undefined : { name, photos: photos ?? [] };

/** Swipes per `record_swipes` statement at most (a batch forms from what queued meanwhile). */
const SWIPE_BATCH_MAX = 64;

/** What `record` records. */
export type SwipeInput = {
  swiperId: string;
  /** The session whose row the statement re-checks (docs/decisions/0018 §4). */
  sessionId: string;
  targetId: string;
  action: SwipeActionValue;
  clientId: string | undefined;
  now: Date;
};

/** A row of `record_swipes` (migration 0021): one per swipe of the batch, `ord` its 1-based place. */
type RecordRow = {
  ord: number;
  is_session_live: boolean;
  target_exists: boolean;
  blocked: boolean;
  swipe_id: string | null;
  match_id: string | null;
  match_swipe_type: string | null;
  match_created_at: Date | string | null;
  match_is_new: boolean | null;
  conversation_id: string | null;
  target_name: string | null;
  target_photos: string[] | null;
  swiper_name: string | null;
  swiper_photos: string[] | null;
};

type ExistingRow = {
  target_id: string;
  match_id: string | null;
  match_swipe_type: string | null;
  match_created_at: Date | string | null;
  user_low: string | null;
  user_high: string | null;
  conversation_id: string | null;
  target_name: string | null;
  target_photos: string[] | null;
};

export function createSwipeRepository(db: Database) {
  type Executor = Pick<Database, 'execute'>;
  const recordSwipes = preparedStatement<RecordRow>(
    db,
    'record_swipes',
    'select * from record_swipes($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::timestamptz[])',
  );
  /**
   * Swipes in self-forming batches (docs/decisions/0057): one goes at once when no statement is in
   * flight; those arriving meanwhile go together in the next, one statement and one commit.
   */
  const batcher = createBatcher<SwipeInput, RecordRow>({
    name: 'swipes',
    maxSize: SWIPE_BATCH_MAX,
    async run(items) {
      const rows = await recordSwipes([
        items.map((one) => one.swiperId),
        items.map((one) => one.sessionId),
        items.map((one) => one.targetId),
        items.map((one) => one.action),
        items.map((one) => one.clientId ?? null),
        items.map((one) => one.now.toISOString()),
      ]);
      const byOrd = new Map(rows.map((row) => [Number(row.ord), row]));
      return items.map((_, index) => {
        const row = byOrd.get(index + 1);
        if (!row) throw new Error('record_swipes returned no row for a swipe');
        return row;
      });
    },
  });

  /** The recorded swipe a repeat answers with: by clientId first (the outbox's replay), else by pair. */
  const existing = async (executor: Executor, swiperId: string, targetId: string, clientId: string | null) => {
    const [row] = rowsOf<ExistingRow>(
      await executor.execute(sql`
        select s.target_id, m.id as match_id, m.swipe_type as match_swipe_type, m.created_at as match_created_at,
          m.user_low, m.user_high, c.id as conversation_id, tp.name as target_name, tp.photos as target_photos
        from swipes s
        left join matches m on m.id = s.match_id
        left join conversations c on c.match_id = m.id
        left join profiles tp on c.id is not null and tp.user_id = s.target_id
        where s.swiper_id = ${swiperId}::uuid
          and (s.target_id = ${targetId}::uuid or s.client_id = ${clientId}::text)
        order by (s.client_id is not distinct from ${clientId}::text) desc
        limit 1`),
    );
    if (!row) throw new Error('swipe conflict without an existing swipe');
    const match =
      row.match_id && row.conversation_id && row.user_low && row.user_high && row.match_swipe_type
        ? {
            matchId: row.match_id,
            conversationId: row.conversation_id,
            swipeType: swipeTypeOf(row.match_swipe_type),
            createdAt: asDate(row.match_created_at ?? new Date(0)),
            userLow: row.user_low,
            userHigh: row.user_high,
          }
        : undefined;
    return { match, targetId: row.target_id, target: match ? faceOf(row.target_name, row.target_photos) : undefined };
  };

  return {
    /**
     * Records a swipe once per pair and creates the match, its conversation and the conversation's
     * member rows when it completes a mutual like: one statement with the other swipes of its batch
     * (`record_swipes`, migration 0021, a named prepared statement; docs/decisions/0057). The two
     * likes of a pair must not overlap, or under READ COMMITTED neither would see the other and
     * there would be no match at all: each batch takes the advisory locks of its pairs, in one
     * order, before it reads the other likes (docs/decisions/0036). Only a repeat (same pair or
     * same clientId) costs a second statement, reading what the original swipe made.
     */
    async record(input: SwipeInput): Promise<SwipeOutcome> {
      const { swiperId, targetId, now } = input;
      const clientId = input.clientId ?? null;
      const row = await batcher.submit(input);
      if (!row.is_session_live) return { status: 'revoked' };
      if (!row.target_exists || row.blocked) return { status: 'refused' };
      if (!row.swipe_id) {
        const original = await existing(db, swiperId, targetId, clientId);
        return { status: 'recorded', isNew: false, swiper: undefined, ...original };
      }
      const swipeId = row.swipe_id;
      if (!row.match_id) {
        return {
          status: 'recorded',
          isNew: true,
          swipeId,
          match: undefined,
          targetId,
          target: undefined,
          swiper: undefined,
        };
      }
      if (!row.conversation_id || !row.match_swipe_type) throw new Error('match or conversation missing after insert');
      const [low, high] = orderedPair(swiperId, targetId);
      const createdAt = asDate(row.match_created_at ?? now);
      return {
        status: 'recorded',
        isNew: true,
        swipeId,
        targetId,
        // This swipe made the match (`ensure_match`, migration 0027), or it was there before.
        isNewMatch: row.match_is_new === true,
        match: {
          matchId: row.match_id,
          conversationId: row.conversation_id,
          swipeType: swipeTypeOf(row.match_swipe_type),
          createdAt,
          userLow: low,
          userHigh: high,
        },
        target: faceOf(row.target_name, row.target_photos),
        swiper: faceOf(row.swiper_name, row.swiper_photos),
      };
    },

    /**
     * The user's matches, newest first, each with its conversation's last message: only pairs
     * whose conversation is still `active` (an unmatched or blocked one has ended,
     * docs/decisions/0009 and 0012), and never a pair where either blocks the other now — checked
     * against `blocks` too, so a block counts even before its conversation is marked.
     */
    async listMatches(userId: string): Promise<ListedMatch[]> {
      const rows = await db
        .select({
          matchId: matches.id,
          conversationId: conversations.id,
          swipeType: matches.swipeType,
          createdAt: matches.createdAt,
          userLow: matches.userLow,
          userHigh: matches.userHigh,
          lastMessageText: conversations.lastMessagePreview,
          lastMessageAt: conversations.lastMessageAt,
          lastMessageSenderId: conversations.lastMessageSenderId,
          // Read: the other member's read cursor reached the conversation's last seq (docs/decisions/0041).
          isLastMessageRead: sql<boolean>`exists (select 1 from conversation_participants p
            where p.conversation_id = ${conversations.id} and p.user_id <> ${conversations.lastMessageSenderId}
              and p.last_read_seq >= ${conversations.lastSeq})`,
        })
        .from(matches)
        .innerJoin(conversations, eq(conversations.matchId, matches.id))
        .where(
          and(
            or(eq(matches.userLow, userId), eq(matches.userHigh, userId)),
            eq(conversations.status, 'active'),
            sql`not exists (select 1 from ${blocks} b
              where (b.blocker_id = ${matches.userLow} and b.blocked_id = ${matches.userHigh})
                 or (b.blocker_id = ${matches.userHigh} and b.blocked_id = ${matches.userLow}))`,
          ),
        )
        .orderBy(desc(matches.createdAt), desc(matches.id));
      return rows.map((row) => ({
        matchId: row.matchId,
        conversationId: row.conversationId,
        swipeType: swipeTypeOf(row.swipeType),
        createdAt: row.createdAt,
        userLow: row.userLow,
        userHigh: row.userHigh,
        lastMessage:
          row.lastMessageAt && row.lastMessageSenderId
            ? {
                text: row.lastMessageText ?? '',
                at: row.lastMessageAt,
                senderId: row.lastMessageSenderId,
                isRead: row.isLastMessageRead === true,
              }
            : null,
      }));
    },
  };
}
