import { CHAT_MESSAGES } from '#shared/chat/chat-messages';
import type { ChatMessage, ConversationSummary, StoredMessageStatus } from '#shared/chat/chat-schemas';
import { AppError, asDependencyError } from '../../errors.ts';
import type { ConversationView } from './conversation-repository.ts';
import type { StoredMessageRow } from './message-repository.ts';

/** The chat's rows as the spec's shapes (spec 001 §3), and its errors as acknowledgements. */

/** A message's state, from the receiver's cursors (docs/decisions/0041). */
export function statusOf(row: Pick<StoredMessageRow, 'isRead' | 'isDelivered'>): StoredMessageStatus {
  if (row.isRead) return 'read';
  if (row.isDelivered) return 'delivered';
  return 'sent';
}

export function toChatMessage(row: StoredMessageRow, sender: { name: string; photo: string | null }): ChatMessage {
  return {
    _id: row.id,
    conversationId: row.conversationId,
    sender_id: row.senderId,
    senderId: row.senderId,
    receiverId: row.receiverId,
    text: row.text,
    timestamp: row.createdAt.toISOString(),
    read: row.isRead,
    status: statusOf(row),
    seq: row.seq,
    clientId: row.clientId,
    senderName: sender.name,
    senderPhoto: sender.photo,
  };
}

/**
 * A group's message from someone the reader blocked: the reader learns that it exists (the thread
 * and its receipts stay whole), not what it says (docs/decisions/0056, amendment of session 17).
 */
export function hiddenCopy(message: ChatMessage): ChatMessage {
  return { ...message, text: '', isHidden: true };
}

export function toSummary(view: ConversationView): ConversationSummary {
  return {
    conversationId: view.conversationId,
    otherUser: { userId: view.otherUserId, name: view.otherName, photo: view.otherPhoto },
    lastMessage: view.lastMessage && {
      text: view.lastMessage.text,
      timestamp: view.lastMessage.at.toISOString(),
      senderId: view.lastMessage.senderId,
      read: view.lastMessage.isRead,
    },
    updatedAt: view.updatedAt.toISOString(),
    isPinned: view.isPinned,
    isMuted: view.isMuted,
    archived: view.isArchived,
    swipeType: view.ownSwipeType ?? view.matchSwipeType,
    unreadCount: view.unreadCount,
    status: view.status,
    readSeq: view.otherReadSeq,
    deliveredSeq: view.otherDeliveredSeq,
  };
}

/**
 * An AppError's parts, for a socket acknowledgement; with its Retry-After in seconds when it has one
 * (a send limit, an outage), so a socket client knows when to send again, as an HTTP one does.
 */
export function ackError(failure: unknown): {
  ok: false;
  message: string;
  status: number;
  errorType?: string;
  retryAfterS?: number;
} {
  // A database or Redis outage is a 503 (a full disk 507) the outbox retries, not a 500.
  const error = asDependencyError(failure) ?? failure;
  if (error instanceof AppError) {
    const retryAfterS = Number(error.headers['retry-after']);
    return {
      ok: false,
      message: error.message,
      status: error.statusCode,
      ...(error.errorType ? { errorType: error.errorType } : {}),
      ...(retryAfterS > 0 ? { retryAfterS } : {}),
    };
  }
  return { ok: false, message: CHAT_MESSAGES.actionFailed, status: 500 };
}
