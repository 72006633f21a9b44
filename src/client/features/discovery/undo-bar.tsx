import { useEffect, useState } from 'react';
import type { SwipeAction } from '#shared/discovery/discovery-schemas';
import { type LastSwipe, undoAvailability } from '#shared/discovery/undo';
import { UndoIcon } from '../../ui/icons.tsx';

const DONE: Record<SwipeAction, (name: string) => string> = {
  dislike: (name) => `Has rechazado a ${name}`,
  like: (name) => `Entreno enviado a ${name}`,
  superlike: (name) => `Super Entreno enviado a ${name}`,
};

/** The time, refreshed every half second while `isTicking`. */
function useNow(isTicking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!isTicking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [isTicking]);
  return now;
}

/**
 * "Deshacer" (docs/decisions/0023): for UNDO_WINDOW_MS after a swipe, over the bottom of the deck
 * (never moving it), what was done and the button to take it back, with the seconds left. A swipe
 * that made a match says it cannot be undone.
 */
export function UndoBar({ last, onUndo }: { last: (LastSwipe & { name: string }) | null; onUndo: () => void }) {
  const now = useNow(last !== null);
  const state = undoAvailability(last, now);
  if (!last || state.status === 'none') return null;
  const isMatched = state.status === 'matched';
  return (
    <div className="absolute inset-x-3 bottom-3 z-30 flex items-center gap-3 rounded-2xl bg-stone-950/92 py-2 pl-4 pr-2 text-white shadow-lg ring-1 ring-white/10 backdrop-blur">
      <p role="status" className="min-w-0 flex-1 text-sm font-semibold leading-snug">
        {isMatched ? 'Ya es un entrenamiento: no se puede deshacer' : DONE[last.action](last.name)}
      </p>
      <button
        type="button"
        onClick={onUndo}
        disabled={isMatched}
        className="inline-flex shrink-0 items-center gap-1.5 rounded-full bg-white px-4 py-2 text-sm font-bold text-stone-900 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:bg-white/20 disabled:text-white/80"
      >
        <UndoIcon className="size-4" />
        {isMatched ? 'No se puede deshacer' : 'Deshacer'}
        {!isMatched && (
          <span aria-hidden="true" className="font-semibold tabular-nums text-stone-500">
            {Math.ceil(state.remainingMs / 1000)}
          </span>
        )}
      </button>
    </div>
  );
}
