/**
 * The pair lines (issue #21): each conversation's next quedada and pair streak, from
 * `GET /api/quedadas/pairs`, refreshed when a quedada changes. The next quedada itself is also
 * read from the device's store, so the header is right offline.
 */
import { proxy } from 'valtio';
import type { PairSummary } from '#shared/quedadas/quedada-schemas';
import { connection } from '../../services/socket.ts';
import { quedadaApi } from './quedada-api.ts';

export const pairsState = proxy<{ byConversation: Record<string, PairSummary>; isLoaded: boolean }>({
  byConversation: {},
  isLoaded: false,
});

let inFlight: Promise<void> | null = null;

export function loadPairs(): Promise<void> {
  inFlight ??= quedadaApi
    .pairs()
    .then((answer) => {
      pairsState.byConversation = Object.fromEntries(answer.pairs.map((pair) => [pair.conversationId, pair]));
      pairsState.isLoaded = true;
    })
    .catch((error: unknown) => console.warn('[quedadas] pairs failed', error))
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

let isWatching = false;

/** Reloads the pair lines whenever a quedada changes (once per page). */
export function watchPairs(): void {
  if (isWatching) return;
  isWatching = true;
  connection.on('quedadaUpdated', () => void loadPairs());
}
