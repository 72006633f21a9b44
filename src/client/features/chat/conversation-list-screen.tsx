import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { CHAT_MESSAGES } from '#shared/chat/chat-messages';
import type { ConversationSummary } from '#shared/chat/chat-schemas';
import { useIsOnline, useReloadWhenOnline } from '../../services/network.ts';
import { session } from '../../services/session.ts';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { Dialog } from '../../ui/dialog.tsx';
import { DotsIcon, MessageIcon, MutedIcon, PinIcon } from '../../ui/icons.tsx';
import { OfflinePlaceholder } from '../../ui/offline-placeholder.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { ConnectionBanner } from './connection-banner.tsx';
import { ConversationAvatar } from './conversation-avatar.tsx';
import { GroupList, useGroups } from './group-list.tsx';
import { ListName, ListPreview, ListTime, UnreadBadge } from './list-row-parts.tsx';
import {
  archiveConversation,
  conversationsState,
  holdListRooms,
  loadConversations,
  loadMoreConversations,
  startConversationUpdates,
  toggleMuted,
  togglePinned,
  toggleSuperEntreno,
  unmatchConversation,
} from './conversations-store.ts';

function ListSkeleton() {
  return (
    <ul aria-hidden="true" className="flex flex-col gap-2" data-testid="conversations-skeleton">
      {[0, 1, 2, 3, 4].map((index) => (
        <li key={index} className="flex items-center gap-3 rounded-2xl p-3">
          <span className="size-13 shrink-0 animate-pulse rounded-full bg-stone-200 motion-reduce:animate-none dark:bg-white/10" />
          <span className="flex flex-1 flex-col gap-2">
            <span className="h-3.5 w-2/5 animate-pulse rounded bg-stone-200 motion-reduce:animate-none dark:bg-white/10" />
            <span className="h-3 w-4/5 animate-pulse rounded bg-stone-100 motion-reduce:animate-none dark:bg-white/6" />
          </span>
        </li>
      ))}
    </ul>
  );
}

type ItemProps = {
  conversation: ConversationSummary;
  now: number;
  ownUserId: string;
  onUnmatch(conversation: ConversationSummary): void;
  onAlert(message: string): void;
};

const menuItemClasses =
  'block w-full rounded-lg px-3 py-2 text-left text-sm font-medium text-stone-700 data-[focus]:bg-stone-100 dark:text-stone-200 dark:data-[focus]:bg-white/8';

function ConversationItem({ conversation, now, ownUserId, onUnmatch, onAlert }: ItemProps) {
  const { otherUser, lastMessage, unreadCount } = conversation;
  const isSuper = conversation.swipeType === 'superlike';
  const hasUnread = unreadCount > 0;
  const preview = lastMessage ? `${lastMessage.senderId === ownUserId ? 'Tú: ' : ''}${lastMessage.text}` : 'Di hola 👋';
  const name = otherUser.name || 'Chat';
  const id = conversation.conversationId;
  const actions: { label: string; run(): void; isDanger?: boolean }[] = [
    { label: conversation.isPinned ? 'Desfijar' : 'Fijar', run: () => void togglePinned(id) },
    { label: conversation.isMuted ? 'Quitar silencio' : 'Silenciar', run: () => void toggleMuted(id) },
    {
      label: isSuper ? 'Quitar súper entreno' : 'Marcar como súper entreno',
      run: async () => {
        const outcome = await toggleSuperEntreno(id);
        if (outcome.status === 'refused') onAlert(outcome.message);
      },
    },
    { label: 'Archivar', run: () => void archiveConversation(id) },
    { label: 'Deshacer match', run: () => onUnmatch(conversation), isDanger: true },
  ];
  return (
    <li className="relative" data-testid="conversation-item" data-conversation-id={conversation.conversationId}>
      <Link
        to="/messages/$conversationId"
        params={{ conversationId: conversation.conversationId }}
        className="flex items-center gap-3 rounded-2xl p-3 pr-12 transition-colors duration-150 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 motion-reduce:transition-none dark:hover:bg-white/5 dark:focus-visible:outline-brand-400"
      >
        <ConversationAvatar photo={otherUser.photo} size="list" isSuper={isSuper} />
        <span className="min-w-0 flex-1">
          <span className="flex items-center gap-1.5">
            <ListName hasUnread={hasUnread}>{name}</ListName>
            {conversation.isPinned && (
              <span title="Fijada" className="text-brand-700 dark:text-brand-400">
                <PinIcon className="size-3.5" />
                <span className="sr-only">, fijada</span>
              </span>
            )}
            {conversation.isMuted && (
              <span title="Silenciada" className="text-stone-500 dark:text-stone-400">
                <MutedIcon className="size-3.5" />
                <span className="sr-only">, silenciada</span>
              </span>
            )}
            <ListTime timestamp={lastMessage?.timestamp} now={now} />
          </span>
          <span className="mt-0.5 flex items-center gap-2">
            <ListPreview text={preview} hasUnread={hasUnread} testId="conversation-preview" />
            {hasUnread && <UnreadBadge count={unreadCount} testId="unread-badge" />}
          </span>
        </span>
      </Link>
      <Menu>
        <MenuButton
          aria-label={`Acciones de la conversación con ${name}`}
          className="absolute right-2 top-1/2 grid size-9 -translate-y-1/2 place-items-center rounded-full text-stone-500 hover:bg-stone-200/70 hover:text-stone-800 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-400 dark:hover:bg-white/10 dark:hover:text-white"
        >
          <DotsIcon className="size-5" />
        </MenuButton>
        <MenuItems
          anchor="bottom end"
          className="z-40 w-56 rounded-xl border border-stone-200 bg-white p-1 shadow-lg outline-none dark:border-white/10 dark:bg-stone-900"
        >
          {actions.map((action) => (
            <MenuItem key={action.label}>
              <button
                type="button"
                className={cx(menuItemClasses, action.isDanger && '!text-red-700 dark:!text-red-400')}
                onClick={action.run}
              >
                {action.label}
              </button>
            </MenuItem>
          ))}
        </MenuItems>
      </Menu>
    </li>
  );
}

/** Loads the next page when the end of the list is 10% visible (spec 001 §9). */
function LoadMoreSentinel() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void loadMoreConversations();
      },
      { threshold: 0.1 },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return <div ref={ref} className="h-4" />;
}

function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** /messages (spec 001 §2). */
export function ConversationListScreen() {
  const snap = useSnapshot(conversationsState);
  const now = useNow();
  const [toUnmatch, setToUnmatch] = useState<ConversationSummary | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const ownUserId = session.current()?.user.userId ?? '';
  const count = snap.conversations.length;
  usePageTitle(`Mensajes (${count})`);

  useEffect(() => {
    startConversationUpdates();
    void loadConversations();
  }, []);
  // On screen, the listed conversations' rooms are joined (five at a time, at most 20).
  useEffect(() => holdListRooms(), []);

  const groups = useGroups();
  // The groups' section and the conversations are drawn together (no list pushed down by late groups).
  const view = groups.hasSettled || snap.view.status !== 'ready' ? snap.view : ({ status: 'loading' } as const);
  const isOnline = useIsOnline();
  useReloadWhenOnline(view.status === 'error', loadConversations);
  return (
    <section aria-labelledby="messages-title" className="flex flex-col gap-4">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="messages-title" className="text-2xl font-bold tracking-tight text-stone-900 dark:text-white">
          Mensajes ({count})
        </h1>
        <ConnectionBanner isHiddenWhenConnected />
      </header>

      {groups.hasSettled && <GroupList groups={groups.groups} ownUserId={ownUserId} now={now} />}

      {(view.status === 'loading' || view.status === 'idle') && (groups.hasSettled || groups.hasReadCopy) && (
        <ListSkeleton />
      )}

      {view.status === 'error' && !isOnline && <OfflinePlaceholder />}
      {view.status === 'error' && isOnline && (
        <div
          role="alert"
          className="flex flex-col items-center gap-4 rounded-3xl border border-stone-200 px-6 py-12 text-center dark:border-white/10"
        >
          <p className="font-semibold text-stone-800 dark:text-stone-100">{view.message}</p>
          <Button variant="secondary" onClick={() => void loadConversations()}>
            Reintentar
          </Button>
        </div>
      )}

      {view.status === 'ready' && count === 0 && (
        <div className="flex flex-col items-center gap-3 rounded-3xl border border-dashed border-stone-300 px-6 py-14 text-center dark:border-white/15">
          <span className="grid size-14 place-items-center rounded-full bg-brand-50 text-brand-700 dark:bg-brand-500/12 dark:text-brand-300">
            <MessageIcon className="size-7" />
          </span>
          <p className="font-semibold text-stone-800 dark:text-stone-100">{CHAT_MESSAGES.noConversations}</p>
          <p className="max-w-xs text-sm text-stone-600 dark:text-stone-400">
            Cuando hagas match con alguien, podréis quedar para entrenar desde aquí.
          </p>
          <Link
            to="/home"
            className="text-sm font-semibold text-brand-700 underline-offset-4 hover:underline dark:text-brand-400"
          >
            Buscar compañeros
          </Link>
        </div>
      )}

      {view.status === 'ready' && count > 0 && (
        <>
          <ul className="-mx-2 flex flex-col gap-0.5" aria-label="Conversaciones">
            {snap.conversations.map((conversation) => (
              <ConversationItem
                key={conversation.conversationId}
                conversation={conversation as ConversationSummary}
                now={now}
                ownUserId={ownUserId}
                onUnmatch={setToUnmatch}
                onAlert={setAlert}
              />
            ))}
          </ul>
          {view.hasMore && <LoadMoreSentinel />}
          {view.isLoadingMore && (
            <div className="flex justify-center py-2">
              <Spinner size="sm" />
            </div>
          )}
        </>
      )}

      <Dialog
        open={toUnmatch !== null}
        onClose={() => setToUnmatch(null)}
        title="¿Deshacer match?"
        description={`${toUnmatch?.otherUser.name || 'Esta persona'} dejará de aparecer en tus mensajes y no podréis seguir chateando.`}
        actions={
          <>
            <Button variant="secondary" onClick={() => setToUnmatch(null)}>
              Cancelar
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                if (toUnmatch) void unmatchConversation(toUnmatch.conversationId);
                setToUnmatch(null);
              }}
            >
              Deshacer match
            </Button>
          </>
        }
      />
      <Dialog
        open={alert !== null}
        onClose={() => setAlert(null)}
        title="Súper entreno"
        description={alert ?? ''}
        actions={<Button onClick={() => setAlert(null)}>Entendido</Button>}
      />
    </section>
  );
}
