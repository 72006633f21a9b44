import type { ChatNotifier, ChatRealtime } from './chat-service.ts';
import type { DeliveryRows } from './delivery-drain.ts';
import type { PendingDelivery } from './delivery-repository.ts';

/** Presence lookups a drain has in flight at once (on Redis, each a `fetchSockets` round trip). */
const PRESENCE_CONCURRENCY = 8;

/** The delivery drain's `deliver` for the chat: notifications of messages whose recipient was away. */
export function createNotificationDelivery(realtime: ChatRealtime, notifier: ChatNotifier | undefined) {
  /**
   * The notifications a batch of stored messages owes (the delivery drain's work): none for a
   * muted conversation or one the recipient has on screen (one presence lookup per recipient and
   * conversation, at most `PRESENCE_CONCURRENCY` at once). Then one statement for the whole
   * batch's notifications (in message order, docs/decisions/0039); the drain moves the skipped
   * members' cursors after it (docs/decisions/0041).
   */
  return async (batch: readonly PendingDelivery[], rows: DeliveryRows): Promise<readonly PendingDelivery[]> => {
    const groups = new Map<string, PendingDelivery[]>();
    for (const pending of batch) {
      const key = `${pending.receiverId}:${pending.conversationId}`;
      const group = groups.get(key) ?? [];
      group.push(pending);
      groups.set(key, group);
    }
    const quiet = new Set<readonly PendingDelivery[]>();
    const queue = [...groups.values()];
    const lookups = Array.from({ length: Math.min(PRESENCE_CONCURRENCY, queue.length) }, async () => {
      for (let group = queue.shift(); group; group = queue.shift()) {
        const head = group[0] as PendingDelivery;
        const isQuiet =
          !notifier || head.isReceiverMuted || (await realtime.isViewing(head.receiverId, head.conversationId));
        if (isQuiet) quiet.add(group);
      }
    });
    await Promise.all(lookups);
    const owed = batch.filter(
      (pending) => !quiet.has(groups.get(`${pending.receiverId}:${pending.conversationId}`) ?? []),
    );
    if (owed.length > 0 && notifier) {
      await notifier.notifyMessagesOnce(
        owed.map((pending) => ({
          recipientId: pending.receiverId,
          messageId: pending.messageId,
          conversationId: pending.conversationId,
          senderName: pending.senderName,
          preview: pending.text,
        })),
        rows.owed,
      );
      return owed;
    }
    return [];
  };
}
