import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../sync/change-log-repository.ts';

/**
 * A data-modifying statement over message ids (`$1`, a uuid array) that returns, as `key`, those
 * whose notification is still owed.
 */
export type OwedGuard = { name: string; text: string };

/** A stored message whose notification and push are still owed. */
export type PendingDelivery = {
  messageId: string;
  conversationId: string;
  senderId: string;
  receiverId: string;
  text: string;
  senderName: string;
  isReceiverMuted: boolean;
};

export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;

/** `chat_deliveries`: the durable after-ack record each message's statement writes (docs/decisions/0020). */
export function createDeliveryRepository(db: Database) {
  return {
    /**
     * Leases up to `limit` rows no one holds (or whose lease ran out before `staleBefore`), oldest
     * first, with what their notification needs, in one statement; `skip locked` lets several
     * nodes drain side by side without taking the same row.
     */
    async claim(now: Date, staleBefore: Date, limit: number): Promise<PendingDelivery[]> {
      const rows = rowsOf<{
        message_id: string;
        conversation_id: string;
        sender_id: string;
        receiver_id: string;
        text: string;
        sender_name: string | null;
        is_muted: boolean | null;
      }>(
        await db.execute(sql`
          with claimed as (
            update chat_deliveries d set claimed_at = ${now}::timestamptz
            where d.message_id in (select message_id from chat_deliveries
              where claimed_at is null or claimed_at < ${staleBefore}::timestamptz
              order by created_at limit ${limit} for update skip locked)
            returning d.message_id)
          select m.id as message_id, m.conversation_id, m.sender_id, m.receiver_id, m.text,
            coalesce(sp.name, su.name) as sender_name, p.is_muted
          from claimed k join messages m on m.id = k.message_id
          left join users su on su.id = m.sender_id
          left join profiles sp on sp.user_id = m.sender_id
          left join conversation_participants p on p.conversation_id = m.conversation_id and p.user_id = m.receiver_id
          order by m.created_at, m.conversation_id, m.seq`),
      );
      return rows.map((row) => ({
        messageId: row.message_id,
        conversationId: row.conversation_id,
        senderId: row.sender_id,
        receiverId: row.receiver_id,
        text: row.text,
        senderName: row.sender_name ?? '',
        isReceiverMuted: row.is_muted === true,
      }));
    },

    /**
     * The guard of messages' notifications (docs/decisions/0035, 0039): deletes their rows and
     * returns those still there. Run inside the notifications' own statement, a row goes exactly
     * when its notification is stored; a second drain holding the same rows finds nothing.
     */
    owed: {
      name: 'chat_deliveries',
      text: 'delete from chat_deliveries where message_id = any($1::uuid[]) returning message_id as key',
    } satisfies OwedGuard as OwedGuard,

    /** Done without a notification (muted, on screen): the rows go (one statement for the batch). */
    async complete(messageIds: readonly string[]): Promise<void> {
      if (messageIds.length === 0) return;
      const ids = sql.join(
        messageIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      );
      await db.execute(sql`delete from chat_deliveries where message_id in (${ids})`);
    },
  };
}
