import { Link } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { madridClock } from '#shared/time/madrid-calendar';
import { groupMessages } from '#shared/time/message-groups';
import { readDraft, writeDraft } from '../../services/drafts.ts';
import { useIsOnline, useReloadWhenOnline } from '../../services/network.ts';
import { session } from '../../services/session.ts';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { ArrowLeftIcon, SendIcon } from '../../ui/icons.tsx';
import { OfflinePlaceholder } from '../../ui/offline-placeholder.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { chatState, noteTyping, openChat, reloadChat, retryMessage, sendText, stopTyping } from './chat-store.ts';
import { ConnectionBanner } from './connection-banner.tsx';
import { ConversationAvatar, SuperEntrenoBadge } from './conversation-avatar.tsx';
import { MESSAGE_STATUS_LABELS, type ViewMessage } from './message-list.ts';
import { QUICK_REPLIES } from './quick-replies.ts';
import { scrollBehavior } from '../../ui/reduced-motion.ts';

/** Not in the spec (it shows no unmatch): the open chat of a conversation that ended. */
const CONVERSATION_ENDED = 'Esta conversación ha finalizado. Ya no podéis enviaros mensajes.';

/** Spec 001 §9: the view scrolls to the newest message after 100 ms. */
const SCROLL_DELAY_MS = 100;

function MessageBubble({ message, isOwn, isLast }: { message: ViewMessage; isOwn: boolean; isLast: boolean }) {
  return (
    <li
      className={cx('flex flex-col', isOwn ? 'items-end' : 'items-start')}
      data-testid="chat-message"
      data-own={isOwn}
    >
      <div
        className={cx(
          'max-w-[80%] whitespace-pre-wrap break-words rounded-2xl px-3.5 py-2 text-[0.9375rem] leading-snug sm:max-w-[70%]',
          isOwn
            ? 'bg-brand-700 text-white dark:bg-brand-500 dark:text-stone-950'
            : 'bg-white text-stone-900 ring-1 ring-stone-200 dark:bg-stone-800 dark:text-stone-100 dark:ring-white/8',
          isOwn ? (isLast ? 'rounded-br-md' : '') : isLast ? 'rounded-bl-md' : '',
          message.status === 'error' && 'opacity-70',
        )}
      >
        {message.text}
      </div>
      {isLast && (
        <div className="mt-1 flex items-center gap-2 px-1 text-[0.6875rem] text-stone-500 dark:text-stone-400">
          <time dateTime={message.timestamp}>{madridClock(message.timestamp)}</time>
          {isOwn && (
            <span
              data-testid="message-status"
              className={cx(
                message.status === 'error' && 'font-semibold text-red-700 dark:text-red-400',
                message.status === 'read' && 'text-brand-700 dark:text-brand-400',
              )}
            >
              · {MESSAGE_STATUS_LABELS[message.status]}
            </span>
          )}
          {isOwn && message.status === 'error' && message.clientId && (
            <button
              type="button"
              onClick={() => retryMessage(message.clientId as string)}
              className="font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-400"
            >
              Reintentar
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/** /messages/{conversationId} (spec 001 §2). */
/** The header's slot for what other features add (the safety menu, filled in by the route). */
export type RenderChatHeaderActions = (conversation: {
  conversationId: string;
  otherUser: { userId: string; name: string };
}) => ReactNode;

/** What the quedadas feature adds to the chat (issue #21): the header line, the thread's cards, the composer's button. */
export type ChatExtensions = {
  renderHeaderLine?: (conversation: { conversationId: string }) => ReactNode;
  renderThreadEnd?: (conversation: {
    conversationId: string;
    otherUser: { userId: string; name: string };
  }) => ReactNode;
  renderComposerAction?: (conversation: {
    conversationId: string;
    otherUser: { userId: string; name: string };
  }) => ReactNode;
};

export function ChatScreen({
  conversationId,
  renderHeaderActions,
  extensions = {},
}: {
  conversationId: string;
  renderHeaderActions?: RenderChatHeaderActions;
  extensions?: ChatExtensions;
}) {
  const snap = useSnapshot(chatState);
  const isOnline = useIsOnline();
  // The socket's reconnect reloads the thread too; this covers a browser back online before it.
  useReloadWhenOnline(snap.view.status === 'error', reloadChat);
  const ownUserId = session.current()?.user.userId ?? '';
  // The draft outlives a reload (a new version applied under it, QUALITY 21) and navigation.
  const [text, setTextState] = useState(() => readDraft(ownUserId, conversationId));
  const setText = (next: string) => {
    setTextState(next);
    writeDraft(ownUserId, conversationId, next);
  };
  const [isQuickOpen, setIsQuickOpen] = useState(false);
  const endRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const conversation = snap.conversation;
  const name = conversation?.otherUser.name || 'Chat';
  const isSuper = conversation?.swipeType === 'superlike';
  // Unmatched, blocked or the other account deleted (docs/decisions/0009, 0012): read-only from now on.
  const hasEnded = conversation !== null && conversation !== undefined && conversation.status !== 'active';
  usePageTitle(name);

  useEffect(() => openChat(conversationId), [conversationId]);
  // Another conversation in the same screen brings its own draft.
  useEffect(() => setTextState(readDraft(ownUserId, conversationId)), [ownUserId, conversationId]);

  const items = useMemo(() => groupMessages(snap.messages as ViewMessage[], Date.now()), [snap.messages]);
  const lastKey = snap.messages.at(-1)?._id;
  useEffect(() => {
    if (!lastKey && !snap.isOtherTyping) return;
    const timer = setTimeout(
      () => endRef.current?.scrollIntoView({ behavior: scrollBehavior(), block: 'end' }),
      SCROLL_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [lastKey, snap.isOtherTyping]);

  // The quick replies take room from the thread: keep its newest message in view, never cut in half.
  useEffect(() => {
    if (isQuickOpen) endRef.current?.scrollIntoView({ block: 'end' });
  }, [isQuickOpen]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (sendText(text)) {
      setText('');
      stopTyping();
    }
  };

  return (
    <section
      aria-labelledby="chat-title"
      // The phone layout hides its bottom bar here: the thread takes all but the top bar (3.5rem).
      className="-my-6 flex h-[calc(100dvh-3.5rem-env(safe-area-inset-bottom))] flex-col lg:-my-10 lg:h-dvh"
    >
      <header className="flex items-center gap-3 border-b border-stone-200/80 py-3 dark:border-white/8">
        <Link
          to="/messages"
          aria-label="Volver a Mensajes"
          className="grid size-10 shrink-0 place-items-center rounded-full text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-200 dark:hover:bg-white/8"
        >
          <ArrowLeftIcon className="size-5" />
        </Link>
        <ConversationAvatar photo={conversation?.otherUser.photo} size="header" />
        <div className="min-w-0 flex-1">
          <h1 id="chat-title" className="truncate text-base font-bold text-stone-900 dark:text-white">
            {name}
          </h1>
          {snap.isOtherTyping ? (
            <p className="text-xs font-medium text-brand-700 dark:text-brand-400">Escribiendo...</p>
          ) : (
            extensions.renderHeaderLine?.({ conversationId })
          )}
        </div>
        {isSuper && <SuperEntrenoBadge />}
        {conversation &&
          renderHeaderActions?.({
            conversationId: conversation.conversationId,
            otherUser: { userId: conversation.otherUser.userId, name },
          })}
      </header>
      {/* Over the top of the thread, not above it: showing or hiding it never moves the messages. */}
      <div className="relative z-10 h-0">
        <div className="absolute inset-x-0 top-2 flex justify-center">
          <ConnectionBanner />
        </div>
      </div>

      <div className="min-h-0 flex-1 overflow-y-auto py-3" data-testid="chat-scroll">
        {snap.view.status === 'loading' && (
          <div className="grid h-full place-items-center">
            <Spinner label="Cargando mensajes..." />
          </div>
        )}
        {snap.view.status === 'error' && !isOnline && <OfflinePlaceholder className="mx-4 my-6" />}
        {snap.view.status === 'error' && isOnline && (
          <div role="alert" className="flex h-full flex-col items-center justify-center gap-4 text-center">
            <p className="font-semibold text-stone-800 dark:text-stone-100">{snap.view.message}</p>
            <Button variant="secondary" onClick={() => window.location.reload()}>
              Reintentar
            </Button>
          </div>
        )}
        {snap.view.status === 'ready' && (
          <>
            {items.length === 0 && (
              <p className="px-6 py-10 text-center text-sm text-stone-600 dark:text-stone-400">
                Aún no hay mensajes. ¡Rompe el hielo y propón un entreno!
              </p>
            )}
            <ol className="flex flex-col gap-3" aria-label="Mensajes">
              {items.map((item) =>
                item.kind === 'date' ? (
                  <li key={item.key} className="my-1 flex justify-center" data-testid="date-separator">
                    <span className="rounded-full bg-stone-100 px-3 py-1 text-xs font-semibold text-stone-600 dark:bg-white/8 dark:text-stone-300">
                      {item.label}
                    </span>
                  </li>
                ) : (
                  <li key={item.key}>
                    <ol className="flex flex-col gap-1">
                      {item.messages.map((message, index) => (
                        <MessageBubble
                          key={message.clientId ?? message._id}
                          message={message}
                          isOwn={message.senderId === ownUserId}
                          isLast={index === item.messages.length - 1}
                        />
                      ))}
                    </ol>
                  </li>
                ),
              )}
            </ol>
            {conversation &&
              extensions.renderThreadEnd?.({
                conversationId,
                otherUser: { userId: conversation.otherUser.userId, name },
              })}
            {snap.isOtherTyping && (
              <div
                data-testid="typing-indicator"
                className="mt-3 flex items-center gap-2 text-sm text-stone-600 dark:text-stone-400"
              >
                <span
                  className="inline-flex gap-1 rounded-2xl bg-white px-3 py-2.5 ring-1 ring-stone-200 dark:bg-stone-800 dark:ring-white/8"
                  aria-hidden="true"
                >
                  <span className="size-1.5 animate-bounce rounded-full bg-stone-400 motion-reduce:animate-none" />
                  <span className="size-1.5 animate-bounce rounded-full bg-stone-400 [animation-delay:150ms] motion-reduce:animate-none" />
                  <span className="size-1.5 animate-bounce rounded-full bg-stone-400 [animation-delay:300ms] motion-reduce:animate-none" />
                </span>
                {name} está escribiendo...
              </div>
            )}
          </>
        )}
        <div ref={endRef} />
      </div>

      {hasEnded ? (
        <p
          role="status"
          className="border-t border-stone-200/80 px-2 py-4 text-center text-sm font-medium text-stone-600 dark:border-white/8 dark:text-stone-300"
        >
          {CONVERSATION_ENDED}
        </p>
      ) : (
        <>
          {isQuickOpen && (
            <div
              id="quick-replies"
              className="flex max-h-36 flex-wrap gap-2 overflow-y-auto border-t border-stone-200/80 py-3 dark:border-white/8"
            >
              {QUICK_REPLIES.map((reply) => (
                <button
                  key={reply}
                  type="button"
                  onClick={() => {
                    setText(reply);
                    setIsQuickOpen(false);
                    inputRef.current?.focus();
                  }}
                  className="rounded-full bg-stone-100 px-3 py-1.5 text-sm font-medium text-stone-800 hover:bg-brand-50 hover:text-brand-800 dark:bg-white/8 dark:text-stone-100 dark:hover:bg-brand-500/15 dark:hover:text-brand-200"
                >
                  {reply}
                </button>
              ))}
            </div>
          )}
          <form
            onSubmit={submit}
            className="flex flex-col gap-2 border-t border-stone-200/80 pb-3 pt-2 dark:border-white/8"
          >
            <div className="flex flex-wrap items-center gap-1">
              <button
                type="button"
                aria-expanded={isQuickOpen}
                aria-controls="quick-replies"
                onClick={() => setIsQuickOpen((open) => !open)}
                className="self-start rounded-full px-2 py-1 text-xs font-semibold text-brand-700 hover:bg-brand-50 dark:text-brand-400 dark:hover:bg-brand-500/12"
              >
                Respuestas rápidas
              </button>
              {conversation &&
                extensions.renderComposerAction?.({
                  conversationId,
                  otherUser: { userId: conversation.otherUser.userId, name },
                })}
            </div>
            <div className="flex items-end gap-2">
              <label htmlFor="chat-input" className="sr-only">
                Mensaje
              </label>
              <textarea
                id="chat-input"
                ref={inputRef}
                rows={1}
                value={text}
                placeholder="Escribe un mensaje..."
                maxLength={2000}
                onFocus={() => setIsQuickOpen(false)}
                onChange={(event) => {
                  setText(event.target.value);
                  noteTyping();
                }}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && !event.shiftKey) {
                    event.preventDefault();
                    submit();
                  }
                }}
                className="max-h-32 min-h-11 flex-1 resize-none rounded-2xl border border-stone-300 bg-white px-4 py-2.5 text-[0.9375rem] text-stone-900 placeholder:text-stone-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 dark:border-white/15 dark:bg-stone-900 dark:text-white dark:placeholder:text-stone-400"
              />
              <button
                type="submit"
                disabled={text.trim() === ''}
                aria-label="Enviar"
                className="grid size-11 shrink-0 place-items-center rounded-full bg-brand-700 text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-40 dark:bg-brand-500 dark:text-stone-950"
              >
                <SendIcon className="size-5" />
              </button>
            </div>
          </form>
        </>
      )}
    </section>
  );
}
