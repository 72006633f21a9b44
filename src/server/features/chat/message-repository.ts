import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { type Database, preparedStatement } from '../../db/client.ts';
import { type MessageRow, messages } from '../../db/schema/index.ts';
import { appendChanges, type Change, rowsOf, type SqlExecutor } from '../sync/change-log-repository.ts';
import { ensureConversationParticipants, unreadTotal } from './conversation-repository.ts';

export type { MessageRow };

export type Person = { name: string; photo: string | null };

/** What storing a message came to. */
export type InsertOutcome =
  | {
      kind: 'created';
      message: MessageRow;
      /** The sender's display name and first photo, as of this send. */
      sender: Person;
      /** The recipient's unread messages in this conversation, and in all. */
      receiverUnread: number;
      receiverTotalUnread: number;
      isReceiverMuted: boolean;
      /** The conversation's two users, as the statement read them (fills the membership cache). */
      pair: { userA: string; userB: string };
    }
  /** The sender's clientId was already used: the original message, nothing new stored. */
  | { kind: 'repeat'; message: MessageRow; sender: Person }
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
  unread_count: number | null;
  is_muted: boolean | null;
  total: number | null;
};

/**
 * The send statement's text, one for every message (a named statement: docs/decisions/0037).
 * $1 message id, $2 conversation, $3 sender, $4 session, $5 text, $6 preview, $7 clientId,
 * $8 now, $9 the receiver the client named (or null).
 */
const SEND_STATEMENT = `
  with prior as (
    select m.id from messages m
    where $7::text is not null and m.sender_id = $3::uuid and m.client_id = $7::text),
  guard as (
    select exists (select 1 from sessions s where s.id = $4::uuid and s.user_id = $3::uuid
      and s.revoked_at is null and s.expires_at > $8::timestamptz) as is_session_live),
  bumped as (
    update conversations c set last_seq = c.last_seq + 1, last_message_id = $1::uuid,
      last_message_preview = $6::text, last_message_at = $8::timestamptz,
      last_message_sender_id = $3::uuid, updated_at = $8::timestamptz
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
    returning seq, receiver_id),
  counted as (
    insert into conversation_participants as p (conversation_id, user_id, unread_count, updated_at)
    select $2::uuid, u.user_id, u.unread, $8::timestamptz
    from inserted i cross join lateral (values ($3::uuid, 0), (i.receiver_id, 1)) as u(user_id, unread)
    order by u.user_id
    on conflict (conversation_id, user_id) do update
      set unread_count = p.unread_count + 1, updated_at = excluded.updated_at
      where excluded.unread_count = 1
    returning p.user_id, p.unread_count, p.is_muted, p.is_hidden),
  counters as (
    insert into sync_counters (user_id, last_change)
    select u.user_id, 2 from inserted i cross join lateral (values ($3::uuid), (i.receiver_id)) as u(user_id)
    order by u.user_id
    on conflict (user_id) do update set last_change = sync_counters.last_change + excluded.last_change
    returning user_id, last_change),
  changed as (
    insert into user_changes (user_id, change_seq, kind, entity_id, created_at)
    select k.user_id, k.last_change - e.from_last, e.kind, e.entity_id, $8::timestamptz
    from counters k cross join (values (1::bigint, 'message', $1::uuid),
      (0::bigint, 'conversation', $2::uuid)) as e(from_last, kind, entity_id)
    on conflict (user_id, kind, entity_id)
    do update set change_seq = excluded.change_seq, created_at = excluded.created_at
    returning 1),
  delivery as (
    insert into chat_deliveries (message_id, created_at) select $1::uuid, $8::timestamptz from inserted
    returning 1)
  select (select seq from inserted) as seq,
    (select receiver_id from inserted) as receiver_id,
    (select id from prior) as prior_id,
    (select is_session_live from guard) as is_session_live,
    c.status, c.user_a, c.user_b,
    coalesce(sp.name, su.name) as sender_name, sp.photos->>0 as sender_photo,
    r.unread_count, r.is_muted,
    ((case when r.is_hidden then 0 else r.unread_count end) + coalesce((
      select sum(o.unread_count) from conversation_participants o
      join conversations oc on oc.id = o.conversation_id
      where o.user_id = r.user_id and o.conversation_id <> $2::uuid
        and not o.is_hidden and not exists (select 1 from blocks b
          where (b.blocker_id = oc.user_a and b.blocked_id = oc.user_b)
             or (b.blocker_id = oc.user_b and b.blocked_id = oc.user_a))), 0))::int as total,
    (select count(*) from changed)::int + (select count(*) from delivery)::int as side_effects
  from (select 1) as one
  left join conversations c on c.id = $2::uuid
  left join users su on su.id = $3::uuid
  left join profiles sp on sp.user_id = su.id
  left join counted r on r.user_id <> $3::uuid`;

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string })?.code === '23505' || (error as { cause?: { code?: string } })?.cause?.code === '23505';

const idList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/**
 * Locks the conversation row for the rest of the transaction: every write of a conversation
 * (send, receipts, unmatch) takes it first, so they run one at a time and before any sync counter.
 * A send also asks, in the same statement, for the id of the sender's message with its clientId.
 */
async function lockConversation(
  executor: SqlExecutor,
  conversationId: string,
  send?: { senderId: string; clientId: string | undefined },
) {
  const repeated = send?.clientId
    ? sql`(select m.id from messages m
        where m.sender_id = ${send.senderId}::uuid and m.client_id = ${send.clientId}::text)`
    : sql`null::uuid`;
  const sender = send
    ? sql`left join users su on su.id = ${send.senderId}::uuid left join profiles sp on sp.user_id = su.id`
    : sql``;
  const result = await executor.execute(sql`
    select c.user_a, c.user_b, c.status,
      exists (select 1 from blocks b
        where (b.blocker_id = c.user_a and b.blocked_id = c.user_b)
           or (b.blocker_id = c.user_b and b.blocked_id = c.user_a)) as is_blocked,
      ${repeated} as repeated_id,
      ${send ? sql`coalesce(sp.name, su.name)` : sql`null::text`} as sender_name,
      ${send ? sql`sp.photos->>0` : sql`null::text`} as sender_photo
    from conversations c ${sender} where c.id = ${conversationId}::uuid for update of c`);
  return rowsOf<{
    user_a: string;
    user_b: string;
    status: string;
    is_blocked: boolean;
    repeated_id: string | null;
    sender_name: string | null;
    sender_photo: string | null;
  }>(result)[0];
}

/** A user's display name (profile, else account) and first photo. */
async function findPerson(executor: SqlExecutor, userId: string): Promise<Person> {
  const row = rowsOf<{ name: string | null; photo: string | null }>(
    await executor.execute(sql`select coalesce(p.name, u.name) as name, p.photos->>0 as photo
      from users u left join profiles p on p.user_id = u.id where u.id = ${userId}::uuid`),
  )[0];
  return { name: row?.name ?? '', photo: row?.photo ?? null };
}

export type MessageRepository = ReturnType<typeof createMessageRepository>;

export function createMessageRepository(db: Database) {
  const sendStatement = preparedStatement<SendRow>(db, 'chat_send_message', SEND_STATEMENT);
  const findByClientId = async (executor: Pick<Database, 'select'>, senderId: string, clientId: string) => {
    const [row] = await executor
      .select()
      .from(messages)
      .where(and(eq(messages.senderId, senderId), eq(messages.clientId, clientId)));
    return row;
  };

  return {
    /**
     * Stores a message in **one statement** (docs/decisions/0020): an `UPDATE` of the conversation
     * row takes its lock and the next seq only while the sender's session row is live, the sender
     * is one of the two, the conversation is active and neither user blocks the other, and the
     * sender's clientId is unused; then, from its one returned row, the message, the last-message
     * preview, both participant rows (+1 unread for the recipient), both users' sync changes and
     * the durable after-ack record (`chat_deliveries`). A block, unmatch or deletion committed on
     * any node changes the conversation row, so the lock's re-check refuses the very next send.
     * A clientId the sender already used answers the original message (QUALITY 13); two sends of
     * one clientId at once: the second hits the unique key, the whole statement undoes itself and
     * the original is answered.
     */
    async insert(input: {
      conversationId: string;
      senderId: string;
      sessionId: string;
      text: string;
      clientId: string | undefined;
      /** The recipient the client named: the statement refuses the send when it is not the other user. */
      receiverId?: string;
      now: Date;
    }): Promise<InsertOutcome> {
      const { conversationId, senderId, sessionId, text, clientId, now } = input;
      const id = randomUUID();
      const cid = clientId ?? null;
      let row: SendRow | undefined;
      try {
        [row] = await sendStatement([
          id,
          conversationId,
          senderId,
          sessionId,
          text,
          text.slice(0, PREVIEW_LENGTH),
          cid,
          now,
          input.receiverId ?? null,
        ]);
      } catch (error) {
        // The same clientId stored by a concurrent send: this statement undid itself entirely.
        if (!cid || !isUniqueViolation(error)) throw error;
        const original = await findByClientId(db, senderId, cid);
        if (!original) throw error;
        return { kind: 'repeat', message: original, sender: await findPerson(db, senderId) };
      }
      if (!row) throw new Error('message statement returned no row');
      const sender = { name: row.sender_name ?? '', photo: row.sender_photo };
      if (row.seq !== null) {
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
            deliveredAt: null,
            readAt: null,
          },
          sender,
          receiverUnread: Number(row.unread_count ?? 0),
          receiverTotalUnread: Number(row.total ?? 0),
          isReceiverMuted: row.is_muted === true,
          pair: { userA: row.user_a as string, userB: row.user_b as string },
        };
      }
      if (row.prior_id && cid) {
        const original = await findByClientId(db, senderId, cid);
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
    ): Promise<{ rows: MessageRow[]; hasMore: boolean }> {
      const rows = await db
        .select()
        .from(messages)
        .where(
          and(
            eq(messages.conversationId, conversationId),
            options.before === undefined ? undefined : lt(messages.seq, options.before),
          ),
        )
        .orderBy(desc(messages.seq))
        .limit(options.limit + 1)
        .offset(options.before === undefined ? options.offset : 0);
      return { rows: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
    },

    /** Messages of these ids that the user sent or received (the sync). */
    async findForUser(userId: string, ids: readonly string[]): Promise<MessageRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(messages)
        .where(and(inArray(messages.id, [...ids]), or(eq(messages.senderId, userId), eq(messages.receiverId, userId))));
    },

    /** The recipient's client has them: `delivered_at` on those not yet marked. */
    async markDelivered(
      conversationId: string,
      receiverId: string,
      ids: readonly string[] | undefined,
      now: Date,
    ): Promise<string[]> {
      if (ids && ids.length === 0) return [];
      return db.transaction(async (tx) => {
        const conversation = await lockConversation(tx, conversationId);
        if (!conversation) return [];
        const updated = rowsOf<{ id: string; sender_id: string }>(
          await tx.execute(sql`with updated as (update messages set delivered_at = ${now}
              where conversation_id = ${conversationId}::uuid and receiver_id = ${receiverId}::uuid
                and delivered_at is null ${ids ? sql`and id in (${idList(ids)})` : sql``}
              returning id, seq, sender_id)
            select id, sender_id from updated order by seq`),
        );
        if (updated.length === 0) return [];
        await appendChanges(
          tx,
          updated.flatMap((row): Change[] => [
            { userId: receiverId, kind: 'message', entityId: row.id },
            { userId: row.sender_id, kind: 'message', entityId: row.id },
          ]),
          now,
        );
        return updated.map((row) => row.id);
      });
    },

    /**
     * The reader saw them (all of the conversation when `ids` is undefined, or all up to and
     * including `upToId` when given): read, and delivered.
     */
    async markRead(
      conversationId: string,
      readerId: string,
      ids: readonly string[] | undefined,
      now: Date,
      upToId?: string,
    ): Promise<ReceiptOutcome> {
      return db.transaction(async (tx) => {
        const conversation = await lockConversation(tx, conversationId);
        if (!conversation)
          return { messageIds: [], conversationUnread: 0, totalUnread: await unreadTotal(tx, readerId) };
        const updated =
          ids && ids.length === 0
            ? []
            : rowsOf<{ id: string; seq: number; sender_id: string }>(
                await tx.execute(sql`with updated as (update messages
                    set read_at = ${now}, delivered_at = coalesce(delivered_at, ${now})
                    where conversation_id = ${conversationId}::uuid and receiver_id = ${readerId}::uuid
                      and read_at is null ${ids ? sql`and id in (${idList(ids)})` : sql``}
                      ${
                        upToId
                          ? sql`and seq <= (select seq from messages
                              where id = ${upToId}::uuid and conversation_id = ${conversationId}::uuid)`
                          : sql``
                      }
                    returning id, seq, sender_id)
                  select id, seq, sender_id from updated order by seq`),
              );
        await ensureConversationParticipants(tx, conversationId, now);
        const maxSeq = updated.reduce((max, row) => Math.max(max, Number(row.seq)), 0);
        const counted = rowsOf<{ unread_count: number }>(
          await tx.execute(sql`update conversation_participants p set
              unread_count = (select count(*)::int from messages m
                where m.conversation_id = p.conversation_id and m.receiver_id = p.user_id and m.read_at is null),
              last_read_seq = greatest(p.last_read_seq, ${maxSeq}),
              updated_at = ${now}
            where p.conversation_id = ${conversationId}::uuid and p.user_id = ${readerId}::uuid
            returning p.unread_count`),
        )[0];
        if (updated.length > 0) {
          const users = [conversation.user_a, conversation.user_b];
          await appendChanges(
            tx,
            users.flatMap((userId): Change[] => [
              { userId, kind: 'conversation', entityId: conversationId },
              ...updated.map((row): Change => ({ userId, kind: 'message', entityId: row.id })),
            ]),
            now,
          );
        }
        return {
          messageIds: updated.map((row) => row.id),
          conversationUnread: Number(counted?.unread_count ?? 0),
          totalUnread: await unreadTotal(tx, readerId),
        };
      });
    },
  };
}
