import { Link } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { groupMessages } from '#shared/time/message-groups';
import { readDraft, writeDraft } from '../../services/drafts.ts';
import { useIsOnline, useReloadWhenOnline } from '../../services/network.ts';
import { session } from '../../services/session.ts';
import { Button } from '../../ui/button.tsx';
import { ArrowLeftIcon, SendIcon } from '../../ui/icons.tsx';
import { OfflinePlaceholder } from '../../ui/offline-placeholder.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import {
  chatState,
  leaveGroup,
  noteTyping,
  openChat,
  reloadChat,
  sendText,
  setGroupMuted,
  stopTyping,
} from './chat-store.ts';
import type { GroupSummary } from '#shared/chat/chat-schemas';
import { ThreadConnectionBanner } from './connection-banner.tsx';
import { ConversationAvatar, SuperEntrenoBadge } from './conversation-avatar.tsx';
import { MessageBubble, readByCount } from './message-bubble.tsx';
import type { ViewMessage } from './message-list.ts';
import { QUICK_REPLIES } from './quick-replies.ts';
import { useKeepEndInView } from './use-keep-end-in-view.ts';
import { scrollBehavior } from '../../ui/reduced-motion.ts';

/** Not in the spec (it shows no unmatch): the open chat of a conversation that ended. */
const CONVERSATION_ENDED = 'Esta conversación ha finalizado. Ya no podéis enviaros mensajes.';
/** A group's thread once it is closed, or once the user is out of it (docs/decisions/0056). */
const GROUP_CLOSED = 'Este grupo está cerrado. Ya no se pueden enviar mensajes.';
const OUT_OF_GROUP = 'Ya no formas parte de este grupo.';

/** Who is typing in a group, by first name: «Bea está escribiendo...», «Bea y Carlos están escribiendo...». */
function groupTypingText(group: GroupSummary, userIds: readonly string[]): string {
  const names = userIds.map((id) => group.members.find((member) => member.userId === id)?.name ?? 'Alguien');
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0]} está escribiendo...`;
  return `${names.slice(0, -1).join(', ')} y ${names.at(-1)} están escribiendo...`;
}

const NO_ENTRIES: readonly ThreadEntry[] = [];
const ENTRY_SENDER = '\u0000entry';

type StreamItem =
  | { senderId: string; timestamp: string; message: ViewMessage; entry?: undefined }
  | { senderId: string; timestamp: string; entry: ThreadEntry; message?: undefined };

/**
 * Messages and entries laid out together by time (spec 001 §2's day separators and groups): an
 * entry is a one-item group of its own, so the newest message or card is always last (issue #34).
 */
function streamItems(messages: readonly ViewMessage[], entries: readonly ThreadEntry[]) {
  return groupMessages<StreamItem>(
    [
      ...messages.map((message) => ({ senderId: message.senderId, timestamp: message.timestamp, message })),
      ...entries.map((entry) => ({ senderId: `${ENTRY_SENDER}:${entry.key}`, timestamp: entry.at, entry })),
    ],
    Date.now(),
  );
}

/** Spec 001 §9: the view scrolls to the newest message after 100 ms. */
const SCROLL_DELAY_MS = 100;

/** /messages/{conversationId} (spec 001 §2). */
/** The header's slot for what other features add (the safety menu, filled in by the route). */
export type RenderChatHeaderActions = (conversation: {
  conversationId: string;
  otherUser: { userId: string; name: string };
}) => ReactNode;

/**
 * The header's slot in a group's chat (the safety feature's report and block menu): the group, its
 * other members and the messages loaded, for a report to name one.
 */
export type RenderGroupActions = (group: {
  conversationId: string;
  ownerId: string | null;
  others: readonly { userId: string; name: string }[];
  messages: readonly { id: string; senderId: string; text: string }[];
  /** Reads the thread again (after a block, the blocked person's messages come back hidden). */
  reload: () => void;
}) => ReactNode;

/**
 * Something another feature places in the thread at its moment, among the messages (a quedada's
 * card): `at` orders it, `signature` changes when it does, so it scrolls into view like a message.
 */
export type ThreadEntry = { key: string; at: string; signature: string; node: ReactNode };

/** What the quedadas feature adds to the chat (issue #21): the header line, the thread's cards, the composer's button. */
export type ChatExtensions = {
  renderHeaderLine?: (conversation: { conversationId: string }) => ReactNode;
  threadEntries?: (conversation: {
    conversationId: string;
    otherUser: { userId: string; name: string };
  }) => readonly ThreadEntry[];
  renderComposerAction?: (conversation: {
    conversationId: string;
    otherUser: { userId: string; name: string };
  }) => ReactNode;
};

export function ChatScreen({
  conversationId,
  renderHeaderActions,
  renderGroupActions,
  extensions = {},
}: {
  conversationId: string;
  renderHeaderActions?: RenderChatHeaderActions;
  renderGroupActions?: RenderGroupActions;
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
  const scrollerRef = useRef<HTMLDivElement>(null);
  useKeepEndInView(scrollerRef);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const conversation = snap.conversation;
  const group = snap.group as GroupSummary | null;
  const name = group?.title || conversation?.otherUser.name || 'Chat';
  const isSuper = conversation?.swipeType === 'superlike';
  // Unmatched, blocked or the other account deleted (docs/decisions/0009, 0012): read-only from now on.
  const hasEnded =
    (conversation !== null && conversation !== undefined && conversation.status !== 'active') ||
    group?.status === 'closed' ||
    snap.isOutOfGroup;
  const endedText = snap.isOutOfGroup ? OUT_OF_GROUP : group ? GROUP_CLOSED : CONVERSATION_ENDED;
  const typingText = group ? groupTypingText(group, snap.typingUserIds) : `${name} está escribiendo...`;
  const others = group?.members.filter((member) => member.userId !== ownUserId) ?? [];
  const [isLeaving, setIsLeaving] = useState(false);
  usePageTitle(name);

  useEffect(() => openChat(conversationId), [conversationId]);
  // Another conversation in the same screen brings its own draft.
  useEffect(() => setTextState(readDraft(ownUserId, conversationId)), [ownUserId, conversationId]);

  const entries = conversation
    ? (extensions.threadEntries?.({
        conversationId,
        otherUser: { userId: conversation.otherUser.userId, name },
      }) ?? NO_ENTRIES)
    : NO_ENTRIES;
  const items = useMemo(() => streamItems(snap.messages as ViewMessage[], entries), [snap.messages, entries]);
  // The newest thing in the stream (a message, or a card that arrived or changed) comes into view.
  const lastKey = `${snap.messages.at(-1)?._id ?? ''}|${entries.map((entry) => entry.signature).join(',')}`;
  useEffect(() => {
    if (lastKey === '|' && !snap.isOtherTyping) return;
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
      {/* Narrow phones first (issue #34): the name keeps the row's room; the marks shrink to icons and
          the next quedada gets its own slim line under the row instead of a squeezed column beside it. */}
      <header className="border-b border-stone-200/80 dark:border-white/8" data-testid="chat-header">
        <div className="flex items-center gap-2 py-2.5 sm:gap-3">
          <Link
            to="/messages"
            aria-label="Volver a Mensajes"
            className="-ml-2 grid size-10 shrink-0 place-items-center rounded-full text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-200 dark:hover:bg-white/8"
          >
            <ArrowLeftIcon className="size-5" />
          </Link>
          {!group && <ConversationAvatar photo={conversation?.otherUser.photo} size="header" />}
          <div className="min-w-0 flex-1">
            <div className="flex min-w-0 items-center gap-2">
              <h1 id="chat-title" className="min-w-0 truncate text-base font-bold text-stone-900 dark:text-white">
                {name}
              </h1>
              {isSuper && <SuperEntrenoBadge />}
            </div>
            {snap.isOtherTyping ? (
              <p
                className="truncate text-xs font-medium text-brand-700 dark:text-brand-400"
                data-testid="header-typing"
              >
                {group ? typingText : 'Escribiendo...'}
              </p>
            ) : (
              group && (
                <p className="truncate text-xs text-stone-600 dark:text-stone-400" data-testid="group-members">
                  {group.members.length} {group.members.length === 1 ? 'miembro' : 'miembros'}: Tú
                  {others.length > 0 ? `, ${others.map((m) => m.name).join(', ')}` : ''}
                </p>
              )
            )}
          </div>
          {group && !snap.isOutOfGroup && (
            <div className="flex shrink-0 items-center gap-1">
              <button
                type="button"
                aria-pressed={group.isMuted}
                onClick={() => void setGroupMuted(!group.isMuted)}
                className="rounded-full px-2.5 py-1.5 text-xs font-semibold text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-white/8"
              >
                {group.isMuted ? 'Activar avisos' : 'Silenciar'}
              </button>
              {/* The host cannot leave their own session's chat (they cancel the session instead). */}
              {group.ownerId !== ownUserId && (
                <button
                  type="button"
                  disabled={isLeaving}
                  onClick={() => {
                    setIsLeaving(true);
                    void leaveGroup().finally(() => setIsLeaving(false));
                  }}
                  className="rounded-full px-2.5 py-1.5 text-xs font-semibold text-red-700 hover:bg-red-50 disabled:opacity-50 dark:text-red-400 dark:hover:bg-red-500/10"
                >
                  Salir
                </button>
              )}
              {renderGroupActions?.({
                conversationId: group.conversationId,
                ownerId: group.ownerId,
                others: others.map((member) => ({ userId: member.userId, name: member.name })),
                messages: snap.messages.flatMap((message) =>
                  message._id && !message.isHidden
                    ? [{ id: message._id, senderId: message.senderId, text: message.text }]
                    : [],
                ),
                reload: () => void reloadChat(),
              })}
            </div>
          )}
          {conversation &&
            renderHeaderActions?.({
              conversationId: conversation.conversationId,
              otherUser: { userId: conversation.otherUser.userId, name },
            })}
        </div>
        {extensions.renderHeaderLine?.({ conversationId })}
      </header>
      <ThreadConnectionBanner />

      {/* A little inset: the incoming bubbles' ring is not cut by the scroller's edge (issue #34). */}
      <div ref={scrollerRef} className="-mx-2 min-h-0 flex-1 overflow-y-auto px-2 py-3" data-testid="chat-scroll">
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
                ) : item.messages[0]?.entry ? (
                  <li key={item.key} data-testid="thread-entry">
                    {item.messages[0].entry.node}
                  </li>
                ) : (
                  <li key={item.key}>
                    <ol className="flex flex-col gap-1">
                      {item.messages.map(
                        ({ message }, index) =>
                          message && (
                            <MessageBubble
                              key={message.clientId ?? message._id}
                              message={message}
                              isOwn={message.senderId === ownUserId}
                              isLast={index === item.messages.length - 1}
                              senderLabel={
                                group && index === 0 && message.senderId !== ownUserId
                                  ? message.senderName || 'Alguien'
                                  : undefined
                              }
                              readBy={
                                group && message.senderId === ownUserId
                                  ? readByCount(group, message, ownUserId)
                                  : undefined
                              }
                            />
                          ),
                      )}
                    </ol>
                  </li>
                ),
              )}
            </ol>
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
                {typingText}
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
          {endedText}
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
