/**
 * The open conversation's messages and their status (spec 001 §3 "Message", §4 "Message status",
 * §5 chat rules): an own message shows at once as sending, becomes sent on the acknowledgement,
 * delivered and read on the receipts, error when the send fails. A status never goes back
 * (a late `sent` after `read` is ignored). Incoming messages with empty text or a known id are
 * ignored. Pure functions over arrays, so the store and the tests share them.
 */
import type { ChatMessage, MessageStatus } from '#shared/chat/chat-schemas';

export type ViewMessage = Omit<ChatMessage, 'status' | 'seq'> & { status: MessageStatus; seq: number | null };

export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = {
  sending: 'Enviando...',
  sent: 'Enviado',
  delivered: 'Entregado',
  read: 'Leído',
  error: 'Error al enviar',
};

const RANK: Record<MessageStatus, number> = { error: 0, sending: 0, sent: 1, delivered: 2, read: 3 };

/** The later of two statuses: receipts may arrive before the acknowledgement. */
function laterStatus(a: MessageStatus, b: MessageStatus): MessageStatus {
  return RANK[b] > RANK[a] ? b : a;
}

export function localMessageId(clientId: string): string {
  return `local:${clientId}`;
}

/** The message shown at once while it is being sent. */
export function createPendingMessage(input: {
  clientId: string;
  conversationId: string;
  senderId: string;
  receiverId: string;
  text: string;
  timestamp: string;
  senderName?: string;
}): ViewMessage {
  return {
    _id: localMessageId(input.clientId),
    clientId: input.clientId,
    conversationId: input.conversationId,
    sender_id: input.senderId,
    senderId: input.senderId,
    receiverId: input.receiverId,
    text: input.text,
    timestamp: input.timestamp,
    read: false,
    status: 'sending',
    seq: null,
    senderName: input.senderName ?? '',
    senderPhoto: null,
  };
}

export function fromServer(message: ChatMessage): ViewMessage {
  return { ...message, senderId: message.senderId || message.sender_id };
}

/**
 * Adds a message from the server (a page, `newMessage`, an acknowledgement). Empty text (but for
 * a hidden message) or a known id is ignored; one of ours that matches a pending copy by clientId replaces it.
 */
export function addServerMessage(list: readonly ViewMessage[], message: ChatMessage): readonly ViewMessage[] {
  // A hidden message (from someone the reader blocked, in a group) has no text on purpose.
  if ((!message.text?.trim() && !message.isHidden) || !message._id) return list;
  if (list.some((item) => item._id === message._id)) return list;
  const incoming = fromServer(message);
  const pendingIndex = message.clientId ? list.findIndex((item) => item.clientId === message.clientId) : -1;
  if (pendingIndex >= 0) {
    const pending = list[pendingIndex] as ViewMessage;
    const merged = {
      ...incoming,
      status: laterStatus(incoming.status, pending.status === 'error' ? 'sent' : pending.status),
    };
    return list.map((item, index) => (index === pendingIndex ? merged : item));
  }
  return [...list, incoming];
}

/** Adds a page (the newest first page, or older ones), skipping what is already there. */
export function addServerMessages(
  list: readonly ViewMessage[],
  messages: readonly ChatMessage[],
): readonly ViewMessage[] {
  return messages.reduce<readonly ViewMessage[]>((acc, message) => addServerMessage(acc, message), list);
}

/** The acknowledgement (socket ack or HTTP answer): the pending copy takes the stored id, and at least `sent`. */
export function confirmSent(
  list: readonly ViewMessage[],
  clientId: string,
  stored: ChatMessage,
): readonly ViewMessage[] {
  const alreadyStored = list.find((item) => item._id === stored._id);
  if (alreadyStored) {
    return list
      .filter((item) => item.clientId !== clientId || item._id === stored._id)
      .map((item) => (item._id === stored._id ? { ...item, status: laterStatus(item.status, 'sent') } : item));
  }
  return list.map((item) =>
    item.clientId === clientId
      ? { ...fromServer(stored), status: laterStatus(laterStatus(stored.status, 'sent'), item.status) }
      : item,
  );
}

/** The send failed: "Error al enviar" with a retry. */
export function markFailed(list: readonly ViewMessage[], clientId: string): readonly ViewMessage[] {
  return list.map((item) =>
    item.clientId === clientId && item.status === 'sending' ? { ...item, status: 'error' } : item,
  );
}

export function markRetrying(list: readonly ViewMessage[], clientId: string): readonly ViewMessage[] {
  return list.map((item) =>
    item.clientId === clientId && item.status === 'error' ? { ...item, status: 'sending' } : item,
  );
}

/** `messagesDelivered` / `messagesRead` for our own messages (ids absent: every own message). */
export function applyReceipt(
  list: readonly ViewMessage[],
  receipt: { messageIds?: readonly string[]; status: 'delivered' | 'read' },
  ownUserId: string,
): readonly ViewMessage[] {
  const ids = receipt.messageIds ? new Set(receipt.messageIds) : null;
  let changed = false;
  const next = list.map((item) => {
    if (item.senderId !== ownUserId || item.seq === null) return item;
    if (ids && !ids.has(item._id)) return item;
    const status = laterStatus(item.status, receipt.status);
    if (status === item.status) return item;
    changed = true;
    return { ...item, status, read: status === 'read' ? true : item.read };
  });
  return changed ? next : list;
}

/** The other user's messages not yet marked read by us (to acknowledge them). */
export function unreadFromOther(list: readonly ViewMessage[], ownUserId: string): string[] {
  return list.filter((item) => item.senderId !== ownUserId && !item.read).map((item) => item._id);
}

/** Marks the other user's messages read locally once we have told the server. */
export function markOthersRead(list: readonly ViewMessage[], ownUserId: string): readonly ViewMessage[] {
  if (!list.some((item) => item.senderId !== ownUserId && !item.read)) return list;
  return list.map((item) => (item.senderId !== ownUserId && !item.read ? { ...item, read: true } : item));
}
