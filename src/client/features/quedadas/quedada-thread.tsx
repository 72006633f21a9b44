import { type ReactNode, useEffect, useId, useState } from 'react';
import { ACTIVE_STATUSES, OPEN_STATUSES } from '#shared/quedadas/quedada-schemas';
import { endOf } from '#shared/quedadas/quedada-state';
import { busyReasonText } from '#shared/quedadas/quedada-time';
import { readQuedadas, type StoredQuedada } from '../../services/local-db.ts';
import { connection } from '../../services/socket.ts';
import { useLiveQuery } from '../../services/use-live-query.ts';
import { DumbbellIcon } from '../../ui/icons.tsx';
import { QuedadaCard } from './quedada-card.tsx';
import { QuedadaForm } from './quedada-form.tsx';
import { proposeQuedada, refreshConversationQuedadas } from './quedada-store.ts';

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
  const reasonId = useId();
  // An open proposal, or an accepted quedada that has not ended yet (docs/decisions/0029).
  const now = new Date();
  const busy = quedadas.find(
    (quedada) =>
      OPEN_STATUSES.includes(quedada.status) || (quedada.status === 'accepted' && endOf(quedada) > now.getTime()),
  );
  return (
    <>
      <button
        type="button"
        onClick={() => setIsOpen(true)}
        disabled={!!busy}
        aria-describedby={busy ? reasonId : undefined}
        className="inline-flex items-center gap-1.5 self-start rounded-full px-2 py-1 text-xs font-semibold text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:opacity-50 dark:text-brand-400 dark:hover:bg-brand-500/12"
      >
        <DumbbellIcon className="size-4" />
        Proponer entreno
      </button>
      {/* Greyed out with no reason read as broken (issue #34): say why, beside it. */}
      {busy && (
        <span id={reasonId} className="text-xs text-stone-600 dark:text-stone-400" data-testid="propose-busy-reason">
          {busyReasonText(busy, now)}
        </span>
      )}
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

/** A card the chat places in its stream (the chat's ThreadEntry, matched by shape). */
export type QuedadaEntry = { key: string; at: string; signature: string; node: ReactNode };

/**
 * The quedada cards as thread entries (issue #34): each at the moment it was proposed, among the
 * messages, so later messages land under it; one that asks "¿Entrenasteis?" at the session's end.
 */
export function quedadaEntries(
  quedadas: readonly StoredQuedada[],
  ownUserId: string,
  otherName: string,
): QuedadaEntry[] {
  return visibleQuedadas(quedadas).map((quedada) => {
    const isAsking = quedada.status === 'missed' && Object.values(quedada.confirmations).includes(null);
    return {
      key: quedada.key,
      at: isAsking ? new Date(endOf(quedada)).toISOString() : quedada.createdAt,
      signature: `${quedada.key}:${quedada.version}:${quedada.status}:${quedada.sync}`,
      node: <QuedadaCard quedada={quedada} ownUserId={ownUserId} otherName={otherName} />,
    };
  });
}
