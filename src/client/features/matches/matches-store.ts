/** The user's matches, "entrenamientos" (spec 001 §2): loading, list or error. */
import { proxy } from 'valtio';
import type { MatchesResponse, MatchListItem } from '#shared/discovery/discovery-schemas';
import { ApiRequestError, requestJson } from '../../services/http.ts';

export const MATCHES_LOAD_FAILED = 'Error al obtener matches';

/** A match as the list shows it; lastMessage is set once the chat feature fills it in. */
export type MatchCardData = Omit<MatchListItem, 'lastMessage'> & { lastMessage: unknown };

export type MatchesStatus =
  | { status: 'loading' }
  | { status: 'ready'; matches: MatchCardData[] }
  | { status: 'error'; message: string };

export const matchesState = proxy<{ current: MatchesStatus }>({ current: { status: 'loading' } });

export function fetchMatches(userId: string): Promise<MatchesResponse> {
  return requestJson<MatchesResponse>(`swipes/users/${encodeURIComponent(userId)}/matches`);
}

export async function loadMatches(userId: string, fetcher = fetchMatches): Promise<void> {
  if (matchesState.current.status !== 'ready') matchesState.current = { status: 'loading' };
  try {
    const answer = await fetcher(userId);
    matchesState.current = { status: 'ready', matches: answer.matches ?? [] };
  } catch (error) {
    matchesState.current = {
      status: 'error',
      message: error instanceof ApiRequestError && error.message ? error.message : MATCHES_LOAD_FAILED,
    };
  }
}

/** "Iniciar chat" before the first message, "Continuar chat" after. */
export function chatButtonLabel(match: Pick<MatchCardData, 'lastMessage'>): string {
  return match.lastMessage ? 'Continuar chat' : 'Iniciar chat';
}

/** The conversation to open: its id, or the match id when the match has none. */
export function chatTarget(match: Pick<MatchCardData, 'conversationId' | 'matchId'>): string {
  return match.conversationId || match.matchId;
}
