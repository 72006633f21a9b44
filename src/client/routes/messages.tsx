import { ConversationListScreen } from '../features/chat/index.ts';

/** The conversation list (spec 001 §2). */
export function MessagesPage() {
  return <ConversationListScreen />;
}
