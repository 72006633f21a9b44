import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { blocks, conversations, matches, messages } from '../../db/schema/index.ts';
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
      /** With a match: the other user of the (original) swipe, and its face for the celebration. */
      targetId: string;
      target: MatchFace | undefined;
      /** With a new match: the swiper's face, for the other user's celebration. */
      swiper: MatchFace | undefined;
    };

export type SwipeRepository = ReturnType<typeof createSwipeRepository>;

export type SwipeRepositoryOptions = {
  /**
   * True when every statement runs on one connection, one at a time: two swipes of a pair can
   * never overlap, so the like needs no advisory lock. Default false (a pool of connections).
   */
  serialized?: boolean;
};

const orderedPair = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);
const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const swipeTypeOf = (value: string): 'like' | 'superlike' => (value === 'superlike' ? 'superlike' : 'like');
const faceOf = (name: string | null, photos: string[] | null): MatchFace | undefined =>
  name === null ? undefined : { name, photos: photos ?? [] };

type InsertRow = {
  is_session_live: boolean;
  target_exists: boolean;
  blocked: boolean;
  swipe_id: string | null;
  /** Likes only: the target's like or superlike of the swiper, if any. */
  reciprocal: string | null;
};

type MatchRow = {
  match_id: string;
  match_swipe_type: string;
  match_created_at: Date | string;
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

export function createSwipeRepository(db: Database, options: SwipeRepositoryOptions = {}) {
  const serialized = options.serialized ?? false;
  type Executor = Pick<Database, 'execute'>;

  /**
   * Records a swipe in one statement, only when the target has a profile and neither user blocks
   * the other; ON CONFLICT DO NOTHING on the unique keys (swiper, target) and (swiper, clientId)
   * makes a repeat write nothing. A like also reads the target's like of the swiper, if any.
   */
  const insertSwipe = async (
    executor: Executor,
    input: {
      swiperId: string;
      sessionId: string;
      targetId: string;
      action: SwipeActionValue;
      clientId: string | null;
      now: Date;
    },
  ): Promise<InsertRow> => {
    const { swiperId, sessionId, targetId, action, clientId, now } = input;
    const reciprocal =
      action === 'dislike'
        ? sql`null`
        : sql`(select action from swipes
            where swiper_id = ${targetId}::uuid and target_id = ${swiperId}::uuid and action in ('like', 'superlike'))`;
    const [row] = rowsOf<InsertRow>(
      await executor.execute(sql`with ok as (
          select exists (select 1 from sessions where id = ${sessionId}::uuid and user_id = ${swiperId}::uuid
              and revoked_at is null and expires_at > ${now.toISOString()}::timestamptz) as is_session_live,
            exists (select 1 from profiles where user_id = ${targetId}::uuid) as target_exists,
            exists (select 1 from blocks
              where (blocker_id = ${swiperId}::uuid and blocked_id = ${targetId}::uuid)
                 or (blocker_id = ${targetId}::uuid and blocked_id = ${swiperId}::uuid)) as blocked
        ),
        ins as (
          insert into swipes (swiper_id, target_id, action, client_id, created_at)
          select ${swiperId}::uuid, ${targetId}::uuid, ${action}::text, ${clientId}::text, ${now.toISOString()}::timestamptz
          from ok where ok.is_session_live and ok.target_exists and not ok.blocked
          on conflict do nothing
          returning id
        )
        select ok.is_session_live, ok.target_exists, ok.blocked, ins.id as swipe_id, ${reciprocal} as reciprocal
        from ok left join ins on true`),
    );
    if (!row) throw new Error('swipe statement returned no row');
    return row;
  };

  /**
   * The second like of a pair: the match (unique on the ordered pair: an existing one is reused)
   * and its conversation (unique on the match), the swipe stamped with the match so a repeat
   * answers the same, and both users' names and photos for the celebration — one statement.
   */
  const createMatch = async (
    executor: Executor,
    input: { swipeId: string; swiperId: string; targetId: string; swipeType: 'like' | 'superlike'; now: Date },
  ): Promise<{ match: StoredMatch; target: MatchFace | undefined; swiper: MatchFace | undefined }> => {
    const { swipeId, swiperId, targetId, swipeType } = input;
    const now = input.now.toISOString();
    const [low, high] = orderedPair(swiperId, targetId);
    const [row] = rowsOf<MatchRow>(
      await executor.execute(sql`with inserted as (
          insert into matches (user_low, user_high, swipe_type, created_at)
          values (${low}::uuid, ${high}::uuid, ${swipeType}::text, ${now}::timestamptz)
          on conflict (user_low, user_high) do nothing
          returning id, swipe_type, created_at
        ),
        m as (
          select id, swipe_type, created_at from inserted
          union all
          select id, swipe_type, created_at from matches where user_low = ${low}::uuid and user_high = ${high}::uuid
        ),
        c as (
          insert into conversations (match_id, user_a, user_b, swipe_type, created_at, updated_at)
          select m.id, ${low}::uuid, ${high}::uuid, m.swipe_type, ${now}::timestamptz, ${now}::timestamptz from m
          on conflict (match_id) do nothing
          returning id
        ),
        stamped as (
          update swipes set match_id = (select id from m) where id = ${swipeId}::uuid returning id
        )
        select m.id as match_id, m.swipe_type as match_swipe_type, m.created_at as match_created_at,
          coalesce((select id from c), (select id from conversations where match_id = m.id)) as conversation_id,
          tp.name as target_name, tp.photos as target_photos, sp.name as swiper_name, sp.photos as swiper_photos
        from m
        left join profiles tp on tp.user_id = ${targetId}::uuid
        left join profiles sp on sp.user_id = ${swiperId}::uuid
        where (select count(*) from stamped) = 1`),
    );
    if (!row?.conversation_id) throw new Error('match or conversation missing after insert');
    return {
      match: {
        matchId: row.match_id,
        conversationId: row.conversation_id,
        swipeType: swipeTypeOf(row.match_swipe_type),
        createdAt: asDate(row.match_created_at),
        userLow: low,
        userHigh: high,
      },
      target: faceOf(row.target_name, row.target_photos),
      swiper: faceOf(row.swiper_name, row.swiper_photos),
    };
  };

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
     * Records a swipe once per pair and creates the match and its conversation when it completes
     * a mutual like. A dislike is one statement; a like is one statement in a transaction, plus
     * one more when it completes the pair, so a match is never left half made.
     *
     * The two likes of a pair must not overlap, or under READ COMMITTED neither would see the
     * other and there would be no match at all. On PostgreSQL the like's transaction therefore
     * first takes an advisory lock on the ordered pair, so its statement's snapshot includes the
     * other like once that committed. Embedded PGlite runs one transaction at a time on its single
     * connection, so it needs no lock. A dislike never reads the other swipe: no lock either.
     */
    async record(input: {
      swiperId: string;
      /** The session whose row the statement re-checks (docs/decisions/0018 §4). */
      sessionId: string;
      targetId: string;
      action: SwipeActionValue;
      clientId: string | undefined;
      now: Date;
    }): Promise<SwipeOutcome> {
      const { swiperId, sessionId, targetId, action, now } = input;
      const clientId = input.clientId ?? null;
      const statement = { swiperId, sessionId, targetId, action, clientId, now };
      const recorded = async (executor: Executor): Promise<SwipeOutcome> => {
        const row = await insertSwipe(executor, statement);
        if (!row.is_session_live) return { status: 'revoked' };
        if (!row.target_exists || row.blocked) return { status: 'refused' };
        if (!row.swipe_id) {
          const original = await existing(executor, swiperId, targetId, clientId);
          return { status: 'recorded', isNew: false, swiper: undefined, ...original };
        }
        const swipeId = row.swipe_id;
        if (!row.reciprocal) {
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
        const swipeType = action === 'superlike' || row.reciprocal === 'superlike' ? 'superlike' : 'like';
        const made = await createMatch(executor, { swipeId, swiperId, targetId, swipeType, now });
        return { status: 'recorded', isNew: true, swipeId, targetId, ...made };
      };
      if (action === 'dislike') return recorded(db);
      return db.transaction(async (tx) => {
        if (!serialized) {
          const [low, high] = orderedPair(swiperId, targetId);
          await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${low}), hashtext(${high}))`);
        }
        return recorded(tx);
      });
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
          lastMessageReadAt: messages.readAt,
        })
        .from(matches)
        .innerJoin(conversations, eq(conversations.matchId, matches.id))
        .leftJoin(messages, eq(messages.id, conversations.lastMessageId))
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
                isRead: row.lastMessageReadAt !== null,
              }
            : null,
      }));
    },
  };
}
