import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { ChatMessage } from '#shared/chat/chat-schemas';
import { currentDb } from '../../services/local-db.ts';
import { session } from '../../services/session.ts';
import { connection } from '../../services/socket.ts';
import { CloseIcon, MessageIcon } from '../../ui/icons.tsx';

/** How long a banner stays before it goes by itself (a newer message replaces it at once). */
const BANNER_VISIBLE_MS = 6000;
const FIRST_LINE_MAX = 90;

type Shown = { key: string; conversationId: string; sender: string; firstLine: string };

/** The first line of a message, cut with "…" when long. */
export function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > FIRST_LINE_MAX ? `${line.slice(0, FIRST_LINE_MAX - 1).trimEnd()}…` : line;
}

/**
 * Whether an incoming message gets a banner: not one's own, not in the chat on screen, not in a
 * muted conversation, and only with the "Mensajes" notifications on.
 */
export async function shouldAnnounce(
  message: Pick<ChatMessage, 'conversationId' | 'senderId'>,
  context: { ownUserId: string; openConversationId: string | null; isEnabled: boolean },
): Promise<boolean> {
  if (!context.isEnabled || message.senderId === context.ownUserId) return false;
  if (message.conversationId === context.openConversationId) return false;
  const conversation = await currentDb()?.conversations.get(message.conversationId);
  return conversation?.isMuted !== true;
}

/**
 * An in-app banner for a message that arrives while the person is elsewhere in the app (issue #20):
 * sender, first line, a tap opens the chat; one at a time (the newest replaces the one shown);
 * never for the chat on screen; respects the "Mensajes" notification setting and muted chats.
 */
export function MessageBanner({
  openConversationId,
  isEnabled,
}: {
  openConversationId: string | null;
  isEnabled: boolean;
}) {
  const [shown, setShown] = useState<Shown | null>(null);
  const context = useRef({ openConversationId, isEnabled });
  context.current = { openConversationId, isEnabled };

  useEffect(
    () =>
      connection.on('newMessage', (message) => {
        if (!message?.text) return;
        const ownUserId = session.current()?.user.userId ?? '';
        void shouldAnnounce(message, { ...context.current, ownUserId }).then((isAnnounced) => {
          if (!isAnnounced || message.conversationId === context.current.openConversationId) return;
          setShown({
            key: message._id,
            conversationId: message.conversationId,
            sender: message.senderName || 'Nuevo mensaje',
            firstLine: firstLine(message.text),
          });
        });
      }),
    [],
  );

  // Opening that chat (or leaving the banner alone) puts it away.
  useEffect(() => {
    if (shown && shown.conversationId === openConversationId) setShown(null);
  }, [shown, openConversationId]);
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => setShown(null), BANNER_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [shown]);

  return (
    <div className="pointer-events-none fixed inset-x-0 top-[calc(3.75rem+env(safe-area-inset-top))] z-40 flex justify-center px-3 lg:top-4">
      <div aria-live="polite" className="w-full max-w-md">
        {shown && (
          <div
            key={shown.key}
            data-testid="message-banner"
            className="pointer-events-auto flex items-center gap-1 rounded-2xl bg-white/95 shadow-lg ring-1 ring-stone-900/10 backdrop-blur motion-safe:animate-[toast-in_160ms_ease-out] dark:bg-stone-900/95 dark:ring-white/10"
          >
            <Link
              to="/messages/$conversationId"
              params={{ conversationId: shown.conversationId }}
              onClick={() => setShown(null)}
              className="flex min-w-0 flex-1 items-center gap-3 rounded-2xl py-3 pl-3.5 focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400"
            >
              <span className="grid size-9 shrink-0 place-items-center rounded-full bg-brand-50 text-brand-700 ring-1 ring-brand-200 dark:bg-brand-500/12 dark:text-brand-300 dark:ring-brand-500/25">
                <MessageIcon className="size-4.5" />
              </span>
              <span className="flex min-w-0 flex-col">
                <span className="truncate text-sm font-bold text-stone-900 dark:text-white">
                  <span className="sr-only">Nuevo mensaje de </span>
                  {shown.sender}
                </span>
                <span className="truncate text-sm text-stone-700 dark:text-stone-300">{shown.firstLine}</span>
              </span>
            </Link>
            <button
              type="button"
              aria-label="Cerrar aviso"
              onClick={() => setShown(null)}
              className="mr-1.5 grid size-9 shrink-0 place-items-center rounded-xl text-stone-600 hover:bg-stone-900/5 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-400 dark:hover:bg-white/8"
            >
              <CloseIcon className="size-4.5" />
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
