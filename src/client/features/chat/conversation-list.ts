/**
 * The conversation list's pure rules (spec 001 §4 "Conversation ordering", "Unread"): pinned
 * first, then superlike, then the most recently updated; a new message moves its conversation to
 * the top and counts as unread unless it is open or our own. No state, no I/O: the store applies
 * these to its snapshot and the tests call them directly.
 */
import type { ChatMessage, ConversationSummary } from '#shared/chat/chat-schemas';
import type { ConversationUpdatedEvent } from '#shared/chat/socket-events';

function time(value: string | undefined): number {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? 0 : ms;
}

/** Pinned → superlike → most recent (updatedAt or the last message, whichever is later). */
export function compareConversations(a: ConversationSummary, b: ConversationSummary): number {
  if (a.isPinned !== b.isPinned) return a.isPinned ? -1 : 1;
  const aSuper = a.swipeType === 'superlike';
  if (aSuper !== (b.swipeType === 'superlike')) return aSuper ? -1 : 1;
  return lastActivity(b) - lastActivity(a);
}

export function lastActivity(conversation: ConversationSummary): number {
  return Math.max(time(conversation.updatedAt), time(conversation.lastMessage?.timestamp));
}

/** A sorted copy; only active, not archived conversations are listed. */
export function sortConversations(list: readonly ConversationSummary[]): ConversationSummary[] {
  return list.filter((item) => !item.archived && item.status === 'active').sort(compareConversations);
}

/** Appends a page, keeping the first copy of each conversation (pages shift while messages arrive). */
export function mergePage(
  current: readonly ConversationSummary[],
  page: readonly ConversationSummary[],
): ConversationSummary[] {
  const byId = new Map(current.map((item) => [item.conversationId, item]));
  for (const item of page) if (!byId.has(item.conversationId)) byId.set(item.conversationId, item);
  return sortConversations([...byId.values()]);
}

/**
 * A message arrived (ours from another tab, or theirs): it becomes the last message, the
 * conversation rises, and its unread count grows unless it is open or the sender is us.
 * Returns the same array when the message is unknown to the list (its conversation is fetched
 * separately) or was already applied.
 */
export function applyNewMessage(
  list: readonly ConversationSummary[],
  message: Pick<ChatMessage, 'conversationId' | 'senderId' | 'text' | 'timestamp'>,
  context: { ownUserId: string; openConversationId: string | null },
): readonly ConversationSummary[] {
  const index = list.findIndex((item) => item.conversationId === message.conversationId);
  const current = list[index];
  if (!current || !message.text.trim()) return list;
  const last = current.lastMessage;
  if (
    last &&
    last.timestamp === message.timestamp &&
    last.text === message.text &&
    last.senderId === message.senderId
  ) {
    return list;
  }
  const isCounted = message.senderId !== context.ownUserId && message.conversationId !== context.openConversationId;
  const updated: ConversationSummary = {
    ...current,
    lastMessage: { text: message.text, timestamp: message.timestamp, senderId: message.senderId, read: !isCounted },
    updatedAt: message.timestamp,
    unreadCount: isCounted ? current.unreadCount + 1 : current.unreadCount,
  };
  return sortConversations(list.map((item, i) => (i === index ? updated : item)));
}

/**
 * The server's `conversationUpdated`: merges the changed fields (a whole new conversation is
 * added); archived or ended conversations leave the list. The open conversation keeps 0 unread.
 */
export function applyConversationUpdate(
  list: readonly ConversationSummary[],
  event: ConversationUpdatedEvent,
  context: { openConversationId: string | null },
): readonly ConversationSummary[] {
  const index = list.findIndex((item) => item.conversationId === event.conversationId);
  const current = list[index];
  if (!current) {
    if (!isCompleteConversation(event)) return list;
    return sortConversations([...list, event]);
  }
  const merged: ConversationSummary = { ...current, ...definedFields(event) };
  if (event.conversationId === context.openConversationId) merged.unreadCount = 0;
  return sortConversations(list.map((item, i) => (i === index ? merged : item)));
}

/** The per-conversation count carried by `unreadCountUpdated`. */
export function applyUnreadCount(
  list: readonly ConversationSummary[],
  conversationId: string,
  unreadCount: number,
): readonly ConversationSummary[] {
  const current = list.find((item) => item.conversationId === conversationId);
  if (!current || current.unreadCount === unreadCount) return list;
  return list.map((item) => (item === current ? { ...item, unreadCount } : item));
}

export function patchConversation(
  list: readonly ConversationSummary[],
  conversationId: string,
  patch: Partial<ConversationSummary>,
): ConversationSummary[] {
  return sortConversations(list.map((item) => (item.conversationId === conversationId ? { ...item, ...patch } : item)));
}

export function removeConversation(
  list: readonly ConversationSummary[],
  conversationId: string,
): ConversationSummary[] {
  return list.filter((item) => item.conversationId !== conversationId);
}

function definedFields(event: ConversationUpdatedEvent): Partial<ConversationSummary> {
  return Object.fromEntries(Object.entries(event).filter(([, value]) => value !== undefined));
}

function isCompleteConversation(event: ConversationUpdatedEvent): event is ConversationSummary {
  return (
    typeof event.otherUser === 'object' &&
    event.otherUser !== null &&
    typeof event.updatedAt === 'string' &&
    typeof event.swipeType === 'string' &&
    typeof event.status === 'string'
  );
}
