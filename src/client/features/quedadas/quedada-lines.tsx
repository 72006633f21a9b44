import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { Reliability } from '#shared/quedadas/quedada-schemas';
import { reliabilityText, streakText } from '#shared/quedadas/quedada-record';
import { endOf } from '#shared/quedadas/quedada-state';
import { quedadaWhenShort } from '#shared/quedadas/quedada-time';
import { useState } from 'react';
import type { StoredQuedada } from '../../services/local-db.ts';
import { CalendarIcon, FlameIcon } from '../../ui/icons.tsx';
import { loadPairs, pairsState, watchPairs } from './pairs-store.ts';
import { quedadaApi } from './quedada-api.ts';

/** The pair's line: "Próximo entreno: jue, 12 mar, 18:00 · Racha de 2 semanas entrenando juntos". */
function PairLine({
  next,
  streakWeeks,
  className,
}: {
  next: { startsAt: string; isConfirmed: boolean } | null;
  streakWeeks: number;
  className?: string;
}) {
  if (!next && streakWeeks === 0) return null;
  return (
    <p className={className} data-testid="pair-line">
      {next && (
        <span className="inline-flex min-w-0 items-center gap-1" data-testid="pair-next">
          <CalendarIcon className="size-3.5 shrink-0" />
          <span className="truncate">
            {next.isConfirmed ? 'Próximo entreno' : 'Entreno propuesto'}: {quedadaWhenShort(next.startsAt)}
          </span>
        </span>
      )}
      {next && streakWeeks > 0 && (
        <span aria-hidden="true" className="shrink-0">
          {' '}
          ·{' '}
        </span>
      )}
      {streakWeeks > 0 && (
        <span className="inline-flex min-w-0 items-center gap-1" data-testid="pair-streak">
          <FlameIcon className="size-3.5 shrink-0" />
          <span className="truncate">{streakText(streakWeeks)}</span>
        </span>
      )}
    </p>
  );
}

/**
 * The chat header's slim line under the name row: the next quedada from the device (right offline)
 * and the streak from the server, one line that ellipsizes rather than wraps (issue #34).
 */
export function QuedadaHeaderLine({
  conversationId,
  quedadas,
}: {
  conversationId: string;
  quedadas: readonly StoredQuedada[];
}) {
  const snap = useSnapshot(pairsState);
  useEffect(() => {
    watchPairs();
    void loadPairs();
  }, []);
  const now = Date.now();
  const next = [...quedadas]
    .filter((quedada) => ['proposed', 'countered', 'accepted'].includes(quedada.status) && endOf(quedada) > now)
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt))[0];
  return (
    <PairLine
      next={next ? { startsAt: next.startsAt, isConfirmed: next.status === 'accepted' } : null}
      streakWeeks={snap.byConversation[conversationId]?.streakWeeks ?? 0}
      className="-mt-1 flex min-w-0 items-center gap-x-1 overflow-hidden whitespace-nowrap pb-2 text-xs font-medium text-stone-600 dark:text-stone-300"
    />
  );
}

/** The match card's line (same facts, from the server's pair summaries). */
export function QuedadaMatchLine({ conversationId }: { conversationId: string }) {
  const snap = useSnapshot(pairsState);
  useEffect(() => {
    watchPairs();
    void loadPairs();
  }, []);
  const pair = snap.byConversation[conversationId];
  if (!pair) return null;
  return (
    <PairLine
      next={pair.next ? { startsAt: pair.next.startsAt, isConfirmed: pair.next.status === 'accepted' } : null}
      streakWeeks={pair.streakWeeks}
      className="flex flex-col gap-0.5 text-xs font-semibold text-brand-800 dark:text-brand-300"
    />
  );
}

/** "8 de 9 quedadas cumplidas" on a profile as a match sees it (nothing when hidden or empty). */
export function ReliabilityLine({ userId }: { userId: string }) {
  const [reliability, setReliability] = useState<Reliability | null>(null);
  useEffect(() => {
    let isCurrent = true;
    quedadaApi
      .reliability(userId)
      .then((answer) => isCurrent && setReliability(answer.reliability))
      .catch(() => isCurrent && setReliability(null));
    return () => {
      isCurrent = false;
    };
  }, [userId]);
  if (!reliability) return null;
  return (
    <p className="text-sm font-semibold text-stone-700 dark:text-stone-200" data-testid="reliability-line">
      {reliabilityText(reliability)}
    </p>
  );
}
