/** The chat feature: /messages and /messages/{conversationId}, and the navigation's unread total. */
export { ChatScreen } from './chat-screen.tsx';
export { ConversationListScreen } from './conversation-list-screen.tsx';
export { startConversationUpdates } from './conversations-store.ts';
export { startUnreadCount, unreadState } from './unread-store.ts';
export { MessageBanner } from './message-banner.tsx';
