import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { type Database, preparedStatement } from '../../db/client.ts';
import { createBatcher } from '../../infra/batcher.ts';
import { rowsOf, type SqlExecutor } from '../sync/change-log-repository.ts';
import { UNREAD_CAP } from './conversation-repository.ts';
import {
  findPerson as findPersonIn,
  type PageOptions,
  pageOf,
  type Person,
  rowsInOrder,
  SEND_BUMP,
  SEND_BATCH_BUMP,
  SEND_BATCH_SENDER_LATERAL,
  SEND_PRIOR_AND_GUARD,
  sendBatchInputPriorAndGuard,
  sendColumns,
  SEND_SENDER_JOINS,
  sendParameters,
  type StoredMessageRow,
} from './message-repository.ts';

/**
 * Member `p`'s unread messages in its group `c`: `unreadOf`, less those of senders `p` blocked —
 * they reach `p` without their text and tell nothing (decision 0056, session 17), so they are not
 * news to count either. The same index range, capped at `UNREAD_CAP`.
 */
const groupUnreadOf = sql.raw(`case when c.last_seq > p.last_read_seq then (select count(*)::int from (
    select 1 from messages m where m.conversation_id = p.conversation_id and m.seq > p.last_read_seq
      and m.sender_id <> p.user_id
      and not exists (select 1 from blocks bl where bl.blocker_id = p.user_id and bl.blocked_id = m.sender_id)
    limit ${UNREAD_CAP}) as u) else 0 end`);

/** A group of at most this many members (issue 35: the host and up to seven). */
export const GROUP_MAX_MEMBERS = 8;

/** A group member as the group's screen shows it, with its receipt cursors. */
export type GroupMemberView = {
  userId: string;
  name: string;
  photo: string | null;
  readSeq: number;
  deliveredSeq: number;
};

/** One member's view of a group conversation (docs/decisions/0056). */
export type GroupView = {
  conversationId: string;
  title: string;
  ownerId: string | null;
  status: 'active' | 'closed';
  lastSeq: number;
  isMuted: boolean;
  unreadCount: number;
  updatedAt: Date;
  lastMessage: { text: string; at: Date; senderId: string } | null;
  members: GroupMemberView[];
};

type GroupViewRow = {
  id: string;
  title: string;
  owner_id: string | null;
  status: string;
  last_seq: number;
  is_muted: boolean;
  unread_count: number;
  updated_at: Date | string;
  last_message_preview: string | null;
  last_message_at: Date | string | null;
  last_message_sender_id: string | null;
  members: GroupMemberView[];
};

/** The user's member rows of groups matching `where` (on `p`, `c`), newest activity first. */
function groupViewsQuery(userId: string, where: SQL) {
  return sql`
    select c.id, c.title, c.owner_id, c.status, c.last_seq, p.is_muted, ${groupUnreadOf} as unread_count,
      c.updated_at, c.last_message_at, c.last_message_sender_id,
      case when exists (select 1 from blocks bl where bl.blocker_id = ${userId}::uuid
          and bl.blocked_id = c.last_message_sender_id) then '' else c.last_message_preview end
        as last_message_preview,
      (select coalesce(json_agg(json_build_object('userId', q.user_id, 'name', coalesce(pr.name, u.name),
          'photo', pr.photos->>0, 'readSeq', q.last_read_seq,
          'deliveredSeq', greatest(q.delivered_seq, q.last_read_seq)) order by q.user_id), '[]'::json)
        from conversation_participants q join users u on u.id = q.user_id
        left join profiles pr on pr.user_id = q.user_id
        where q.conversation_id = c.id and q.left_at is null) as members
    from conversation_participants p join conversations c on c.id = p.conversation_id
    where p.user_id = ${userId}::uuid and c.kind = 'group' and ${where}
    order by c.updated_at desc, c.id desc
    limit 200`;
}

function toGroupView(row: GroupViewRow): GroupView {
  return {
    conversationId: row.id,
    title: row.title,
    ownerId: row.owner_id,
    status: row.status === 'closed' ? 'closed' : 'active',
    lastSeq: Number(row.last_seq),
    isMuted: row.is_muted,
    unreadCount: Math.min(UNREAD_CAP, Number(row.unread_count)),
    updatedAt: asDate(row.updated_at),
    lastMessage:
      row.last_message_at && row.last_message_sender_id
        ? {
            text: row.last_message_preview ?? '',
            at: asDate(row.last_message_at),
            senderId: row.last_message_sender_id,
          }
        : null,
    members: row.members,
  };
}

/** A group message with how many of the sender's fellow members have read it. */
export type GroupMessageRow = StoredMessageRow & { readBy: number };

export type GroupSendOutcome =
  /** `hiddenFrom`: the members who blocked the sender (they get the message without its text). */
  | { kind: 'created'; message: StoredMessageRow; sender: Person; members: string[]; hiddenFrom: string[] }
  | { kind: 'repeat'; message: StoredMessageRow; sender: Person }
  | { kind: 'revoked' }
  /** Not a group, or the sender is not (or no longer) one of its members. */
  | { kind: 'missing' }
  /** The group is closed. */
  | { kind: 'inactive' };

/** What a membership change did: the members to tell, and whether anything changed. */
export type GroupChange = {
  conversationId: string;
  /** The group's members after the change. */
  members: string[];
  /** False when the call changed nothing (already a member, already gone, already closed). */
  isChanged: boolean;
};

type GroupSendRow = {
  seq: number | null;
  prior_id: string | null;
  is_session_live: boolean;
  status: string | null;
  kind: string | null;
  group_members: string[] | null;
  sender_name: string | null;
  sender_photo: string | null;
  hidden_from: string[] | null;
};

/**
 * A group message in **one statement**, as a match's (docs/decisions/0041, 0056): the update of
 * the conversation row takes its lock and the next seq only for a live session, an active group
 * whose `group_members` (on that very row, so re-checked under the lock) holds the sender, and an
 * unused clientId; then the message row, with no receiver. One row and one HOT update whatever
 * the number of members. $1 message id, $2 conversation, $3 sender, $4 session, $5 text,
 * $6 preview, $7 clientId, $8 now.
 */
const GROUP_SEND_STATEMENT = `
  with ${SEND_PRIOR_AND_GUARD},
  bumped as (
    ${SEND_BUMP}
    where c.id = $2::uuid and c.kind = 'group' and c.status = 'active' and $3::uuid = any(c.group_members)
      and (select is_session_live from guard) and not exists (select 1 from prior)
    returning c.last_seq, c.group_members),
  inserted as (
    insert into messages (id, conversation_id, sender_id, receiver_id, text, client_id, seq, created_at)
    select $1::uuid, $2::uuid, $3::uuid, null, $5::text, $7::text, b.last_seq, $8::timestamptz
    from bumped b
    returning seq)
  select i.seq, (select id from prior) as prior_id, (select is_session_live from guard) as is_session_live,
    c.status, c.kind, coalesce((select b.group_members from bumped b), c.group_members) as group_members,
    coalesce(sp.name, su.name) as sender_name, sp.photos->>0 as sender_photo,
    (select array_agg(bl.blocker_id) from blocks bl, bumped bb
      where bl.blocked_id = $3::uuid and bl.blocker_id = any(bb.group_members)) as hidden_from
  from (select 1) as one
  left join inserted i on true
  left join conversations c on c.id = $2::uuid
  ${SEND_SENDER_JOINS}`;

/**
 * The group send statement for a batch (docs/decisions/0061): GROUP_SEND_STATEMENT for each send,
 * set-based over arrays ($1 ids, $2 conversations, $3 senders, $4 sessions, $5 texts, $6 previews,
 * $7 clientIds, $8 times), one row per send with its 1-based `ord`. No batch holds two sends of one
 * group or one sender, so each answers what it would alone. The arrays through sub-selects and the
 * per-send lookups fenced with `offset 0`, as the two-member batch's (the generic plan stays one
 * of index lookups).
 */
const GROUP_SEND_BATCH_STATEMENT = `
  with ${sendBatchInputPriorAndGuard(false)},
  bumped as (
    ${SEND_BATCH_BUMP}
    where c.id = i.conversation_id and c.kind = 'group' and c.status = 'active'
      and i.sender_id = any(c.group_members)
      and g.is_session_live and not exists (select 1 from prior p where p.ord = i.ord)
    returning i.ord, c.last_seq, c.group_members),
  inserted as (
    insert into messages (id, conversation_id, sender_id, receiver_id, text, client_id, seq, created_at)
    select i.id, i.conversation_id, i.sender_id, null, i.text, i.client_id, b.last_seq, i.sent_at
    from bumped b join input i on i.ord = b.ord
    returning id)
  select i.ord, b.last_seq as seq, p.id as prior_id, g.is_session_live,
    c.status, c.kind, coalesce(b.group_members, c.group_members) as group_members,
    s.sender_name, s.sender_photo,
    (select array_agg(bl.blocker_id) from blocks bl
      where b.last_seq is not null and bl.blocked_id = i.sender_id and bl.blocker_id = any(b.group_members)) as hidden_from
  from input i
  join guard g on g.ord = i.ord
  left join bumped b on b.ord = i.ord
  left join prior p on p.ord = i.ord
  left join lateral (select c.status, c.kind, c.group_members from conversations c
    where c.id = i.conversation_id offset 0) c on true
  ${SEND_BATCH_SENDER_LATERAL}
  order by i.ord`;

/** Group sends per batch statement at most. */
const GROUP_SEND_BATCH_MAX = 64;

/** What `insert` stores. */
type GroupSendInput = Parameters<typeof sendParameters>[1];
/** A group send as the batcher holds it. */
type GroupSendItem = GroupSendInput & { id: string };

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/** Runs `work` in the caller's transaction when given one, else in a transaction of its own. */
function within<T>(db: Database, executor: SqlExecutor | undefined, work: (tx: SqlExecutor) => Promise<T>) {
  return executor ? work(executor) : db.transaction((tx) => work(tx));
}

/** Locks a group's row and answers its members and status (undefined: no such group). */
async function lockGroup(
  tx: SqlExecutor,
  conversationId: string,
): Promise<{ members: string[]; status: string; lastSeq: number } | undefined> {
  const row = rowsOf<{ group_members: string[]; status: string; last_seq: number }>(
    await tx.execute(sql`select group_members, status, last_seq from conversations
      where id = ${conversationId}::uuid and kind = 'group' for update`),
  )[0];
  return row && { members: row.group_members, status: row.status, lastSeq: Number(row.last_seq) };
}

type MessageSqlRow = {
  id: string;
  conversation_id: string;
  sender_id: string;
  text: string;
  client_id: string | null;
  seq: number;
  created_at: Date | string;
  read_by: number;
  delivered_to: number;
  others: number;
};

export type GroupRepository = ReturnType<typeof createGroupRepository>;

/** Group conversations (issue 35, docs/decisions/0056): N members as participant rows with cursors. */
export function createGroupRepository(db: Database) {
  const sendStatement = preparedStatement<GroupSendRow>(db, 'chat_send_group_message', GROUP_SEND_STATEMENT);
  const sendBatchStatement = preparedStatement<GroupSendRow & { ord: number | string }>(
    db,
    'chat_send_group_messages',
    GROUP_SEND_BATCH_STATEMENT,
  );
  /** Group sends in self-forming batches (docs/decisions/0061): never two of one group or one sender. */
  const sends = createBatcher<GroupSendItem, GroupSendRow>({
    name: 'chat_group_sends',
    maxSize: GROUP_SEND_BATCH_MAX,
    keysOf: (item) => [item.conversationId, item.senderId],
    async run(items) {
      if (items.length === 1) {
        const [item] = items as [GroupSendItem];
        const [row] = await sendStatement(sendParameters(item.id, item));
        if (!row) throw new Error('group message statement returned no row');
        return [row];
      }
      return rowsInOrder(await sendBatchStatement(sendColumns(items)), items.length, 'group message');
    },
  });

  /** Messages of a group with how many current members other than the sender read / hold each. */
  const selectMessages = async (executor: SqlExecutor, where: SQL, tail: SQL = sql``): Promise<GroupMessageRow[]> => {
    const rows = rowsOf<MessageSqlRow>(
      await executor.execute(sql`
        select m.id, m.conversation_id, m.sender_id, m.text, m.client_id, m.seq, m.created_at,
          (select count(*)::int from conversation_participants q where q.conversation_id = m.conversation_id
            and q.user_id <> m.sender_id and q.left_at is null and q.last_read_seq >= m.seq) as read_by,
          (select count(*)::int from conversation_participants q where q.conversation_id = m.conversation_id
            and q.user_id <> m.sender_id and q.left_at is null
            and greatest(q.delivered_seq, q.last_read_seq) >= m.seq) as delivered_to,
          (select count(*)::int from conversation_participants q where q.conversation_id = m.conversation_id
            and q.user_id <> m.sender_id and q.left_at is null) as others
        from messages m where ${where} ${tail}`),
    );
    return rows.map((row) => {
      const others = Number(row.others);
      const readBy = Number(row.read_by);
      return {
        id: row.id,
        conversationId: row.conversation_id,
        senderId: row.sender_id,
        receiverId: null,
        text: row.text,
        clientId: row.client_id,
        seq: Number(row.seq),
        createdAt: asDate(row.created_at),
        readBy,
        isRead: others > 0 && readBy >= others,
        isDelivered: others > 0 && Number(row.delivered_to) >= others,
      };
    });
  };

  const findPerson = (userId: string): Promise<Person> => findPersonIn(db, userId);

  return {
    /** A new group with its owner as the first member (cursors at 0: there is nothing yet). */
    async create(input: { ownerId: string; title: string; now: Date }, executor?: SqlExecutor): Promise<string> {
      const id = randomUUID();
      await within(db, executor, async (tx) => {
        await tx.execute(sql`insert into conversations (id, kind, title, owner_id, group_members, swipe_type,
            created_at, updated_at)
          values (${id}::uuid, 'group', ${input.title}, ${input.ownerId}::uuid,
            array[${input.ownerId}::uuid], 'like', ${input.now}, ${input.now})`);
        await tx.execute(sql`insert into conversation_participants (conversation_id, user_id, updated_at)
          values (${id}::uuid, ${input.ownerId}::uuid, ${input.now})`);
      });
      return id;
    },

    /**
     * Adds a member (or brings back one who left) with every cursor at the group's last seq: no
     * unread history, nothing owed. Refused (undefined) for an unknown or closed group or a full one.
     */
    async addMember(
      conversationId: string,
      userId: string,
      now: Date,
      executor?: SqlExecutor,
    ): Promise<GroupChange | 'full' | 'closed' | undefined> {
      return within(db, executor, async (tx) => {
        const group = await lockGroup(tx, conversationId);
        if (!group) return undefined;
        if (group.members.includes(userId)) return { conversationId, members: group.members, isChanged: false };
        if (group.status !== 'active') return 'closed';
        if (group.members.length >= GROUP_MAX_MEMBERS) return 'full';
        const seq = group.lastSeq;
        await tx.execute(sql`insert into conversation_participants (conversation_id, user_id, last_read_seq,
            delivered_seq, notified_seq, updated_at)
          values (${conversationId}::uuid, ${userId}::uuid, ${seq}, ${seq}, ${seq}, ${now})
          on conflict (conversation_id, user_id) do update set left_at = null, left_reason = null,
            last_read_seq = ${seq}, delivered_seq = ${seq}, notified_seq = ${seq}, is_hidden = false,
            changed_xid = pg_current_xact_id(), receipt_xid = pg_current_xact_id(), updated_at = ${now}`);
        const members = [...group.members, userId];
        await tx.execute(sql`update conversations set group_members = group_members || ${userId}::uuid,
            updated_at = ${now}, changed_xid = pg_current_xact_id()
          where id = ${conversationId}::uuid`);
        return { conversationId, members, isChanged: true };
      });
    },

    /** Takes a member out (its row stays, marked left or removed); undefined for an unknown group. */
    async removeMember(
      conversationId: string,
      userId: string,
      reason: 'left' | 'removed',
      now: Date,
      executor?: SqlExecutor,
    ): Promise<GroupChange | undefined> {
      return within(db, executor, async (tx) => {
        const group = await lockGroup(tx, conversationId);
        if (!group) return undefined;
        if (!group.members.includes(userId)) return { conversationId, members: group.members, isChanged: false };
        await tx.execute(sql`update conversation_participants set left_at = ${now}, left_reason = ${reason},
            changed_xid = pg_current_xact_id(), updated_at = ${now}
          where conversation_id = ${conversationId}::uuid and user_id = ${userId}::uuid`);
        await tx.execute(sql`update conversations set group_members = array_remove(group_members, ${userId}::uuid),
            updated_at = ${now}, changed_xid = pg_current_xact_id()
          where id = ${conversationId}::uuid`);
        return { conversationId, members: group.members.filter((id) => id !== userId), isChanged: true };
      });
    },

    /** Closes a group: read-only afterwards. */
    async close(conversationId: string, now: Date, executor?: SqlExecutor): Promise<GroupChange | undefined> {
      return within(db, executor, async (tx) => {
        const group = await lockGroup(tx, conversationId);
        if (!group) return undefined;
        if (group.status !== 'active') return { conversationId, members: group.members, isChanged: false };
        await tx.execute(sql`update conversations set status = 'closed', closed_at = ${now}, updated_at = ${now},
            changed_xid = pg_current_xact_id()
          where id = ${conversationId}::uuid`);
        return { conversationId, members: group.members, isChanged: true };
      });
    },

    /** The group's current members and whether it takes messages (the membership cache's source). */
    async findMembership(conversationId: string): Promise<{ members: string[]; isLive: boolean } | undefined> {
      const row = rowsOf<{ group_members: string[]; status: string }>(
        await db.execute(sql`select group_members, status from conversations
          where id = ${conversationId}::uuid and kind = 'group'`),
      )[0];
      return row && { members: row.group_members, isLive: row.status === 'active' };
    },

    /** See GROUP_SEND_STATEMENT. A repeated clientId answers the original message. */
    async insert(input: GroupSendInput): Promise<GroupSendOutcome> {
      const { conversationId, senderId, text, clientId, now } = input;
      const id = randomUUID();
      const cid = clientId ?? null;
      const original = async () =>
        cid ? (await selectMessages(db, sql`m.sender_id = ${senderId}::uuid and m.client_id = ${cid}`))[0] : undefined;
      let row: GroupSendRow;
      try {
        row = await sends.submit({ ...input, id });
      } catch (error) {
        const code = (error as { code?: string })?.code;
        const found = code === '23505' ? await original() : undefined;
        if (!found) throw error;
        return { kind: 'repeat', message: found, sender: await findPerson(senderId) };
      }
      const sender = { name: row.sender_name ?? '', photo: row.sender_photo };
      if (row.seq !== null) {
        return {
          kind: 'created',
          message: {
            id,
            conversationId,
            senderId,
            receiverId: null,
            text,
            clientId: cid,
            seq: Number(row.seq),
            createdAt: now,
            isRead: false,
            isDelivered: false,
          },
          sender,
          members: row.group_members ?? [],
          hiddenFrom: row.hidden_from ?? [],
        };
      }
      if (row.prior_id) {
        const found = await original();
        if (found) return { kind: 'repeat', message: found, sender };
      }
      if (!row.is_session_live) return { kind: 'revoked' };
      if (row.kind !== 'group' || !row.group_members?.includes(senderId)) return { kind: 'missing' };
      return { kind: 'inactive' };
    },

    /** Of `senderIds`, those the viewer blocked: their messages reach the viewer without text. */
    async blockedSenders(viewerId: string, senderIds: readonly string[]): Promise<Set<string>> {
      if (senderIds.length === 0) return new Set();
      const rows = rowsOf<{ blocked_id: string }>(
        await db.execute(sql`select blocked_id from blocks where blocker_id = ${viewerId}::uuid
          and blocked_id in (${sql.join(
            [...new Set(senderIds)].map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`),
      );
      return new Set(rows.map((row) => row.blocked_id));
    },

    /** A page of a group's messages, newest first (as the match's pages: `before` a seq, else `offset`). */
    async list(conversationId: string, options: PageOptions): Promise<{ rows: GroupMessageRow[]; hasMore: boolean }> {
      return pageOf((where, tail) => selectMessages(db, where, tail), conversationId, options);
    },

    /**
     * The user's unread group messages for the navigation's «Mensajes» badge (decision 0056,
     * amended in session 17): the sum of `unreadOf` over the groups they are in and have not muted,
     * each group read by its key only where the cursor is behind (as `unreadTotalText`).
     */
    async unreadTotal(userId: string): Promise<number> {
      const rows = rowsOf<{ total: number }>(
        await db.execute(sql`select coalesce(sum(t.n), 0)::int as total
          from conversation_participants p
          cross join lateral (select ${groupUnreadOf} as n from conversations c
            where c.id = p.conversation_id and c.kind = 'group' and c.last_seq > p.last_read_seq offset 0) t
          where p.user_id = ${userId}::uuid and p.left_at is null and not p.is_muted`),
      );
      return Number(rows[0]?.total ?? 0);
    },

    /** The groups the user is a member of (or one of them), newest activity first. */
    async views(userId: string, conversationId?: string): Promise<GroupView[]> {
      const one = conversationId ? sql`and c.id = ${conversationId}::uuid` : sql``;
      return rowsOf<GroupViewRow>(await db.execute(groupViewsQuery(userId, sql`p.left_at is null ${one}`))).map(
        toGroupView,
      );
    },

    /**
     * What the sync (decision 0041) carries of the user's groups: those changed in transactions at
     * or after `horizon` (a message, a member in or out, a receipt of another member, the user's own
     * flags) as they are now, and those the user left or was removed from since then.
     */
    async findChangedViews(
      executor: SqlExecutor,
      userId: string,
      horizon: string,
    ): Promise<{ groups: GroupView[]; removedIds: string[] }> {
      const isAll = horizon === '0';
      const changed = isAll
        ? sql`true`
        : sql`(c.changed_xid >= ${horizon}::xid8 or p.changed_xid >= ${horizon}::xid8
            or exists (select 1 from conversation_participants x where x.conversation_id = c.id
              and x.user_id <> p.user_id and x.receipt_xid >= ${horizon}::xid8))`;
      const groups = rowsOf<GroupViewRow>(
        await executor.execute(groupViewsQuery(userId, sql`p.left_at is null and ${changed}`)),
      ).map(toGroupView);
      const removed = rowsOf<{ id: string }>(
        await executor.execute(sql`select p.conversation_id as id from conversation_participants p
          join conversations c on c.id = p.conversation_id
          where p.user_id = ${userId}::uuid and c.kind = 'group' and p.left_at is not null
            ${isAll ? sql`` : sql`and p.changed_xid >= ${horizon}::xid8`}`),
      );
      return { groups, removedIds: removed.map((row) => row.id) };
    },

    /** Display names and photos of the given users. */
    findPerson,
  };
}
