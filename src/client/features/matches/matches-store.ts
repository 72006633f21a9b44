/**
 * The user's matches, "entrenamientos" (spec 001 §2): loading, list or error. The device's store
 * first (QUALITY 19: an offline start shows the last known matches), then the network, whose
 * answer replaces the list and the stored copy.
 */
import { proxy } from 'valtio';
import type { MatchesResponse, MatchListItem } from '#shared/discovery/discovery-schemas';
import { ApiRequestError, requestJson } from '../../services/http.ts';
import { dbFor, type LocalDb, readMatches, saveMatches } from '../../services/local-db.ts';
import { onSignOut } from '../../services/session.ts';

export const MATCHES_LOAD_FAILED = 'Error al obtener matches';

/** A match as the list shows it; lastMessage is set once the chat feature fills it in. */
export type MatchCardData = Omit<MatchListItem, 'lastMessage'> & { lastMessage: unknown };

export type MatchesStatus =
  | { status: 'loading' }
  | { status: 'ready'; matches: MatchCardData[] }
  | { status: 'error'; message: string };

export const matchesState = proxy<{ current: MatchesStatus; userId: string | null }>({
  current: { status: 'loading' },
  userId: null,
});

export function fetchMatches(userId: string): Promise<MatchesResponse> {
  return requestJson<MatchesResponse>(`swipes/users/${encodeURIComponent(userId)}/matches`);
}

/** Bumped by every load, so an older answer (or stored copy) never overwrites a newer one. */
let generation = 0;

async function readStored(db: LocalDb | null): Promise<MatchListItem[] | null> {
  try {
    return db ? await readMatches(db) : null;
  } catch (error) {
    console.warn('[matches] the stored list could not be read', error);
    return null;
  }
}

/**
 * Shows the stored list at once when nothing is on screen yet, then asks the server. A failure
 * keeps a list on screen (stored or loaded) and is an error only when there is none.
 */
export async function loadMatches(userId: string, fetcher = fetchMatches): Promise<void> {
  const mine = ++generation;
  // Asked at once; the stored copy is read meanwhile.
  const request = fetcher(userId);
  request.catch(() => undefined);
  const db = dbFor(userId);
  if (matchesState.userId !== userId || matchesState.current.status !== 'ready') {
    matchesState.userId = userId;
    matchesState.current = { status: 'loading' };
    const stored = await readStored(db);
    if (mine === generation && stored) {
      matchesState.current = { status: 'ready', matches: stored };
    }
  }
  try {
    const answer = await request;
    if (mine !== generation) return;
    const matches = answer.matches ?? [];
    matchesState.current = { status: 'ready', matches };
    if (db) await saveMatches(db, matches).catch((error) => console.warn('[matches] not stored', error));
  } catch (error) {
    if (mine !== generation || matchesState.current.status === 'ready') return;
    matchesState.current = {
      status: 'error',
      message: error instanceof ApiRequestError && error.message ? error.message : MATCHES_LOAD_FAILED,
    };
  }
}

onSignOut(() => {
  generation++;
  matchesState.userId = null;
  matchesState.current = { status: 'loading' };
});

/** How long a match reads «Nuevo» (docs/decisions/0059). */
export const NEW_MATCH_MS = 24 * 3600_000;

/**
 * «Nuevo» on a match card (docs/decisions/0059): matched less than 24 hours ago and nobody has
 * written yet. Issue #34: it was on every match of the week, also ones already talking.
 */
export function isNewMatch(match: Pick<MatchCardData, 'timestamp' | 'lastMessage'>, now: number): boolean {
  const age = now - Date.parse(match.timestamp);
  return !match.lastMessage && age >= -60_000 && age < NEW_MATCH_MS;
}

/** "Iniciar chat" before the first message, "Continuar chat" after. */
export function chatButtonLabel(match: Pick<MatchCardData, 'lastMessage'>): string {
  return match.lastMessage ? 'Continuar chat' : 'Iniciar chat';
}

/** The conversation to open: its id, or the match id when the match has none. */
export function chatTarget(match: Pick<MatchCardData, 'conversationId' | 'matchId'>): string {
  return match.conversationId || match.matchId;
}
