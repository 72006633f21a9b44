import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
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
    }
  /** The sender's clientId was already used: the original message, nothing new stored. */
  | { kind: 'repeat'; message: MessageRow; sender: Person }
  /** The conversation is no longer active (unmatched or blocked). */
  | { kind: 'inactive' }
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

class DuplicateClientId extends Error {}

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
  const findByClientId = async (executor: Pick<Database, 'select'>, senderId: string, clientId: string) => {
    const [row] = await executor
      .select()
      .from(messages)
      .where(and(eq(messages.senderId, senderId), eq(messages.clientId, clientId)));
    return row;
  };

  return {
    /**
     * Stores a message in one transaction of two statements (QUALITY 26): the first locks the
     * conversation and looks for the sender's clientId; the second takes the conversation's next
     * seq (`update … set last_seq = last_seq + 1 returning`), inserts the message, sets the
     * last-message preview, creates missing participant rows, adds one to the recipient's unread
     * count and sums the recipient's total. Then both users' sync changes (two statements). A
     * clientId the sender already used answers the original message (QUALITY 13).
     */
    async insert(input: {
      conversationId: string;
      senderId: string;
      receiverId: string;
      text: string;
      clientId: string | undefined;
      now: Date;
    }): Promise<InsertOutcome> {
      const { conversationId, senderId, receiverId, text, clientId, now } = input;
      try {
        return await db.transaction(async (tx): Promise<InsertOutcome> => {
          const conversation = await lockConversation(tx, conversationId, { senderId, clientId });
          if (!conversation) return { kind: 'missing' };
          const sender = { name: conversation.sender_name ?? '', photo: conversation.sender_photo };
          if (conversation.repeated_id && clientId) {
            const repeated = await findByClientId(tx, senderId, clientId);
            if (repeated) return { kind: 'repeat', message: repeated, sender };
          }
          if (conversation.status !== 'active' || conversation.is_blocked) return { kind: 'inactive' };
          const id = randomUUID();
          const stored = rowsOf<{ seq: number | null; unread_count: number; is_muted: boolean; total: number }>(
            await tx.execute(sql`
              with bumped as (
                update conversations set last_seq = last_seq + 1, last_message_id = ${id}::uuid,
                  last_message_preview = ${text.slice(0, PREVIEW_LENGTH)}::text, last_message_at = ${now}::timestamptz,
                  last_message_sender_id = ${senderId}::uuid, updated_at = ${now}::timestamptz
                where id = ${conversationId}::uuid
                returning last_seq),
              inserted as (
                insert into messages (id, conversation_id, sender_id, receiver_id, text, client_id, seq, created_at)
                select ${id}::uuid, ${conversationId}::uuid, ${senderId}::uuid, ${receiverId}::uuid, ${text}::text,
                  ${clientId ?? null}::text, bumped.last_seq, ${now}::timestamptz
                from bumped
                on conflict do nothing
                returning seq),
              counted as (
                insert into conversation_participants as p (conversation_id, user_id, unread_count, updated_at)
                values (${conversationId}::uuid, ${senderId}::uuid, 0, ${now}::timestamptz),
                  (${conversationId}::uuid, ${receiverId}::uuid, 1, ${now}::timestamptz)
                on conflict (conversation_id, user_id) do update
                  set unread_count = p.unread_count + 1, updated_at = excluded.updated_at
                  where p.user_id = ${receiverId}::uuid
                returning p.user_id, p.unread_count, p.is_muted, p.is_hidden)
              select (select seq from inserted) as seq, r.unread_count, r.is_muted,
                ((case when r.is_hidden then 0 else r.unread_count end) + coalesce((
                  select sum(o.unread_count) from conversation_participants o
                  join conversations c on c.id = o.conversation_id
                  where o.user_id = ${receiverId}::uuid and o.conversation_id <> ${conversationId}::uuid
                    and not o.is_hidden and not exists (select 1 from blocks b
                      where (b.blocker_id = c.user_a and b.blocked_id = c.user_b)
                         or (b.blocker_id = c.user_b and b.blocked_id = c.user_a))), 0))::int as total
              from counted r where r.user_id = ${receiverId}::uuid`),
          )[0];
          // The same clientId, at the same instant, in another conversation: undo, answer the first.
          if (stored?.seq === null || stored?.seq === undefined) throw new DuplicateClientId();
          const message: MessageRow = {
            id,
            conversationId,
            senderId,
            receiverId,
            text,
            clientId: clientId ?? null,
            seq: Number(stored.seq),
            createdAt: now,
            deliveredAt: null,
            readAt: null,
          };
          const users = [senderId, receiverId];
          await appendChanges(
            tx,
            users.flatMap((userId): Change[] => [
              { userId, kind: 'message', entityId: id },
              { userId, kind: 'conversation', entityId: conversationId },
            ]),
            now,
          );
          return {
            kind: 'created',
            message,
            sender,
            receiverUnread: Number(stored.unread_count),
            receiverTotalUnread: Number(stored.total),
            isReceiverMuted: stored.is_muted === true,
          };
        });
      } catch (error) {
        if (!(error instanceof DuplicateClientId) || !clientId) throw error;
        const original = await findByClientId(db, senderId, clientId);
        if (!original) throw error;
        return { kind: 'repeat', message: original, sender: await findPerson(db, senderId) };
      }
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

    /** The reader saw them (all of the conversation when `ids` is undefined): read, and delivered. */
    async markRead(
      conversationId: string,
      readerId: string,
      ids: readonly string[] | undefined,
      now: Date,
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
