import { useParams } from '@tanstack/react-router';
import { ChatScreen } from '../features/chat/index.ts';

/** One conversation, /messages/{conversationId} (spec 001 §2). */
export function MessagesConversationPage() {
  const { conversationId } = useParams({ from: '/app/messages/$conversationId' });
  return <ChatScreen key={conversationId} conversationId={conversationId} />;
}
