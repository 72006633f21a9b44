/**
 * /edit-profile: every field of the own profile with the wizard's validators, saved with PUT;
 * photos are changed at once (upload, delete, reorder) through their own calls.
 */
import { proxy } from 'valtio';
import { MAX_PHOTOS } from '#shared/profile/options';
import { PROFILE_MESSAGES } from '#shared/profile/profile-messages';
import type { OwnProfile } from '#shared/profile/profile-views';
import { type FieldErrors, photoFileError } from '#shared/profile/profile-wizard';
import { ApiRequestError } from '../../services/http.ts';
import { deletePhoto, reorderPhotos, updateProfile, uploadPhotos } from './profile-api.ts';
import {
  draftFromProfile,
  emptyDraft,
  type ProfileDraft,
  stepErrors,
  stepOfField,
  stillShownErrors,
  updateRequest,
} from './profile-draft.ts';
import { photoUploadErrorMessage } from './photo-errors.ts';
import { setOwnProfile } from './own-profile-store.ts';

export const UPDATE_FAILED_MESSAGE = 'Error al actualizar el perfil';

export type EditorSave =
  | { status: 'idle' }
  | { status: 'saving' }
  | { status: 'saved' }
  | { status: 'failed'; message: string };

export type PhotoWork = { status: 'idle' } | { status: 'uploading'; percent: number } | { status: 'busy' };

export const editorState = proxy({
  profileId: '' as string,
  userId: '' as string,
  draft: emptyDraft(),
  photoKeys: [] as string[],
  errors: {} as FieldErrors,
  photoError: null as string | null,
  photoWork: { status: 'idle' } as PhotoWork,
  save: { status: 'idle' } as EditorSave,
  /** Changes made to the draft since it was last taken from a profile (0: nothing of the person's yet). */
  edits: 0,
});

export function startEditing(profile: OwnProfile): void {
  editorState.profileId = profile.id;
  editorState.userId = profile.userId;
  editorState.draft = draftFromProfile(profile);
  editorState.photoKeys = [...profile.photos];
  editorState.errors = {};
  editorState.photoError = null;
  editorState.photoWork = { status: 'idle' };
  editorState.save = { status: 'idle' };
  editorState.edits = 0;
}

/**
 * A newer copy of the profile arrived (the server's answer after the device's copy, or the saved
 * profile): the form takes it while the person has changed nothing, so a stale copy on the device
 * (an edit from another device, a write cut short) is never what the form shows and saves back.
 * Their own changes, a photo change under way and the save's outcome are kept.
 */
export function refreshEditing(profile: OwnProfile): void {
  if (editorState.profileId !== profile.id) {
    startEditing(profile);
    return;
  }
  if (editorState.edits > 0 || editorState.photoWork.status !== 'idle') return;
  editorState.draft = draftFromProfile(profile);
  editorState.photoKeys = [...profile.photos];
}

export function updateDraft(recipe: (draft: ProfileDraft) => void, now: Date = new Date()): void {
  recipe(editorState.draft);
  editorState.edits += 1;
  if (editorState.save.status === 'saved') editorState.save = { status: 'idle' };
  if (Object.keys(editorState.errors).length > 0) {
    editorState.errors = stillShownErrors(editorState.errors, allErrors(editorState.draft, editorState.photoKeys, now));
  }
}

/** Every part's errors, with the wizard's step rules. */
function allErrors(draft: ProfileDraft, photos: readonly string[], now: Date): FieldErrors {
  const errors: Record<string, string> = {};
  for (const step of [1, 2, 3, 4] as const) Object.assign(errors, stepErrors(step, draft, photos, now));
  return errors;
}

function afterPhotos(photoKeys: string[]): void {
  editorState.photoKeys = photoKeys;
  editorState.photoWork = { status: 'idle' };
}

export async function addEditorPhotos(files: readonly File[]): Promise<void> {
  if (editorState.photoWork.status !== 'idle') return;
  editorState.photoError = null;
  const accepted: File[] = [];
  for (const file of files) {
    const problem = photoFileError(file);
    if (problem) editorState.photoError = problem;
    else accepted.push(file);
  }
  if (editorState.photoKeys.length + accepted.length > MAX_PHOTOS) {
    editorState.photoError = PROFILE_MESSAGES.photosMax;
    accepted.splice(MAX_PHOTOS - editorState.photoKeys.length);
  }
  if (accepted.length === 0) return;
  editorState.photoWork = { status: 'uploading', percent: 0 };
  try {
    const keys = await uploadPhotos(editorState.profileId, accepted, (percent) => {
      if (editorState.photoWork.status === 'uploading') editorState.photoWork = { status: 'uploading', percent };
    });
    afterPhotos(keys);
  } catch (error) {
    editorState.photoError = photoUploadErrorMessage(error);
    editorState.photoWork = { status: 'idle' };
  }
}

export async function removeEditorPhoto(key: string): Promise<void> {
  if (editorState.photoWork.status !== 'idle') return;
  if (editorState.photoKeys.length <= 1) {
    editorState.photoError = PROFILE_MESSAGES.photosRequired;
    return;
  }
  editorState.photoError = null;
  editorState.photoWork = { status: 'busy' };
  try {
    afterPhotos(await deletePhoto(editorState.profileId, key));
  } catch (error) {
    editorState.photoError = error instanceof ApiRequestError && error.message ? error.message : UPDATE_FAILED_MESSAGE;
    editorState.photoWork = { status: 'idle' };
  }
}

export async function moveEditorPhoto(key: string, offset: -1 | 1): Promise<void> {
  if (editorState.photoWork.status !== 'idle') return;
  const keys = [...editorState.photoKeys];
  const from = keys.indexOf(key);
  const to = from + offset;
  if (from < 0 || to < 0 || to >= keys.length) return;
  [keys[from], keys[to]] = [keys[to] as string, keys[from] as string];
  const previous = editorState.photoKeys;
  editorState.photoKeys = keys;
  editorState.photoWork = { status: 'busy' };
  try {
    afterPhotos(await reorderPhotos(editorState.profileId, keys));
  } catch (error) {
    editorState.photoKeys = previous;
    editorState.photoError = error instanceof ApiRequestError && error.message ? error.message : UPDATE_FAILED_MESSAGE;
    editorState.photoWork = { status: 'idle' };
  }
}

/** Validates every part with the wizard's step rules, then PUTs the changed profile. */
export async function saveEditor(now: Date = new Date()): Promise<number | null> {
  const errors = allErrors(editorState.draft, editorState.photoKeys, now);
  editorState.errors = errors;
  const first = Object.keys(errors)[0];
  if (first !== undefined) {
    editorState.save = { status: 'idle' };
    return stepOfField(first);
  }
  editorState.save = { status: 'saving' };
  const editsSaved = editorState.edits;
  try {
    const profile = await updateProfile(updateRequest(editorState.userId, editorState.draft));
    // What was saved is the profile now; a change typed while it was saving stays a change.
    if (editorState.edits === editsSaved) editorState.edits = 0;
    setOwnProfile(profile);
    editorState.save = { status: 'saved' };
  } catch (error) {
    const message = error instanceof ApiRequestError && error.message ? error.message : UPDATE_FAILED_MESSAGE;
    editorState.save = { status: 'failed', message };
  }
  return null;
}
