/**
 * The "Entrenamientos" badge (spec 001 §2): how many matches the user has, from
 * GET /api/swipes/users/{id}/matches, refreshed on sign-in, on the `match` socket event and on the
 * window's `matches-changed` event (the deck sends it after a match it made itself).
 */
import { proxy } from 'valtio';
import { dbFor, readMatches } from '../../services/local-db.ts';
import { onSignIn, onSignOut, parseStoredUser } from '../../services/session.ts';
import { connection } from '../../services/socket.ts';
import { tokenStorage } from '../../services/token-storage.ts';
import { fetchMatches } from './matches-store.ts';

export const MATCHES_CHANGED_EVENT = 'matches-changed';

export const matchesCountState = proxy({ count: 0 });

/** Bumped on sign-out so an answer for the previous user is dropped. */
let generation = 0;

export async function refreshMatchesCount(
  options: { fetcher?: typeof fetchMatches; readStored?: typeof readStoredCount; userId?: string } = {},
): Promise<void> {
  const { fetcher = fetchMatches, readStored = readStoredCount } = options;
  const userId = options.userId ?? parseStoredUser(tokenStorage.readUser())?.userId;
  if (!userId) return;
  const current = generation;
  try {
    const answer = await fetcher(userId);
    if (current === generation) matchesCountState.count = answer.matches?.length ?? 0;
  } catch (error) {
    // Offline or refused: the badge keeps the last known count — on an offline start, the one
    // of the matches stored on this device (#19 §4), not an empty badge.
    console.warn('[matches] the count failed', error);
    const stored = await readStored(userId).catch(() => null);
    if (current === generation && stored !== null && matchesCountState.count === 0) {
      matchesCountState.count = stored;
    }
  }
}

/** How many matches this device stored for the user, or null when it never loaded them. */
async function readStoredCount(userId: string): Promise<number | null> {
  const db = dbFor(userId);
  if (!db) return null;
  return (await readMatches(db))?.length ?? null;
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
