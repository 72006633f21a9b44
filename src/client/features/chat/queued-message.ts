import type { OutboxItem } from '../../services/local-db.ts';

/** A message waiting in the outbox: what is sent, with the clientId the server dedupes on. */
export type QueuedMessage = { conversationId: string; receiverId: string; text: string; clientId: string };

/** The outbox item of a message: its request carries the message once (docs/decisions/0042). */
export function messageOutboxItem(message: QueuedMessage): Pick<OutboxItem, 'kind' | 'scope' | 'clientId' | 'request'> {
  return {
    kind: 'message',
    scope: message.conversationId,
    clientId: message.clientId,
    request: { method: 'POST', path: 'messages/messages', json: message },
  };
}

/**
 * The message an outbox item carries, read from its request (what the service worker replays
 * too). Items stored by versions before 0042 also had a `payload` copy: it fills in what an older
 * request body lacks, so they still send after an update.
 */
export function queuedMessage(item: OutboxItem): QueuedMessage {
  const body = (item.request.json ?? {}) as Partial<QueuedMessage>;
  const legacy = (item.payload ?? {}) as Partial<QueuedMessage>;
  return {
    conversationId: body.conversationId ?? legacy.conversationId ?? item.scope,
    receiverId: body.receiverId ?? legacy.receiverId ?? '',
    text: body.text ?? legacy.text ?? '',
    clientId: item.clientId,
  };
}
