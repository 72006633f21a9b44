/** Tests only: a live conversation summary named `id`, with what a test changes. */
import type { ConversationSummary } from '#shared/chat/chat-schemas';

export const conversationSummary = (id: string, patch: Partial<ConversationSummary> = {}): ConversationSummary => ({
  conversationId: id,
  otherUser: { userId: `u-${id}`, name: id, photo: null },
  lastMessage: null,
  updatedAt: '2025-01-01T10:00:00.000Z',
  isPinned: false,
  isMuted: false,
  archived: false,
  swipeType: 'like',
  unreadCount: 0,
  status: 'active',
  ...patch,
});
