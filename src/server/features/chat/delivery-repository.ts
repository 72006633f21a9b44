import { sql } from 'drizzle-orm';
import { type Database, preparedStatement } from '../../db/client.ts';
import { rowsOf } from '../sync/change-log-repository.ts';

/**
 * A data-modifying statement over message ids (`$1`, a uuid array) that returns, per recipient
 * (`user_id`), as `keys` (a uuid array), those whose notification it is still owed (a group's
 * message is owed to each of its members: docs/decisions/0056).
 */
export type OwedGuard = { name: string; text: string };

/** A stored message whose notification and push are still owed to its recipient. */
export type PendingDelivery = {
  messageId: string;
  conversationId: string;
  senderId: string;
  receiverId: string;
  text: string;
  senderName: string;
  isReceiverMuted: boolean;
};

/** How far a drain read a member's owed messages: the cursor `done` moves it to. */
export type MemberMark = { conversationId: string; userId: string; seq: number };

/**
 * The drain's claim (`$1` the conversations' ids), a read; also bench/prepared-micro.ts. A group's
 * message is not owed to a member who blocked its sender (docs/decisions/0056, session 17).
 */
export const DRAIN_CLAIM_SQL = `select c.id as conversation_id, p.user_id, c.last_seq, p.is_muted,
      m.id as message_id, m.sender_id, m.text, coalesce(sp.name, su.name) as sender_name
    from conversations c
    join conversation_participants p on p.conversation_id = c.id and p.notified_seq < c.last_seq
      and p.left_at is null
    left join messages m on m.conversation_id = c.id and m.seq > p.notified_seq
      and m.seq <= c.last_seq and m.sender_id <> p.user_id
      and (m.receiver_id is not null or not exists (select 1 from blocks bl
        where bl.blocker_id = p.user_id and bl.blocked_id = m.sender_id))
    left join users su on su.id = m.sender_id
    left join profiles sp on sp.user_id = m.sender_id
    where c.id = any($1::uuid[])
    order by m.created_at, c.id, m.seq`;

export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;

/**
 * The work owed after a message's acknowledgement, as **cursors** (docs/decisions/0041): a member
 * is owed a notification for each message from others above its `notified_seq`.
 */
export function createDeliveryRepository(db: Database) {
  /**
   * A drain batch's claim, a read only (docs/decisions/0057): every conversation has its member
   * rows (record_swipes makes them with the conversation; migrations 0017 and 0021 made the
   * older ones), so nothing is inserted here and the members come from their rows — two or thirty.
   */
  const claimStatement = preparedStatement<{
    conversation_id: string;
    user_id: string;
    last_seq: number;
    is_muted: boolean;
    message_id: string | null;
    sender_id: string | null;
    text: string | null;
    sender_name: string | null;
  }>(db, 'chat_drain_claim', DRAIN_CLAIM_SQL);
  const completeStatement = preparedStatement(
    db,
    'chat_drain_complete',
    `update conversation_participants p set notified_seq = x.seq
    from unnest($1::uuid[], $2::uuid[], $3::int[]) as x(conversation_id, user_id, seq)
    where p.conversation_id = x.conversation_id and p.user_id = x.user_id and p.notified_seq < x.seq`,
  );

  return {
    /**
     * Conversations where some member's `notified_seq` is behind the conversation's `last_seq`
     * (start-up after a crash; on a shared database, those quiet for `quietBefore`, so a live
     * node's own work is not taken from it), up to `limit`.
     */
    async findOwed(limit: number, quietBefore?: Date): Promise<string[]> {
      const quiet = quietBefore ? sql`and c.last_message_at < ${quietBefore}` : sql``;
      return rowsOf<{ id: string }>(
        await db.execute(sql`select c.id from conversations c
          where c.last_seq > 0 ${quiet} and exists (select 1 from conversation_participants p
            where p.conversation_id = c.id and p.notified_seq < c.last_seq and p.left_at is null)
          limit ${limit}`),
      ).map((row) => row.id);
    },

    /**
     * What these conversations owe, in **one read**: the messages from others above each
     * member's `notified_seq` (in conversation order, with what the notification needs), and each
     * member's mark (the conversation's last seq as read) for `complete`.
     */
    async claim(conversationIds: readonly string[]): Promise<{ pending: PendingDelivery[]; marks: MemberMark[] }> {
      if (conversationIds.length === 0) return { pending: [], marks: [] };
      const rows = await claimStatement([conversationIds]);
      const pending: PendingDelivery[] = [];
      const marks = new Map<string, MemberMark>();
      for (const row of rows) {
        marks.set(`${row.conversation_id}:${row.user_id}`, {
          conversationId: row.conversation_id,
          userId: row.user_id,
          seq: Number(row.last_seq),
        });
        if (!row.message_id) continue;
        pending.push({
          messageId: row.message_id,
          conversationId: row.conversation_id,
          senderId: row.sender_id as string,
          receiverId: row.user_id,
          text: row.text ?? '',
          senderName: row.sender_name ?? '',
          isReceiverMuted: row.is_muted === true,
        });
      }
      return { pending, marks: [...marks.values()] };
    },

    /**
     * The guard of messages' notifications (docs/decisions/0035, 0039, 0041): locks the member
     * rows of the messages' conversations, moves each `notified_seq` up to the newest of the
     * given messages in its conversation (the senders' too: nothing of theirs is owed below it),
     * and returns the messages above their recipient's old cursor. Run inside the notifications'
     * own statement, a message is retired exactly when its notification is stored; a second drain
     * holding the same messages finds the cursor already past them.
     */
    owed: {
      name: 'chat_notified_seq',
      text: `update conversation_participants p set notified_seq = l.top
        from (select q.conversation_id, q.user_id, q.notified_seq as before, t.top
              from (select m.conversation_id, max(m.seq) as top from messages m
                    where m.id = any($1::uuid[]) group by m.conversation_id) t
              join conversation_participants q on q.conversation_id = t.conversation_id
              order by q.conversation_id, q.user_id for update of q) l
        where p.conversation_id = l.conversation_id and p.user_id = l.user_id and l.top > l.before
        returning p.user_id, array(select m.id from messages m where m.id = any($1::uuid[])
          and m.conversation_id = p.conversation_id and p.left_at is null
          and coalesce(m.receiver_id = p.user_id, m.sender_id <> p.user_id and not exists (select 1 from blocks bl
            where bl.blocker_id = p.user_id and bl.blocked_id = m.sender_id)) and m.seq > l.before) as keys`,
    } satisfies OwedGuard as OwedGuard,

    /**
     * Done without (more) notifications — muted, on screen, nothing from others, or already
     * notified: each member's cursor moves up to its mark, never down (one statement).
     */
    async complete(marks: readonly MemberMark[]): Promise<void> {
      if (marks.length === 0) return;
      await completeStatement([
        marks.map((mark) => mark.conversationId),
        marks.map((mark) => mark.userId),
        marks.map((mark) => mark.seq),
      ]);
    },
  };
}
