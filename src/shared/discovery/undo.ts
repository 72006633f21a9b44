/**
 * "Deshacer" (docs/decisions/0023): the last swipe can be taken back for a short while after it,
 * free, unless it already made a match (unmatching exists for that). A pure rule, so the deck's
 * button and its tests read the same clock arithmetic.
 */
import type { SwipeAction } from './discovery-schemas.ts';

/** How long after a swipe its "Deshacer" button stays. */
export const UNDO_WINDOW_MS = 10_000;

/** The last swipe of this deck, as the client remembers it. */
export type LastSwipe = {
  readonly targetUserId: string;
  readonly action: SwipeAction;
  /** The swipe's outbox id: the undo names it, so a replay never takes back a newer swipe. */
  readonly clientId: string;
  /** When it was made (milliseconds, the client's clock). */
  readonly at: number;
  /** True once the server said this swipe made a match. */
  readonly isMatch: boolean;
};

export type UndoAvailability =
  | { readonly status: 'none' }
  | { readonly status: 'available'; readonly remainingMs: number }
  | { readonly status: 'matched' };

/** Whether the last swipe can be undone at `now`: within UNDO_WINDOW_MS of it, and not a match. */
export function undoAvailability(last: LastSwipe | null, now: number): UndoAvailability {
  if (!last) return { status: 'none' };
  const elapsed = now - last.at;
  // A clock set back (elapsed < 0) is not a reason to offer an undo for ever.
  if (elapsed < 0 || elapsed >= UNDO_WINDOW_MS) return { status: 'none' };
  if (last.isMatch) return { status: 'matched' };
  return { status: 'available', remainingMs: UNDO_WINDOW_MS - elapsed };
}
