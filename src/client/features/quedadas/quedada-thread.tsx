import { useEffect, useRef, useState } from 'react';
import { ACTIVE_STATUSES, OPEN_STATUSES } from '#shared/quedadas/quedada-schemas';
import { endOf } from '#shared/quedadas/quedada-state';
import { readQuedadas, type StoredQuedada } from '../../services/local-db.ts';
import { connection } from '../../services/socket.ts';
import { useLiveQuery } from '../../services/use-live-query.ts';
import { DumbbellIcon } from '../../ui/icons.tsx';
import { QuedadaCard } from './quedada-card.tsx';
import { QuedadaForm } from './quedada-form.tsx';
import { proposeQuedada, refreshConversationQuedadas } from './quedada-store.ts';
import { scrollBehavior } from '../../ui/reduced-motion.ts';

/** How many closed quedadas stay visible under the one in play. */
const CLOSED_SHOWN = 2;

const EMPTY: StoredQuedada[] = [];

/** The conversation's quedadas from the device's store, refreshed from the server on open and reconnect. */
export function useConversationQuedadas(conversationId: string): StoredQuedada[] {
  useEffect(() => {
    void refreshConversationQuedadas(conversationId);
    let wasConnected = connection.getSnapshot().status === 'connected';
    return connection.subscribe(() => {
      const isConnected = connection.getSnapshot().status === 'connected';
      if (isConnected && !wasConnected) void refreshConversationQuedadas(conversationId);
      wasConnected = isConnected;
    });
  }, [conversationId]);
  return useLiveQuery(`quedadas:${conversationId}`, (db) => readQuedadas(db, conversationId), EMPTY);
}

/** The cards that belong in the thread: the one in play (or waiting to be sent) and the latest closed ones. */
export function visibleQuedadas(list: readonly StoredQuedada[]): StoredQuedada[] {
  const open = list.filter((quedada) => ACTIVE_STATUSES.includes(quedada.status) || quedada.sync !== 'synced');
  const awaitingAnswer = list.filter(
    (quedada) =>
      !open.includes(quedada) && quedada.status === 'missed' && Object.values(quedada.confirmations).includes(null),
  );
  const closed = list
    .filter((quedada) => !open.includes(quedada) && !awaitingAnswer.includes(quedada))
    .slice(0, CLOSED_SHOWN);
  return [...closed.reverse(), ...awaitingAnswer, ...open.reverse()];
}

/** "Proponer entreno", next to the composer; disabled while a quedada is in play. */
export function QuedadaComposerButton({
  conversationId,
  otherUserId,
  quedadas,
}: {
  conversationId: string;
  otherUserId: string;
  quedadas: readonly StoredQuedada[];
}) {
  const [isOpen, setIsOpen] = useState(false);
  // An open proposal, or an accepted quedada that has not ended yet (docs/decisions/0029).
  const now = Date.now();
  const isBusy = quedadas.some(
    (quedada) => OPEN_STATUSES.includes(quedada.status) || (quedada.status === 'accepted' && endOf(quedada) > now),
  );
  return (
    <>
      <button
        type="button"
        onClick={() => setIsOpen(true)}
        disabled={isBusy}
        title={isBusy ? 'Ya hay una quedada en marcha en esta conversación' : undefined}
        className="inline-flex items-center gap-1.5 self-start rounded-full px-2 py-1 text-xs font-semibold text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:opacity-50 dark:text-brand-400 dark:hover:bg-brand-500/12"
      >
        <DumbbellIcon className="size-4" />
        Proponer entreno
      </button>
      {isOpen && (
        <QuedadaForm
          mode="propose"
          conversationId={conversationId}
          onClose={() => setIsOpen(false)}
          onSubmit={(values) => {
            setIsOpen(false);
            void proposeQuedada({ ...values, conversationId }, otherUserId);
          }}
        />
      )}
    </>
  );
}

/** The quedada cards at the end of the thread, newest last (like messages). */
export function QuedadaThread({
  quedadas,
  ownUserId,
  otherName,
}: {
  quedadas: readonly StoredQuedada[];
  ownUserId: string;
  otherName: string;
}) {
  const visible = visibleQuedadas(quedadas);
  const listRef = useRef<HTMLOListElement>(null);
  const last = visible.at(-1);
  const signature = last ? `${last.key}:${last.version}:${last.status}:${last.sync}` : '';
  // A card that arrives or changes while the chat is open comes into view, like a new message.
  useEffect(() => {
    if (!signature) return;
    listRef.current?.lastElementChild?.scrollIntoView({ block: 'nearest', behavior: scrollBehavior() });
  }, [signature]);
  if (visible.length === 0) return null;
  return (
    <ol ref={listRef} aria-label="Quedadas" className="mt-3 flex flex-col">
      {visible.map((quedada) => (
        <QuedadaCard key={quedada.key} quedada={quedada} ownUserId={ownUserId} otherName={otherName} />
      ))}
    </ol>
  );
}
