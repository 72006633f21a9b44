/** The deck's calls (spec 001 §7): recommendations, swipes, another user's profile, preferences. */
import type {
  RecommendedResponse,
  SwipeAction,
  SwipeResponse,
  UndoSwipeResponse,
} from '#shared/discovery/discovery-schemas';
import { type GenderPreference, RECOMMENDED_PAGE_SIZE } from '#shared/profile/options';
import type { PublicProfile, PublicProfileResponse } from '#shared/profile/profile-views';
import { requestJson } from '../../services/http.ts';

export function fetchRecommended(userId: string, page: number, limit = RECOMMENDED_PAGE_SIZE) {
  return requestJson<RecommendedResponse>(`profiles/${encodeURIComponent(userId)}/recommended`, {
    searchParams: { page, limit },
  });
}

/** A random id for the swipe's idempotency key (QUALITY 13). */
export function newClientId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID().replaceAll('-', '')
    : `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;
}

export function sendSwipe(userId: string, targetUserId: string, action: SwipeAction, clientId: string) {
  return requestJson<SwipeResponse>(`swipes/users/${encodeURIComponent(userId)}/swipe`, {
    method: 'post',
    json: { target_user_id: targetUserId, action, clientId },
  });
}

/** "Deshacer" straight to the server (only when nobody is signed in to an outbox). */
export function sendUndo(userId: string, targetUserId: string, swipeClientId: string) {
  return requestJson<UndoSwipeResponse>(`swipes/users/${encodeURIComponent(userId)}/undo`, {
    method: 'post',
    json: { target_user_id: targetUserId, swipeClientId },
  });
}

export async function fetchPublicProfile(id: string): Promise<PublicProfile> {
  const answer = await requestJson<PublicProfileResponse>(`profiles/${encodeURIComponent(id)}`);
  return answer.profile;
}

export type SearchPreferences = { age_range: { min: number; max: number }; distance: number };

export async function savePreferences(userId: string, preferences: SearchPreferences): Promise<SearchPreferences> {
  const answer = await requestJson<{ profile: { preferences: SearchPreferences } }>(
    `profiles/${encodeURIComponent(userId)}`,
    { method: 'put', json: { userId, preferences } },
  );
  return { age_range: answer.profile.preferences.age_range, distance: answer.profile.preferences.distance };
}

/**
 * «Mostrar» in /config: the profile's gender preference, the one the deck filters on both ways
 * (docs/decisions/0050); answers the saved value.
 */
export async function saveGenderPreference(
  userId: string,
  genderPreference: GenderPreference,
): Promise<GenderPreference> {
  const answer = await requestJson<{ profile: { preferences: { gender_preference: GenderPreference } } }>(
    `profiles/${encodeURIComponent(userId)}`,
    { method: 'put', json: { userId, preferences: { gender_preference: genderPreference } } },
  );
  return answer.profile.preferences.gender_preference;
}
