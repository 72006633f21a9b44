import { useNavigate, useParams } from '@tanstack/react-router';
import { ChatScreen } from '../features/chat/index.ts';
import { useCurrentUserId } from '../features/profile/index.ts';
import {
  QuedadaComposerButton,
  QuedadaHeaderLine,
  quedadaEntries,
  useConversationQuedadas,
} from '../features/quedadas/index.ts';
import { GroupSafetyMenu, SafetyMenu } from '../features/safety/index.ts';

/**
 * One conversation, /messages/{conversationId} (spec 001 §2); the block and report menu (a group's
 * too) comes from safety, the quedadas (header line, cards, "Proponer entreno") from quedadas.
 */
export function MessagesConversationPage() {
  const { conversationId } = useParams({ from: '/app/messages/$conversationId' });
  const navigate = useNavigate();
  const ownUserId = useCurrentUserId();
  const quedadas = useConversationQuedadas(conversationId);
  return (
    <ChatScreen
      key={conversationId}
      conversationId={conversationId}
      renderHeaderActions={({ otherUser }) => (
        <SafetyMenu
          target={{ userId: otherUser.userId, name: otherUser.name, conversationId }}
          // The conversation ended for both: the server's conversationUpdated takes it out of the list.
          onBlocked={() => void navigate({ to: '/messages', replace: true })}
        />
      )}
      renderGroupActions={({ conversationId: groupId, ownerId, others, messages, reload }) => (
        <GroupSafetyMenu
          groupId={groupId}
          people={others}
          lines={messages}
          // Blocking the host of the group's session takes the person out of it: back to the list.
          // Anyone else stays; their messages come back hidden for the blocker.
          onBlocked={(person) => {
            if (person.userId === ownerId) void navigate({ to: '/messages', replace: true });
            else reload();
          }}
        />
      )}
      extensions={{
        renderHeaderLine: () => <QuedadaHeaderLine conversationId={conversationId} quedadas={quedadas} />,
        threadEntries: ({ otherUser }) => quedadaEntries(quedadas, ownUserId, otherUser.name),
        renderComposerAction: ({ otherUser }) => (
          <QuedadaComposerButton conversationId={conversationId} otherUserId={otherUser.userId} quedadas={quedadas} />
        ),
      }}
    />
  );
}
