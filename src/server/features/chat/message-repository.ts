import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { type Database, preparedStatement } from '../../db/client.ts';
import type { MessageRow } from '../../db/schema/index.ts';
import { createBatcher } from '../../infra/batcher.ts';
import { rowsOf, type SqlExecutor } from '../sync/change-log-repository.ts';
import { ensureConversationParticipants, UNREAD_CAP, unreadTotal, unreadTotalText } from './conversation-repository.ts';

/** A message as the chat reads it: its row, and its receipt state derived from the receiver's cursors. */
export type StoredMessageRow = Omit<MessageRow, 'xid'> & { isRead: boolean; isDelivered: boolean };

export type Person = { name: string; photo: string | null };

/** What storing a message came to. */
export type InsertOutcome =
  | {
      kind: 'created';
      message: StoredMessageRow;
      /** The sender's display name and first photo, as of this send. */
      sender: Person;
      /** The recipient's unread messages in this conversation, and in all (capped: docs/decisions/0041). */
      receiverUnread: number;
      receiverTotalUnread: number;
      isReceiverMuted: boolean;
      /** The conversation's two users, as the statement read them (fills the membership cache). */
      pair: { userA: string; userB: string };
    }
  /** The sender's clientId was already used: the original message, nothing new stored. */
  | { kind: 'repeat'; message: StoredMessageRow; sender: Person }
  /** The conversation is no longer active (unmatched or blocked). */
  | { kind: 'inactive' }
  /** The sender's session was revoked or ended (checked by the statement itself). */
  | { kind: 'revoked' }
  /** The client named a receiver who is not the other user of the conversation. */
  | { kind: 'wrong-receiver' }
  | { kind: 'missing' };

export type ReceiptOutcome = {
  /** In conversation order (seq). */
  messageIds: string[];
  /** The reader's unread messages left in this conversation, and in all (read receipts only). */
  conversationUnread: number;
  totalUnread: number;
  /** The reader's read cursor after the mark (a group's members hear it: «Leído por N»). */
  readSeq: number;
};

/** The conversation's last-message preview (the list shows one line). */
const PREVIEW_LENGTH = 200;

type SendRow = {
  seq: number | string | null;
  receiver_id: string | null;
  prior_id: string | null;
  is_session_live: boolean;
  status: string | null;
  user_a: string | null;
  user_b: string | null;
  sender_name: string | null;
  sender_photo: string | null;
  unread_before: number | null;
  is_muted: boolean | null;
  total_elsewhere: number | null;
};

/**
 * The send statement's text, one for every message (a named statement: docs/decisions/0037).
 * $1 message id, $2 conversation, $3 sender, $4 session, $5 text, $6 preview, $7 clientId,
 * $8 now, $9 the receiver the client named (or null).
 *
 * It writes **one row and one HOT update** (docs/decisions/0041): the conversation's seq, preview
 * and `changed_xid` (none indexed), and the message. The rest only reads: the sender's name, the
 * receiver's member row and its unread counts, derived from its read cursor. The main query's
 * snapshot does not hold the new message, so the receiver's unread here is one more than it reads.
 */
/**
 * What every send statement (a match's, a group's: docs/decisions/0056) starts with, over the same
 * parameters ($1 message id, $3 sender, $4 session, $6 preview, $7 clientId, $8 now): the sender's
 * earlier message of that clientId (`prior`), whether its session is live (`guard`), and the
 * conversation update's `set` (next seq, preview, `changed_xid`).
 */
export const SEND_PRIOR_AND_GUARD = `prior as (
    select m.id from messages m
    where $7::text is not null and m.sender_id = $3::uuid and m.client_id = $7::text),
  guard as (
    select exists (select 1 from sessions s where s.id = $4::uuid and s.user_id = $3::uuid
      and s.revoked_at is null and s.expires_at > $8::timestamptz) as is_session_live)`;
export const SEND_BUMP = `update conversations c set last_seq = c.last_seq + 1, last_message_id = $1::uuid,
      last_message_preview = $6::text, last_message_at = $8::timestamptz,
      last_message_sender_id = $3::uuid, updated_at = $8::timestamptz, changed_xid = pg_current_xact_id()`;
/** The sender's name and photo (`su`, `sp`) for a send statement's answer. */
export const SEND_SENDER_JOINS = `left join users su on su.id = $3::uuid
  left join profiles sp on sp.user_id = su.id`;

const SEND_STATEMENT = `
  with ${SEND_PRIOR_AND_GUARD},
  bumped as (
    ${SEND_BUMP}
    where c.id = $2::uuid and c.status = 'active'
      and (c.user_a = $3::uuid or c.user_b = $3::uuid)
      and ($9::uuid is null or $9::uuid = case when c.user_a = $3::uuid then c.user_b else c.user_a end)
      and (select is_session_live from guard) and not exists (select 1 from prior)
      and not exists (select 1 from blocks b
        where (b.blocker_id = c.user_a and b.blocked_id = c.user_b)
           or (b.blocker_id = c.user_b and b.blocked_id = c.user_a))
    returning c.last_seq,
      case when c.user_a = $3::uuid then c.user_b else c.user_a end as receiver_id),
  inserted as (
    insert into messages (id, conversation_id, sender_id, receiver_id, text, client_id, seq, created_at)
    select $1::uuid, $2::uuid, $3::uuid, b.receiver_id, $5::text, $7::text, b.last_seq, $8::timestamptz
    from bumped b
    returning seq, receiver_id)
  select i.seq, i.receiver_id,
    (select id from prior) as prior_id,
    (select is_session_live from guard) as is_session_live,
    c.status, c.user_a, c.user_b,
    coalesce(sp.name, su.name) as sender_name, sp.photos->>0 as sender_photo,
    case when i.seq is null then null else (select count(*)::int from (select 1 from messages m
      where m.conversation_id = $2::uuid and m.seq > coalesce(r.last_read_seq, 0) and m.sender_id <> i.receiver_id
      limit ${UNREAD_CAP - 1}) as u) end as unread_before,
    r.is_muted,
    case when i.seq is null then null else ${unreadTotalText('i.receiver_id', '$2::uuid')} end as total_elsewhere
  from (select 1) as one
  left join inserted i on true
  left join conversations c on c.id = $2::uuid
  ${SEND_SENDER_JOINS}
  left join conversation_participants r on r.conversation_id = $2::uuid and r.user_id = i.receiver_id`;

/** Sends per batch statement at most (a batch forms from what queued meanwhile). */
const SEND_BATCH_MAX = 64;

/** A send as the batcher holds it: `keys`, what no other send of its batch may share. */
type SendItem = {
  id: string;
  conversationId: string;
  senderId: string;
  sessionId: string;
  text: string;
  clientId: string | undefined;
  receiverId: string | null;
  now: Date;
  keys: readonly string[];
};

/**
 * What every batch send statement (docs/decisions/0061) starts with: `input`, the arrays $1 ids,
 * $2 conversations, $3 senders, $4 sessions, $5 texts, $6 previews, $7 clientIds, $8 times (and $9
 * `named`, the receivers the clients named, when `withNamed`) read through sub-selects: a plan made
 * for the values would see each batch's size, always look cheaper than the generic one, and
 * PostgreSQL would plan every batch again (~2 ms); this way every plan assumes one size and the
 * generic plan is kept after five. Then each send's `prior` (its clientId's
 * earlier message, an index lookup fenced with `offset 0`) and `guard` (its session live).
 */
export const sendBatchInputPriorAndGuard = (withNamed: boolean) => `input as (
    select * from unnest((select $1::uuid[]), (select $2::uuid[]), (select $3::uuid[]), (select $4::uuid[]),
      (select $5::text[]), (select $6::text[]), (select $7::text[]), (select $8::timestamptz[])${withNamed ? ', (select $9::uuid[])' : ''})
      with ordinality as i(id, conversation_id, sender_id, session_id, text, preview, client_id, sent_at${withNamed ? ', named' : ''}, ord)),
  prior as (
    select i.ord, m.id from input i
    cross join lateral (select m.id from messages m
      where i.client_id is not null and m.sender_id = i.sender_id and m.client_id = i.client_id offset 0) m),
  guard as (
    select i.ord, exists (select 1 from sessions s where s.id = i.session_id and s.user_id = i.sender_id
      and s.revoked_at is null and s.expires_at > i.sent_at) as is_session_live
    from input i)`;
/** A batch's conversation update (SEND_BUMP per send), joined with `input` and `guard`; the caller adds the `where`. */
export const SEND_BATCH_BUMP = `update conversations c set last_seq = c.last_seq + 1, last_message_id = i.id,
      last_message_preview = i.preview, last_message_at = i.sent_at,
      last_message_sender_id = i.sender_id, updated_at = i.sent_at, changed_xid = pg_current_xact_id()
    from input i join guard g on g.ord = i.ord`;
/** Each send's sender name and photo (`s`), looked up by key. */
export const SEND_BATCH_SENDER_LATERAL = `left join lateral (select coalesce(sp.name, su.name) as sender_name,
    sp.photos->>0 as sender_photo
    from users su left join profiles sp on sp.user_id = su.id where su.id = i.sender_id offset 0) s on true`;

/**
 * The send statement for a batch of two-member sends (docs/decisions/0061): `SEND_STATEMENT` for
 * each, set-based, over arrays ($1 ids, $2 conversations, $3 senders, $4 sessions, $5 texts,
 * $6 previews, $7 clientIds, $8 times, $9 the receivers the clients named), one row per send with
 * its 1-based `ord`. The batcher never puts two sends that share a conversation or a user in one
 * batch, so each send reads and writes only rows no other send of the batch touches: the batch
 * answers what the same sends one after another would. (Why sub-selects and `offset 0`: see
 * `sendBatchInputPriorAndGuard` and the receiver's lookups below.)
 */
const SEND_BATCH_STATEMENT = `
  with ${sendBatchInputPriorAndGuard(true)},
  bumped as (
    ${SEND_BATCH_BUMP}
    where c.id = i.conversation_id and c.status = 'active'
      and (c.user_a = i.sender_id or c.user_b = i.sender_id)
      and (i.named is null or i.named = case when c.user_a = i.sender_id then c.user_b else c.user_a end)
      and g.is_session_live and not exists (select 1 from prior p where p.ord = i.ord)
      and not exists (select 1 from blocks b
        where (b.blocker_id = c.user_a and b.blocked_id = c.user_b)
           or (b.blocker_id = c.user_b and b.blocked_id = c.user_a))
    returning i.ord, c.last_seq,
      case when c.user_a = i.sender_id then c.user_b else c.user_a end as receiver_id),
  inserted as (
    insert into messages (id, conversation_id, sender_id, receiver_id, text, client_id, seq, created_at)
    select i.id, i.conversation_id, i.sender_id, b.receiver_id, i.text, i.client_id, b.last_seq, i.sent_at
    from bumped b join input i on i.ord = b.ord
    returning id)
  select i.ord, b.last_seq as seq, b.receiver_id,
    p.id as prior_id, g.is_session_live,
    c.status, c.user_a, c.user_b,
    s.sender_name, s.sender_photo,
    case when b.last_seq is null then null else (select count(*)::int from (select 1 from messages m
      where m.conversation_id = i.conversation_id and m.seq > coalesce(r.last_read_seq, 0)
        and m.sender_id <> b.receiver_id
      limit ${UNREAD_CAP - 1}) as u) end as unread_before,
    r.is_muted,
    case when b.last_seq is null then null
      else ${unreadTotalText('b.receiver_id', 'i.conversation_id')} end as total_elsewhere
  from input i
  join guard g on g.ord = i.ord
  left join bumped b on b.ord = i.ord
  left join prior p on p.ord = i.ord
  -- Each send's rows by key (offset 0 keeps them lookups): a plan for a batch of unknown size
  -- would otherwise hash whole tables.
  left join lateral (select c.status, c.user_a, c.user_b from conversations c
    where c.id = i.conversation_id offset 0) c on true
  ${SEND_BATCH_SENDER_LATERAL}
  left join lateral (select r.last_read_seq, r.is_muted from conversation_participants r
    where r.conversation_id = i.conversation_id and r.user_id = b.receiver_id offset 0) r on true
  order by i.ord`;

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string })?.code === '23505' || (error as { cause?: { code?: string } })?.cause?.code === '23505';

type MessageSqlRow = {
  id: string;
  conversation_id: string;
  sender_id: string;
  receiver_id: string;
  text: string;
  client_id: string | null;
  seq: number;
  created_at: Date | string;
  is_read: boolean;
  is_delivered: boolean;
};

/** Messages `m` with their receipt state from the receiver's member row `r` (joined by the caller). */
const MESSAGE_COLUMNS = sql`m.id, m.conversation_id, m.sender_id, m.receiver_id, m.text, m.client_id, m.seq,
  m.created_at, coalesce(r.last_read_seq >= m.seq, false) as is_read,
  coalesce(greatest(r.delivered_seq, r.last_read_seq) >= m.seq, false) as is_delivered`;
const RECEIVER_JOIN = sql`left join conversation_participants r
  on r.conversation_id = m.conversation_id and r.user_id = m.receiver_id`;

const toRow = (row: MessageSqlRow): StoredMessageRow => ({
  id: row.id,
  conversationId: row.conversation_id,
  senderId: row.sender_id,
  receiverId: row.receiver_id,
  text: row.text,
  clientId: row.client_id,
  seq: Number(row.seq),
  createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
  isRead: row.is_read === true,
  isDelivered: row.is_delivered === true,
});

async function selectMessages(executor: SqlExecutor, where: SQL, tail: SQL = sql``): Promise<StoredMessageRow[]> {
  const result = await executor.execute(
    sql`select ${MESSAGE_COLUMNS} from messages m ${RECEIVER_JOIN} where ${where} ${tail}`,
  );
  return rowsOf<MessageSqlRow>(result).map(toRow);
}

/** A user's display name (profile, else account) and first photo. */
export async function findPerson(executor: SqlExecutor, userId: string): Promise<Person> {
  const row = rowsOf<{ name: string | null; photo: string | null }>(
    await executor.execute(sql`select coalesce(p.name, u.name) as name, p.photos->>0 as photo
      from users u left join profiles p on p.user_id = u.id where u.id = ${userId}::uuid`),
  )[0];
  return { name: row?.name ?? '', photo: row?.photo ?? null };
}

/**
 * Moves one member's receipt cursor (`last_read_seq` with `delivered_seq`, or `delivered_seq`) up
 * to `target` (a SQL seq; null moves nothing) and answers the messages to the member that the move
 * covered, in seq order. The member row is locked first, so two marks at once answer each message once.
 */
async function moveCursor(
  executor: SqlExecutor,
  input: { conversationId: string; userId: string; target: SQL; isRead: boolean; now: Date },
): Promise<{ ids: string[]; cursor: number }> {
  const { conversationId, userId, target, isRead, now } = input;
  const before = isRead ? sql`q.last_read_seq` : sql`greatest(q.delivered_seq, q.last_read_seq)`;
  const sets = isRead
    ? sql`last_read_seq = l.target, delivered_seq = greatest(p.delivered_seq, l.target)`
    : sql`delivered_seq = l.target`;
  const rows = rowsOf<{ before: number; after: number }>(
    await executor.execute(sql`
      update conversation_participants p set ${sets}, changed_xid = pg_current_xact_id(),
        receipt_xid = pg_current_xact_id(), updated_at = ${now}
      from (select q.conversation_id, q.user_id, ${before} as before, (${target})::int as target
            from conversation_participants q
            where q.conversation_id = ${conversationId}::uuid and q.user_id = ${userId}::uuid
              and q.left_at is null for update of q) l
      where p.conversation_id = l.conversation_id and p.user_id = l.user_id and l.target > l.before
      returning l.before, l.target as after`),
  )[0];
  if (!rows) {
    const current = rowsOf<{ seq: number }>(
      await executor.execute(sql`select last_read_seq as seq from conversation_participants
        where conversation_id = ${conversationId}::uuid and user_id = ${userId}::uuid`),
    )[0];
    return { ids: [], cursor: Number(current?.seq ?? 0) };
  }
  const ids = rowsOf<{ id: string }>(
    await executor.execute(sql`select m.id from messages m
      where m.conversation_id = ${conversationId}::uuid and ${toMember(userId)}
        and m.seq > ${rows.before} and m.seq <= ${rows.after} order by m.seq`),
  ).map((row) => row.id);
  return { ids, cursor: Number(rows.after) };
}

/** Message `m` is to member `userId`: its receiver in a match, anyone but its sender in a group (no receiver). */
const toMember = (userId: string) => sql`coalesce(m.receiver_id = ${userId}::uuid, m.sender_id <> ${userId}::uuid)`;

/** The seq a mark reaches: the given ids' newest to the member, else `upTo`'s, else the conversation's last. */
function markTarget(conversationId: string, userId: string, ids: readonly string[] | undefined, upToId?: string): SQL {
  if (upToId) {
    return sql`(select seq from messages where id = ${upToId}::uuid and conversation_id = ${conversationId}::uuid)`;
  }
  if (ids) {
    return sql`(select max(m.seq) from messages m where m.conversation_id = ${conversationId}::uuid
      and ${toMember(userId)} and m.id = any(${`{${ids.join(',')}}`}::uuid[]))`;
  }
  return sql`(select last_seq from conversations where id = ${conversationId}::uuid)`;
}

/** $1–$8 of a send statement (SEND_PRIOR_AND_GUARD's numbering). */
export function sendParameters(
  id: string,
  input: { conversationId: string; senderId: string; sessionId: string; text: string; clientId?: string; now: Date },
): unknown[] {
  const { conversationId, senderId, sessionId, text, now } = input;
  return [id, conversationId, senderId, sessionId, text, text.slice(0, PREVIEW_LENGTH), input.clientId ?? null, now];
}

/** A batch send statement's rows (each with its 1-based `ord`) in the order of its `count` sends. */
export function rowsInOrder<Row extends { ord: number | string }>(
  rows: readonly Row[],
  count: number,
  what: string,
): Row[] {
  const byOrd = new Map(rows.map((row) => [Number(row.ord), row]));
  return Array.from({ length: count }, (_, index) => {
    const row = byOrd.get(index + 1);
    if (!row) throw new Error(`${what} batch statement returned no row for a send`);
    return row;
  });
}

/** $1–$8 of a batch send statement: each send's `sendParameters`, column by column (one array each). */
export function sendColumns(items: readonly (Parameters<typeof sendParameters>[1] & { id: string })[]): unknown[][] {
  const rows = items.map((one) => sendParameters(one.id, one));
  return rows[0]?.map((_, column) => rows.map((row) => row[column])) ?? [];
}

export type PageOptions = { before: number | undefined; offset: number; limit: number };

/**
 * A page of a conversation's messages through `select` (a match's or a group's columns), newest
 * first: `before` (a seq) is the keyset, otherwise `offset`. One more row than asked tells whether
 * older ones exist.
 */
export async function pageOf<T>(
  select: (where: SQL, tail: SQL) => Promise<T[]>,
  conversationId: string,
  options: PageOptions,
): Promise<{ rows: T[]; hasMore: boolean }> {
  const before = options.before === undefined ? sql`` : sql`and m.seq < ${options.before}`;
  const rows = await select(
    sql`m.conversation_id = ${conversationId}::uuid ${before}`,
    sql`order by m.seq desc limit ${options.limit + 1} offset ${options.before === undefined ? options.offset : 0}`,
  );
  return { rows: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
}

export type MessageRepository = ReturnType<typeof createMessageRepository>;

export function createMessageRepository(db: Database) {
  const sendStatement = preparedStatement<SendRow>(db, 'chat_send_message', SEND_STATEMENT);
  const sendBatchStatement = preparedStatement<SendRow & { ord: number | string }>(
    db,
    'chat_send_messages',
    SEND_BATCH_STATEMENT,
  );
  /**
   * Sends in self-forming batches (docs/decisions/0061): one goes at once, alone, through the
   * single statement when nothing is in flight; those arriving meanwhile go together in the
   * next, one statement and one commit, never two of one conversation or one user.
   */
  const sends = createBatcher<SendItem, SendRow>({
    name: 'chat_sends',
    maxSize: SEND_BATCH_MAX,
    keysOf: (item) => item.keys,
    async run(items) {
      if (items.length === 1) {
        const [item] = items as [SendItem];
        const [row] = await sendStatement([...sendParameters(item.id, item), item.receiverId]);
        if (!row) throw new Error('message statement returned no row');
        return [row];
      }
      const rows = await sendBatchStatement([...sendColumns(items), items.map((one) => one.receiverId)]);
      return rowsInOrder(rows, items.length, 'message');
    },
  });
  const findByClientId = async (senderId: string, clientId: string) =>
    (await selectMessages(db, sql`m.sender_id = ${senderId}::uuid and m.client_id = ${clientId}::text`))[0];

  return {
    /**
     * Stores a message in **one statement** (docs/decisions/0020, 0041): an `UPDATE` of the
     * conversation row takes its lock and the next seq only while the sender's session row is
     * live, the sender is one of the two, the conversation is active and neither user blocks the
     * other, and the sender's clientId is unused; then the message row. Nothing else is written:
     * counts, receipts, the sync and the notification owed are all derived from cursors. A block,
     * unmatch or deletion committed on any node changes the conversation row, so the lock's
     * re-check refuses the very next send. A clientId the sender already used answers the original
     * message (QUALITY 13); two sends of one clientId at once: the second hits the unique key, the
     * whole statement undoes itself and the original is answered.
     */
    async insert(input: {
      conversationId: string;
      senderId: string;
      sessionId: string;
      text: string;
      clientId: string | undefined;
      /** The recipient the client named: the statement refuses the send when it is not the other user. */
      receiverId?: string;
      /** The other user as this node's membership cache knows it, if it does (keeps batches apart). */
      knownReceiverId?: string;
      now: Date;
    }): Promise<InsertOutcome> {
      const { conversationId, senderId, text, clientId, now } = input;
      const id = randomUUID();
      const cid = clientId ?? null;
      const receiver = (input.receiverId ?? input.knownReceiverId)?.toLowerCase();
      const keys = [conversationId, senderId, ...(receiver ? [receiver] : [])];
      let row: SendRow | undefined;
      try {
        row = await sends.submit({ ...input, id, receiverId: input.receiverId ?? null, keys });
      } catch (error) {
        // The same clientId stored by a concurrent send: this statement undid itself entirely.
        if (!cid || !isUniqueViolation(error)) throw error;
        const original = await findByClientId(senderId, cid);
        if (!original) throw error;
        return { kind: 'repeat', message: original, sender: await findPerson(db, senderId) };
      }
      const sender = { name: row.sender_name ?? '', photo: row.sender_photo };
      if (row.seq !== null) {
        const receiverUnread = Math.min(UNREAD_CAP, Number(row.unread_before ?? 0) + 1);
        return {
          kind: 'created',
          message: {
            id,
            conversationId,
            senderId,
            receiverId: row.receiver_id as string,
            text,
            clientId: cid,
            seq: Number(row.seq),
            createdAt: now,
            isRead: false,
            isDelivered: false,
          },
          sender,
          receiverUnread,
          receiverTotalUnread: receiverUnread + Number(row.total_elsewhere ?? 0),
          isReceiverMuted: row.is_muted === true,
          pair: { userA: row.user_a as string, userB: row.user_b as string },
        };
      }
      if (row.prior_id && cid) {
        const original = await findByClientId(senderId, cid);
        if (original) return { kind: 'repeat', message: original, sender };
      }
      if (!row.is_session_live) return { kind: 'revoked' };
      if (!row.status || (row.user_a !== senderId && row.user_b !== senderId)) return { kind: 'missing' };
      const other = row.user_a === senderId ? row.user_b : row.user_a;
      if (input.receiverId !== undefined && input.receiverId.toLowerCase() !== other) return { kind: 'wrong-receiver' };
      return { kind: 'inactive' };
    },

    /**
     * A page of a conversation, newest first: `before` (a seq) is the keyset, otherwise `offset`.
     * One more row than asked tells whether older ones exist.
     */
    async list(
      conversationId: string,
      options: { before: number | undefined; offset: number; limit: number },
    ): Promise<{ rows: StoredMessageRow[]; hasMore: boolean }> {
      return pageOf((where, tail) => selectMessages(db, where, tail), conversationId, options);
    },

    /**
     * The sync's messages (docs/decisions/0041): in each conversation, those above the newest one
     * written by a transaction below `horizon` (every message the client has not seen is above it),
     * newest `limit` per conversation, in the answer's snapshot (`executor`).
     */
    async findSince(
      executor: SqlExecutor,
      conversationIds: readonly string[],
      horizon: string,
      limit: number,
    ): Promise<StoredMessageRow[]> {
      if (conversationIds.length === 0) return [];
      const floor =
        horizon === '0'
          ? sql`0`
          : sql`coalesce((select f.seq from messages f where f.conversation_id = k.id and f.xid < ${horizon}::xid8
              order by f.seq desc limit 1), 0)`;
      const result = await executor.execute(sql`
        select ${MESSAGE_COLUMNS}
        from unnest(${`{${conversationIds.join(',')}}`}::uuid[]) as k(id)
        cross join lateral (select * from messages x where x.conversation_id = k.id and x.seq > ${floor}
          order by x.seq desc limit ${limit}) m
        ${RECEIVER_JOIN}`);
      return rowsOf<MessageSqlRow>(result).map(toRow);
    },

    /**
     * The recipient's client has them: its `delivered_seq` moves up to the newest of `ids` (all
     * when undefined); answers the messages that became delivered.
     */
    async markDelivered(
      conversationId: string,
      receiverId: string,
      ids: readonly string[] | undefined,
      now: Date,
    ): Promise<string[]> {
      if (ids && ids.length === 0) return [];
      return db.transaction(async (tx) => {
        await ensureConversationParticipants(tx, conversationId, now);
        const target = markTarget(conversationId, receiverId, ids);
        return (await moveCursor(tx, { conversationId, userId: receiverId, target, isRead: false, now })).ids;
      });
    },

    /**
     * The reader saw them (docs/decisions/0040, 0041): its `last_read_seq` moves up to the whole
     * conversation when `ids` is undefined, up to `upToId` when given, or up to the newest of
     * `ids` (the ones between are read too: the screen shows a contiguous history).
     */
    async markRead(
      conversationId: string,
      readerId: string,
      ids: readonly string[] | undefined,
      now: Date,
      upToId?: string,
    ): Promise<ReceiptOutcome> {
      return db.transaction(async (tx) => {
        await ensureConversationParticipants(tx, conversationId, now);
        const target =
          ids && ids.length === 0 && !upToId ? sql`null` : markTarget(conversationId, readerId, ids, upToId);
        const moved = await moveCursor(tx, { conversationId, userId: readerId, target, isRead: true, now });
        const left = rowsOf<{ n: number }>(
          await tx.execute(sql`select count(*)::int as n from (select 1 from messages m
            where m.conversation_id = ${conversationId}::uuid and m.seq > ${moved.cursor}
              and m.sender_id <> ${readerId}::uuid limit ${UNREAD_CAP}) as u`),
        )[0];
        return {
          messageIds: moved.ids,
          conversationUnread: Number(left?.n ?? 0),
          totalUnread: await unreadTotal(tx, readerId),
          readSeq: moved.cursor,
        };
      });
    },
  };
}
