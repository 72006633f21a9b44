import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type MessageRow, messages } from '../../db/schema/index.ts';
import { appendChanges, type Change, rowsOf, type SqlExecutor } from '../sync/change-log-repository.ts';
import { ensureConversationParticipants, unreadTotal } from './conversation-repository.ts';

export type { MessageRow };

/** What storing a message came to. */
export type InsertOutcome =
  | {
      kind: 'created';
      message: MessageRow;
      /** The recipient's unread messages in this conversation, and in all. */
      receiverUnread: number;
      receiverTotalUnread: number;
      isReceiverMuted: boolean;
    }
  /** The sender's clientId was already used: the original message, nothing new stored. */
  | { kind: 'repeat'; message: MessageRow }
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
 */
async function lockConversation(executor: SqlExecutor, conversationId: string) {
  const result = await executor.execute(sql`
    select c.user_a, c.user_b, c.status,
      exists (select 1 from blocks b
        where (b.blocker_id = c.user_a and b.blocked_id = c.user_b)
           or (b.blocker_id = c.user_b and b.blocked_id = c.user_a)) as is_blocked
    from conversations c where c.id = ${conversationId}::uuid for update of c`);
  return rowsOf<{ user_a: string; user_b: string; status: string; is_blocked: boolean }>(result)[0];
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
     * Stores a message in one transaction: the conversation's next seq
     * (`update … set last_seq = last_seq + 1 returning`), the message, its last-message preview,
     * the recipient's unread count and both users' sync changes. A clientId the sender already
     * used answers the original message (QUALITY 13).
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
          const conversation = await lockConversation(tx, conversationId);
          if (!conversation) return { kind: 'missing' };
          if (clientId) {
            const repeated = await findByClientId(tx, senderId, clientId);
            if (repeated) return { kind: 'repeat', message: repeated };
          }
          if (conversation.status !== 'active' || conversation.is_blocked) return { kind: 'inactive' };
          const id = randomUUID();
          const bumped = await tx.execute(sql`
            update conversations set last_seq = last_seq + 1, last_message_id = ${id}::uuid,
              last_message_preview = ${text.slice(0, PREVIEW_LENGTH)}, last_message_at = ${now},
              last_message_sender_id = ${senderId}::uuid, updated_at = ${now}
            where id = ${conversationId}::uuid
            returning last_seq`);
          const seq = Number(rowsOf<{ last_seq: number }>(bumped)[0]?.last_seq);
          const [message] = await tx
            .insert(messages)
            .values({ id, conversationId, senderId, receiverId, text, clientId: clientId ?? null, seq, createdAt: now })
            .onConflictDoNothing()
            .returning();
          // The same clientId, at the same instant, in another conversation: undo, answer the first.
          if (!message) throw new DuplicateClientId();
          await ensureConversationParticipants(tx, conversationId, now);
          const counted = rowsOf<{ unread_count: number; is_muted: boolean }>(
            await tx.execute(sql`update conversation_participants
              set unread_count = unread_count + 1, updated_at = ${now}
              where conversation_id = ${conversationId}::uuid and user_id = ${receiverId}::uuid
              returning unread_count, is_muted`),
          )[0];
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
            receiverUnread: Number(counted?.unread_count ?? 1),
            receiverTotalUnread: await unreadTotal(tx, receiverId),
            isReceiverMuted: counted?.is_muted === true,
          };
        });
      } catch (error) {
        if (!(error instanceof DuplicateClientId) || !clientId) throw error;
        const original = await findByClientId(db, senderId, clientId);
        if (!original) throw error;
        return { kind: 'repeat', message: original };
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
