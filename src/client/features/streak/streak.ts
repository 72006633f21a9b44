/**
 * The login streak in the signed-in frame (spec 001 §2): "¡Primer día!" on day 1, otherwise
 * "Racha: N días". The number is the stored user's, which the session service keeps up to date.
 */
import { useSyncExternalStore } from 'react';
import { parseStoredUser } from '../../services/session.ts';
import { tokenStorage } from '../../services/token-storage.ts';

/** The label of a streak; null when there is none to show (no user or no count yet). */
export function streakLabel(streak: number | null | undefined): string | null {
  if (typeof streak !== 'number' || !Number.isFinite(streak) || streak < 1) return null;
  const days = Math.floor(streak);
  return days === 1 ? '¡Primer día!' : `Racha: ${days} días`;
}

function readStreak(): number {
  const streak = parseStoredUser(tokenStorage.readUser())?.streak;
  return typeof streak === 'number' ? streak : 0;
}

/** The stored user's streak (0 when unknown), following every change of the stored user. */
export function useStreak(): number {
  return useSyncExternalStore(tokenStorage.subscribe, readStreak, () => 0);
}
