/** The profile calls of spec 001 §7 (own profile, create, update, photos, gym search). */
import type { GymSuggestion, GymSearchResponse, PhotoUploadResponse } from '#shared/discovery/discovery-schemas';
import { GYM_SEARCH_TOOL } from '#shared/discovery/discovery-schemas';
import type {
  OwnProfile,
  OwnProfileResponse,
  ProfileCreateInput,
  ProfileUpdateInput,
} from '#shared/profile/profile-schema';
import { ApiRequestError, requestJson } from '../../services/http.ts';
import { uploadWithProgress } from '../../services/upload.ts';

export const PHOTO_UPLOAD_PROGRESS_EVENT = 'photo-upload-progress';

/** The caller's own profile, or null when there is none yet (a 404 means "no profile"). */
export async function fetchOwnProfile(userId: string): Promise<OwnProfile | null> {
  try {
    const answer = await requestJson<OwnProfileResponse>(`profiles/${encodeURIComponent(userId)}`);
    return answer.profile;
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return null;
    throw error;
  }
}

export async function createProfile(body: ProfileCreateInput): Promise<OwnProfile> {
  const answer = await requestJson<OwnProfileResponse>('profiles', { method: 'post', json: body });
  return answer.profile;
}

export async function updateProfile(body: ProfileUpdateInput): Promise<OwnProfile> {
  const answer = await requestJson<OwnProfileResponse>(`profiles/${encodeURIComponent(body.userId as string)}`, {
    method: 'put',
    json: body,
  });
  return answer.profile;
}

/**
 * Uploads photo files (multipart field `photos`), reporting the percentage to `onProgress` and
 * as the window event `photo-upload-progress` ({ detail: { percent } }) the spec names.
 */
export async function uploadPhotos(
  profileId: string,
  files: readonly File[],
  onProgress: (percent: number) => void,
): Promise<string[]> {
  const form = new FormData();
  for (const file of files) form.append('photos', file, file.name);
  const report = (percent: number) => {
    onProgress(percent);
    window.dispatchEvent(new CustomEvent(PHOTO_UPLOAD_PROGRESS_EVENT, { detail: { percent } }));
  };
  report(0);
  const answer = await uploadWithProgress<PhotoUploadResponse>(
    `profiles/${encodeURIComponent(profileId)}/photos`,
    form,
    report,
  );
  if (!answer?.success || !Array.isArray(answer.photoKeys)) {
    throw new ApiRequestError('http', '', 0, 'UPLOAD_FAILED');
  }
  return answer.photoKeys;
}

export async function deletePhoto(profileId: string, key: string): Promise<string[]> {
  const answer = await requestJson<{ photoKeys: string[] }>(
    `profiles/${encodeURIComponent(profileId)}/photos/${encodeURIComponent(key)}`,
    { method: 'delete' },
  );
  return answer.photoKeys;
}

export async function reorderPhotos(profileId: string, photoKeys: readonly string[]): Promise<string[]> {
  const answer = await requestJson<{ photoKeys: string[] }>(`profiles/${encodeURIComponent(profileId)}/photos/order`, {
    method: 'put',
    json: { photoKeys },
  });
  return answer.photoKeys;
}

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
