import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf, type SqlExecutor } from '../sync/change-log-repository.ts';
import type { Membership } from './conversation-membership.ts';

/** One user's view of a conversation, as the list, the sync and every mutation return it. */
export type ConversationView = {
  conversationId: string;
  otherUserId: string;
  otherName: string;
  otherPhoto: string | null;
  status: 'active' | 'unmatched' | 'blocked';
  matchSwipeType: 'like' | 'superlike';
  ownSwipeType: 'like' | 'superlike' | null;
  isPinned: boolean;
  isMuted: boolean;
  isArchived: boolean;
  isHidden: boolean;
  unreadCount: number;
  /** The other member's cursors: the caller's messages up to them are read / delivered. */
  otherReadSeq: number;
  otherDeliveredSeq: number;
  updatedAt: Date;
  lastMessage: { text: string; at: Date; senderId: string; isRead: boolean } | null;
};

/** A participant's access to a conversation: who is on the other side and whether it is open. */
export type ConversationAccess = {
  conversationId: string;
  userId: string;
  otherUserId: string;
  status: 'active' | 'unmatched' | 'blocked';
  self: { name: string; photo: string | null };
  other: { name: string; photo: string | null };
};

export type ParticipantPatch = Partial<{
  isPinned: boolean;
  isMuted: boolean;
  isArchived: boolean;
  swipeType: 'like' | 'superlike' | null;
}>;

type ViewRow = {
  conversation_id: string;
  other_id: string;
  other_name: string;
  other_photo: string | null;
  status: string;
  match_swipe_type: string;
  own_swipe_type: string | null;
  is_pinned: boolean;
  is_muted: boolean;
  is_archived: boolean;
  is_hidden: boolean;
  unread_count: number;
  other_read_seq: number | null;
  other_delivered_seq: number | null;
  updated_at: Date | string;
  last_message_preview: string | null;
  last_message_at: Date | string | null;
  last_message_sender_id: string | null;
  last_message_read: boolean | null;
  total: number;
};

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const swipeTypeOf = (value: string | null | undefined) =>
  value === 'superlike' ? 'superlike' : value === 'like' ? 'like' : null;
const statusOf = (value: string) => (value === 'blocked' ? 'blocked' : value === 'unmatched' ? 'unmatched' : 'active');

/** Either user of conversation `c` blocked the other (the blocks table belongs to discovery). */
const BLOCKED_PAIR = `exists (select 1 from blocks b
  where (b.blocker_id = c.user_a and b.blocked_id = c.user_b)
     or (b.blocker_id = c.user_b and b.blocked_id = c.user_a))`;
const blockedPair = sql.raw(BLOCKED_PAIR);

const effectiveStatus = sql`case when ${blockedPair} then 'blocked' else c.status end`;

function toView(row: ViewRow): ConversationView {
  return {
    conversationId: row.conversation_id,
    otherUserId: row.other_id,
    otherName: row.other_name,
    otherPhoto: row.other_photo,
    status: statusOf(row.status),
    matchSwipeType: swipeTypeOf(row.match_swipe_type) ?? 'like',
    ownSwipeType: swipeTypeOf(row.own_swipe_type),
    isPinned: row.is_pinned,
    isMuted: row.is_muted,
    isArchived: row.is_archived,
    isHidden: row.is_hidden,
    unreadCount: Number(row.unread_count),
    otherReadSeq: Number(row.other_read_seq ?? 0),
    otherDeliveredSeq: Number(row.other_delivered_seq ?? 0),
    updatedAt: asDate(row.updated_at),
    lastMessage:
      row.last_message_at && row.last_message_sender_id
        ? {
            text: row.last_message_preview ?? '',
            at: asDate(row.last_message_at),
            senderId: row.last_message_sender_id,
            isRead: row.last_message_read === true,
          }
        : null,
  };
}

/**
 * Member `p`'s unread messages in its conversation `c` (docs/decisions/0041): those from others
 * after its read cursor, an index range on (conversation_id, seq), capped at `UNREAD_CAP` (the UI
 * shows 99+). Nothing is read when the cursor is at the conversation's last seq.
 */
export const UNREAD_CAP = 100;
const UNREAD_OF = `case when c.last_seq > p.last_read_seq then (select count(*)::int from (
    select 1 from messages m where m.conversation_id = p.conversation_id and m.seq > p.last_read_seq
      and m.sender_id <> p.user_id limit ${UNREAD_CAP}) as u) else 0 end`;
export const unreadOf = sql.raw(UNREAD_OF);

/**
 * The text of a user's unread total (`user`, a SQL expression): the sum of `unreadOf` over their
 * visible match conversations (not hidden, not blocked) but `except` (a SQL expression, or none).
 * It starts from the user's member rows (their index) and reads each conversation by its key,
 * only where the cursor is behind: `offset 0` keeps the planner from turning that into a join it
 * may start from the conversations table (a scan of every conversation per call, as measured in
 * the send statement on the bench's data: 1,018 buffers a message).
 */
export const unreadTotalText = (user: string, except?: string) => `(select coalesce(sum(t.n), 0)::int
    from conversation_participants p
    cross join lateral (select ${UNREAD_OF} as n from conversations c
      where c.id = p.conversation_id and c.kind = 'match' and c.last_seq > p.last_read_seq
        and not ${BLOCKED_PAIR} offset 0) t
    where p.user_id = ${user} and not p.is_hidden${except ? ` and p.conversation_id <> ${except}` : ''})`;

/** One user's participant rows, joined with the conversation, the other user and their member row. */
function viewQuery(userId: string, where: SQL, tail: SQL = sql``) {
  return sql`
    select c.id as conversation_id,
      o.id as other_id,
      coalesce(pr.name, o.name) as other_name,
      pr.photos->>0 as other_photo,
      ${effectiveStatus} as status,
      c.swipe_type as match_swipe_type,
      p.swipe_type as own_swipe_type,
      p.is_pinned, p.is_muted, p.is_archived, p.is_hidden, ${unreadOf} as unread_count,
      op.last_read_seq as other_read_seq, greatest(op.delivered_seq, op.last_read_seq) as other_delivered_seq,
      c.updated_at, c.last_message_preview, c.last_message_at, c.last_message_sender_id,
      (case when c.last_message_sender_id = p.user_id then coalesce(op.last_read_seq, 0)
        else p.last_read_seq end) >= c.last_seq as last_message_read,
      (count(*) over ())::int as total
    from conversation_participants p
    join conversations c on c.id = p.conversation_id
    join users o on o.id = case when c.user_a = ${userId}::uuid then c.user_b else c.user_a end
    left join profiles pr on pr.user_id = o.id
    left join conversation_participants op on op.conversation_id = c.id and op.user_id = o.id
    where p.user_id = ${userId}::uuid and ${where}
    ${tail}`;
}

/**
 * Inserts the missing member rows of one conversation (both users), cursors at 0; returns the
 * users whose row is new.
 */
export async function ensureConversationParticipants(
  executor: SqlExecutor,
  conversationId: string,
  now: Date,
): Promise<string[]> {
  const inserted = await executor.execute(sql`
    insert into conversation_participants (conversation_id, user_id, updated_at)
    select c.id, u.user_id, ${now} from conversations c
    cross join lateral (values (c.user_a), (c.user_b)) as u(user_id)
    where c.id = ${conversationId}::uuid and u.user_id is not null
    on conflict do nothing
    returning user_id`);
  return rowsOf<{ user_id: string }>(inserted).map((row) => row.user_id);
}

/**
 * The user's total of unread messages (hidden and blocked conversations left out): the sum of the
 * capped per-conversation counts, read only where the cursor is behind (docs/decisions/0041).
 * Matches only: a group's unread is its own (`/api/groups`), as groups stay out of the spec's
 * lists (docs/decisions/0056).
 */
const USER_MARK = '{user}';
export async function unreadTotal(executor: SqlExecutor, userId: string): Promise<number> {
  const [before, after] = unreadTotalText(USER_MARK).split(USER_MARK);
  const result = await executor.execute(
    sql`select ${sql.raw(before ?? '')}${userId}::uuid${sql.raw(after ?? '')} as total`,
  );
  return Number(rowsOf<{ total: number }>(result)[0]?.total ?? 0);
}

export type ConversationRepository = ReturnType<typeof createConversationRepository>;

/** Conversations as the chat sees them: participants' state, access checks, unmatch. */
export function createConversationRepository(db: Database) {
  const views = async (userId: string, where: SQL, tail?: SQL) =>
    rowsOf<ViewRow>(await db.execute(viewQuery(userId, where, tail)));

  return {
    /**
     * A conversation's two users (a match) or current members (a group) and whether it is live
     * (not ended, not blocked, not closed); the membership cache's source.
     */
    async findMembership(conversationId: string): Promise<Membership | undefined> {
      const row = rowsOf<{
        id: string;
        kind: string;
        user_a: string;
        user_b: string;
        group_members: string[] | null;
        status: string;
        blocked_pairs: [string, string][] | null;
      }>(
        await db.execute(sql`select c.id, c.kind, c.user_a, c.user_b, c.group_members, ${effectiveStatus} as status,
            case when c.kind = 'group' then (select json_agg(json_build_array(b.blocked_id, b.blocker_id))
              from blocks b where b.blocker_id = any(c.group_members) and b.blocked_id = any(c.group_members))
            end as blocked_pairs
          from conversations c where c.id = ${conversationId}::uuid`),
      )[0];
      if (!row) return undefined;
      const isLive = row.status === 'active';
      if (row.kind === 'group') {
        // Who blocked whom among the members: a member's typing is not relayed to those who blocked them.
        const blockedBy: Record<string, string[]> = {};
        for (const [blocked, blocker] of row.blocked_pairs ?? []) {
          blockedBy[blocked] = [...(blockedBy[blocked] ?? []), blocker];
        }
        return { kind: 'group', conversationId: row.id, members: row.group_members ?? [], isLive, blockedBy };
      }
      return { kind: 'match', conversationId: row.id, userA: row.user_a, userB: row.user_b, isLive };
    },

    /**
     * Creates the user's missing member rows (conversations the swipes feature made); a new row's
     * `changed_xid` brings the conversation to the user's sync. One cheap statement when nothing is missing.
     */
    async ensureParticipants(userId: string, now: Date): Promise<void> {
      await db.execute(sql`
        insert into conversation_participants (conversation_id, user_id, updated_at)
        select c.id, ${userId}::uuid, ${now} from conversations c
        where (c.user_a = ${userId}::uuid or c.user_b = ${userId}::uuid)
          and not exists (select 1 from conversation_participants p
            where p.conversation_id = c.id and p.user_id = ${userId}::uuid)
        on conflict do nothing`);
    },

    /** Both members' rows of one conversation (a new match). */
    async ensureConversation(conversationId: string, now: Date): Promise<void> {
      await ensureConversationParticipants(db, conversationId, now);
    },

    /** The user's access to a conversation; undefined when the user is not one of its two. */
    async findAccess(conversationId: string, userId: string): Promise<ConversationAccess | undefined> {
      const result = await db.execute(sql`
        select c.id, c.user_a, c.user_b, ${effectiveStatus} as status,
          coalesce(pa.name, ua.name) as name_a, pa.photos->>0 as photo_a,
          coalesce(pb.name, ub.name) as name_b, pb.photos->>0 as photo_b
        from conversations c
        join users ua on ua.id = c.user_a
        join users ub on ub.id = c.user_b
        left join profiles pa on pa.user_id = c.user_a
        left join profiles pb on pb.user_id = c.user_b
        where c.id = ${conversationId}::uuid and (c.user_a = ${userId}::uuid or c.user_b = ${userId}::uuid)`);
      const row = rowsOf<{
        id: string;
        user_a: string;
        user_b: string;
        status: string;
        name_a: string;
        photo_a: string | null;
        name_b: string;
        photo_b: string | null;
      }>(result)[0];
      if (!row) return undefined;
      const a = { name: row.name_a, photo: row.photo_a };
      const b = { name: row.name_b, photo: row.photo_b };
      const isA = row.user_a === userId;
      return {
        conversationId: row.id,
        userId,
        otherUserId: isA ? row.user_b : row.user_a,
        status: statusOf(row.status),
        self: isA ? a : b,
        other: isA ? b : a,
      };
    },

    /** Pinned first, then superlike, then the most recently updated (spec 001 §4). */
    async list(
      userId: string,
      options: { isArchived: boolean; offset: number; limit: number },
    ): Promise<{ views: ConversationView[]; total: number }> {
      const where = sql`not p.is_hidden and p.is_archived = ${options.isArchived} and not ${blockedPair}`;
      const rows = await views(
        userId,
        where,
        sql`order by p.is_pinned desc, (coalesce(p.swipe_type, c.swipe_type) = 'superlike') desc,
              c.updated_at desc, c.id desc
            limit ${options.limit} offset ${options.offset}`,
      );
      if (rows.length === 0 && options.offset > 0) {
        // Past the end: no row carried the window count, so count on its own.
        const counted = await db.execute(sql`
          select count(*)::int as total
          from conversation_participants p join conversations c on c.id = p.conversation_id
          where p.user_id = ${userId}::uuid and ${where}`);
        return { views: [], total: Number(rowsOf<{ total: number }>(counted)[0]?.total ?? 0) };
      }
      return { views: rows.map(toView), total: Number(rows[0]?.total ?? 0) };
    },

    /**
     * The user's views of the conversations changed in transactions from `horizon` on: the
     * conversation's row, the user's member row, or another member's receipt cursors (hidden ones
     * too: the sync reports them gone).
     */
    async findChangedViews(executor: SqlExecutor, userId: string, horizon: string): Promise<ConversationView[]> {
      const changed =
        horizon === '0'
          ? sql`true`
          : sql`(c.changed_xid >= ${horizon}::xid8 or p.changed_xid >= ${horizon}::xid8
              or exists (select 1 from conversation_participants x where x.conversation_id = c.id
                and x.user_id <> p.user_id and x.receipt_xid >= ${horizon}::xid8))`;
      return rowsOf<ViewRow>(await executor.execute(viewQuery(userId, changed))).map(toView);
    },

    async findView(userId: string, conversationId: string): Promise<ConversationView | undefined> {
      return (await views(userId, sql`c.id = ${conversationId}::uuid`)).map(toView)[0];
    },

    /** Changes the user's own flags (and its `changed_xid`, for the user's sync). */
    async updateParticipant(userId: string, conversationId: string, patch: ParticipantPatch, now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await ensureConversationParticipants(tx, conversationId, now);
        const sets: SQL[] = [sql`updated_at = ${now}`, sql`changed_xid = pg_current_xact_id()`];
        if (patch.isPinned !== undefined) sets.push(sql`is_pinned = ${patch.isPinned}`);
        if (patch.isMuted !== undefined) sets.push(sql`is_muted = ${patch.isMuted}`);
        if (patch.isArchived !== undefined) sets.push(sql`is_archived = ${patch.isArchived}`);
        if (patch.swipeType !== undefined) sets.push(sql`swipe_type = ${patch.swipeType}`);
        await tx.execute(sql`update conversation_participants set ${sql.join(sets, sql`, `)}
          where conversation_id = ${conversationId}::uuid and user_id = ${userId}::uuid`);
      });
    },

    /**
     * Ends an active conversation for both (docs/decisions/0009): status `unmatched`, hidden from
     * the list of the one who ended it. The match row stays, so the pair's swipes keep them out of
     * each other's deck. Returns false when it was not active (nothing changed).
     */
    async unmatch(conversationId: string, userId: string, now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const locked = rowsOf<{ user_a: string; user_b: string; status: string }>(
          await tx.execute(sql`select user_a, user_b, status from conversations
            where id = ${conversationId}::uuid for update`),
        )[0];
        if (locked?.status !== 'active') return false;
        await ensureConversationParticipants(tx, conversationId, now);
        await tx.execute(sql`update conversations
          set status = 'unmatched', unmatched_by = ${userId}::uuid, unmatched_at = ${now}, updated_at = ${now},
            changed_xid = pg_current_xact_id()
          where id = ${conversationId}::uuid`);
        await tx.execute(sql`update conversation_participants set is_hidden = true, updated_at = ${now},
            changed_xid = pg_current_xact_id()
          where conversation_id = ${conversationId}::uuid and user_id = ${userId}::uuid`);
        return true;
      });
    },

    unreadTotal: (userId: string) => unreadTotal(db, userId),

    /** Display name (profile, else account) and first photo of each user. */
    async findPeople(userIds: readonly string[]): Promise<Map<string, { name: string; photo: string | null }>> {
      const people = new Map<string, { name: string; photo: string | null }>();
      if (userIds.length === 0) return people;
      const ids = sql.join(
        [...new Set(userIds)].map((id) => sql`${id}::uuid`),
        sql`, `,
      );
      const rows = rowsOf<{ id: string; name: string; photo: string | null }>(
        await db.execute(sql`select u.id, coalesce(pr.name, u.name) as name, pr.photos->>0 as photo
          from users u left join profiles pr on pr.user_id = u.id where u.id in (${ids})`),
      );
      for (const row of rows) people.set(row.id, { name: row.name, photo: row.photo });
      return people;
    },
  };
}
