/** The profile calls of spec 001 §7 (own profile, create, update, photos, gym search). */
import type { PhotoUploadResponse } from '#shared/discovery/discovery-schemas';
import type { ProfileCreateInput, ProfileUpdateInput } from '#shared/profile/profile-schema';
import type { OwnProfile, OwnProfileResponse } from '#shared/profile/profile-views';
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

/** Spec 001 §8 "Profile": the service defaults when the server gives no message. */
export const PROFILE_CALL_DEFAULTS = {
  create: 'Error al crear el perfil',
  updateLocation: 'Error al actualizar la ubicación',
} as const;

/** The same failure, with `fallback` as its message when the server sent none. */
function withDefaultMessage(error: unknown, fallback: string): unknown {
  if (error instanceof ApiRequestError && !error.message) {
    return new ApiRequestError(error.kind, fallback, error.status, error.errorType, error.body);
  }
  return error;
}

export async function createProfile(body: ProfileCreateInput): Promise<OwnProfile> {
  try {
    const answer = await requestJson<OwnProfileResponse>('profiles', { method: 'post', json: body });
    return answer.profile;
  } catch (error) {
    throw withDefaultMessage(error, PROFILE_CALL_DEFAULTS.create);
  }
}

/** `PUT /profiles/{userId}/location` (spec 001 §7): the server stores the centre of its 3 km cell. */
export async function updateLocation(
  userId: string,
  location: { latitude: number; longitude: number; city?: string | null },
): Promise<OwnProfile> {
  try {
    const answer = await requestJson<OwnProfileResponse>(`profiles/${encodeURIComponent(userId)}/location`, {
      method: 'put',
      json: { location },
    });
    return answer.profile;
  } catch (error) {
    throw withDefaultMessage(error, PROFILE_CALL_DEFAULTS.updateLocation);
  }
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

export { searchGyms } from '../../services/gym-search.ts';
