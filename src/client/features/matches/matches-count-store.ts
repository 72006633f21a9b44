/**
 * The "Entrenamientos" badge (spec 001 §2): how many matches the user has, from
 * GET /api/swipes/users/{id}/matches, refreshed on sign-in, on the `match` socket event and on the
 * window's `matches-changed` event (the deck sends it after a match it made itself).
 */
import { proxy } from 'valtio';
import { onSignIn, onSignOut, parseStoredUser } from '../../services/session.ts';
import { connection } from '../../services/socket.ts';
import { tokenStorage } from '../../services/token-storage.ts';
import { fetchMatches } from './matches-store.ts';

export const MATCHES_CHANGED_EVENT = 'matches-changed';

export const matchesCountState = proxy({ count: 0 });

/** Bumped on sign-out so an answer for the previous user is dropped. */
let generation = 0;

export async function refreshMatchesCount(fetcher = fetchMatches): Promise<void> {
  const userId = parseStoredUser(tokenStorage.readUser())?.userId;
  if (!userId) return;
  const current = generation;
  try {
    const answer = await fetcher(userId);
    if (current === generation) matchesCountState.count = answer.matches?.length ?? 0;
  } catch (error) {
    // Offline or refused: the badge keeps the last known count.
    console.warn('[matches] the count failed', error);
  }
}

let isStarted = false;

/** Wires the count once (app start-up, before the session is restored). */
export function startMatchesCount(): void {
  if (isStarted || typeof window === 'undefined') return;
  isStarted = true;
  onSignIn(() => void refreshMatchesCount());
  onSignOut(() => {
    generation++;
    matchesCountState.count = 0;
  });
  connection.on('match', () => void refreshMatchesCount());
  window.addEventListener(MATCHES_CHANGED_EVENT, () => void refreshMatchesCount());
  if (tokenStorage.readToken()) void refreshMatchesCount();
}
