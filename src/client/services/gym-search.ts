import { type GymSearchResponse, type GymSuggestion, GYM_SEARCH_TOOL } from '#shared/discovery/discovery-schemas';
import { requestJson } from './http.ts';

/** Gym suggestions (`search_gyms`); any failure yields an empty list (spec 001 §7). */
export async function searchGyms(
  query: string,
  location: { latitude: number; longitude: number } | null,
  signal?: AbortSignal,
): Promise<GymSuggestion[]> {
  try {
    const answer = await requestJson<GymSearchResponse>('mcp/tool', {
      method: 'post',
      json: { server_name: 'gyms', tool_name: GYM_SEARCH_TOOL, arguments: { query, location } },
      signal,
    });
    return Array.isArray(answer.gyms) ? answer.gyms : [];
  } catch {
    return [];
  }
}
