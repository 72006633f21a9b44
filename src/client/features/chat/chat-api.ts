/** The chat's HTTP calls (spec 001 §7), typed with the shared response shapes. */
import type {
  ChatSwipeType,
  ChatUnreadCountResponse,
  ConversationListResponse,
  ConversationResponse,
  GroupListResponse,
  GroupUnreadCountResponse,
  GroupResponse,
  MarkReadResponse,
  MessageListResponse,
  SendMessageRequest,
  SendMessageResponse,
} from '#shared/chat/chat-schemas';
import { requestJson } from '../../services/http.ts';

const conversationPath = (id: string) => `messages/conversations/${encodeURIComponent(id)}`;

export const chatApi = {
  listConversations: (page: number, limit: number) =>
    requestJson<ConversationListResponse>('messages/conversations', { searchParams: { page, limit } }),
  listMessages: (conversationId: string, limit = 50) =>
    requestJson<MessageListResponse>(`${conversationPath(conversationId)}/messages`, {
      searchParams: { page: 1, limit },
    }),
  setPinned: (id: string, isPinned: boolean) =>
    requestJson<ConversationResponse>(`${conversationPath(id)}/pin`, { method: 'patch', json: { isPinned } }),
  setMuted: (id: string, isMuted: boolean) =>
    requestJson<ConversationResponse>(`${conversationPath(id)}/mute`, { method: 'patch', json: { isMuted } }),
  archive: (id: string) =>
    requestJson<ConversationResponse>(`${conversationPath(id)}/archive`, { method: 'patch', json: {} }),
  setSwipeType: (id: string, swipeType: ChatSwipeType) =>
    requestJson<ConversationResponse>(`${conversationPath(id)}/swipetype`, { method: 'patch', json: { swipeType } }),
  unmatch: (id: string) => requestJson<ConversationResponse>(`${conversationPath(id)}/unmatch`, { method: 'post' }),
  /** The whole conversation, or up to the newest message the screen showed (decision 0040). */
  markRead: (id: string, upToMessageId?: string) =>
    requestJson<MarkReadResponse>(`${conversationPath(id)}/read`, {
      method: 'patch',
      ...(upToMessageId ? { json: { upToMessageId } } : {}),
    }),
  sendMessage: (body: SendMessageRequest) =>
    requestJson<SendMessageResponse>('messages/messages', { method: 'post', json: body }),
  unreadCount: () => requestJson<ChatUnreadCountResponse>('messages/messages/unread/count'),
  /** The caller's group conversations (docs/decisions/0056), newest first. */
  groups: () => requestJson<GroupListResponse>('groups'),
  /** Unread messages in the caller's groups, muted ones left out (the «Mensajes» badge adds them). */
  groupsUnreadCount: () => requestJson<GroupUnreadCountResponse>('groups/unread-count'),
  /** A group conversation (docs/decisions/0056): title, members and their read cursors. */
  group: (id: string) => requestJson<GroupResponse>(`groups/${encodeURIComponent(id)}`),
  // Leaving a group and muting it go through the outbox (chat-store.ts, decision 0056).
};

export type ChatApi = typeof chatApi;
