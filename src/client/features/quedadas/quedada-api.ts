import type {
  PairSummaryListResponse,
  QuedadaListResponse,
  QuedadaSuggestionsResponse,
  ReliabilityResponse,
} from '#shared/quedadas/quedada-schemas';
import { searchGyms } from '../../services/gym-search.ts';
import { requestJson } from '../../services/http.ts';

export const quedadaApi = {
  listForConversation: (conversationId: string) =>
    requestJson<QuedadaListResponse>('quedadas', { searchParams: { conversationId } }),
  listUpcoming: () => requestJson<QuedadaListResponse>('quedadas', { searchParams: { upcoming: '1' } }),
  pairs: () => requestJson<PairSummaryListResponse>('quedadas/pairs'),
  suggestions: (conversationId: string) =>
    requestJson<QuedadaSuggestionsResponse>(`quedadas/conversations/${encodeURIComponent(conversationId)}/suggestions`),
  reliability: (userId: string) =>
    requestJson<ReliabilityResponse>(`quedadas/reliability/${encodeURIComponent(userId)}`),
  /** Gym search (`search_gyms`, spec 001 §7) after the two profiles' gyms; a failure finds nothing. */
  searchGyms: (query: string, signal?: AbortSignal) => searchGyms(query, null, signal),
};
