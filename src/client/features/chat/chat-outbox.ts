/**
 * How the chat's outbox items are delivered and applied (services/outbox.ts): a message goes over
 * the socket with its acknowledgement, or over HTTP when the socket is down or silent — the same
 * clientId either way, so the server stores it once; its answer replaces the pending row (same
 * key) and becomes the conversation's last message. A read mark goes over HTTP (and the socket's
 * read event), and its answer sets the unread total.
 */
import type { ChatMessage, MarkReadRequest, MarkReadResponse, SendMessageResponse } from '#shared/chat/chat-schemas';
import { currentDb, type LocalDb, type OutboxItem, upsertMessages } from '../../services/local-db.ts';
import { outbox } from '../../services/offline.ts';
import { connection, SocketRequestError } from '../../services/socket.ts';
import { chatApi } from './chat-api.ts';
import { type QueuedMessage, queuedMessage } from './queued-message.ts';
import { setUnreadTotal } from './unread-store.ts';

async function receiverFor(db: LocalDb | null, message: QueuedMessage): Promise<string> {
  if (message.receiverId || !db) return message.receiverId;
  return (await db.conversations.get(message.conversationId))?.otherUser.userId ?? '';
}

async function deliverMessage(item: OutboxItem): Promise<ChatMessage> {
  const message = queuedMessage(item);
  const { conversationId, text, clientId } = message;
  const receiverId = await receiverFor(currentDb(), message);
  try {
    const ack = await connection.request('sendMessage', {
      conversationId,
      text,
      clientId,
      ...(receiverId ? { receiverId } : {}),
    });
    return ack.data;
  } catch (error) {
    // A refusal is final; no connection or no answer goes over HTTP with the same clientId (idempotent).
    if (error instanceof SocketRequestError && error.kind === 'refused') throw error;
    const answer: SendMessageResponse = await chatApi.sendMessage({ conversationId, receiverId, text, clientId });
    return answer.data;
  }
}

/**
 * The conversation's stored row takes `message` as its last line: when the server stored it, and
 * already when it is queued (issue #34: offline, Mensajes shows the line the thread shows).
 */
export async function showAsLastMessage(
  db: LocalDb,
  message: Pick<ChatMessage, 'conversationId' | 'text' | 'timestamp' | 'senderId'>,
): Promise<void> {
  const conversation = await db.conversations.get(message.conversationId);
  if (conversation) {
    await db.conversations.put({
      ...conversation,
      lastMessage: { text: message.text, timestamp: message.timestamp, senderId: message.senderId, read: false },
      updatedAt: [message.timestamp, conversation.updatedAt].sort().at(-1) ?? message.timestamp,
    });
  }
}

async function applySent(db: LocalDb, stored: ChatMessage): Promise<void> {
  await upsertMessages(db, [stored]);
  await showAsLastMessage(db, stored);
}

/** The last message a queued mark reads up to (decision 0040); none: the whole conversation. */
export function markReadUpTo(item: OutboxItem): string | undefined {
  return (item.request.json as MarkReadRequest | undefined)?.upToMessageId;
}

let isRegistered = false;

/** Registers the chat's kinds with the outbox (once, at start-up, so a replay never waits for the screen). */
export function registerChatOutbox(): void {
  if (isRegistered) return;
  isRegistered = true;
  outbox.register('message', {
    deliver: deliverMessage,
    apply: (db, _item, result) => applySent(db, result as ChatMessage),
    fail: async (db, item) => {
      await db.messages.update(item.clientId, { status: 'error' });
    },
  });
  outbox.register('markRead', {
    deliver: async (item) => {
      const conversationId = item.scope;
      const upToMessageId = markReadUpTo(item);
      // The socket's whole-conversation form would read what came after the mark (decision 0040):
      // a mark that knows its last message goes by HTTP alone (the server tells the sender).
      if (!upToMessageId) {
        connection.emitIfConnected('markMessagesRead', { conversationId, updateType: 'markRead', unreadCount: 0 });
      }
      return chatApi.markRead(conversationId, upToMessageId);
    },
    after: (_item, result) => setUnreadTotal((result as MarkReadResponse).unreadCount),
  });
}
