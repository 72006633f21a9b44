/**
 * The profile-creation wizard (spec 001 §2, §4): steps, draft, picked photos and the save
 * sequence create → upload photos (with progress) → update with the photo keys, where a failed
 * update falls back to creating. The position is asked for when the gym step opens, so the gym
 * suggestions can rank nearby clubs first, and the save reuses that answer (docs/decisions/0014).
 * The unfinished draft (step, fields, picked photos) is kept on the device for the signed-in user
 * and restored by `start`, so a reload or an evicted tab resumes where the person was (issue #20);
 * a fresh draft starts with the first name and surname given at registration.
 */
import { proxy, ref } from 'valtio';
import { snapToGrid } from '#shared/discovery/distance';
import { MAX_PHOTOS, MIN_PHOTOS } from '#shared/profile/options';
import { PROFILE_MESSAGES } from '#shared/profile/profile-messages';
import type { OwnProfile } from '#shared/profile/profile-views';
import { type FieldErrors, photoFileError, type WizardStep } from '#shared/profile/profile-wizard';
import { ApiRequestError } from '../../services/http.ts';
import { onSignOut } from '../../services/session.ts';
import { createProfile, updateProfile, uploadPhotos } from './profile-api.ts';
import {
  createRequest,
  draftFromStored,
  emptyDraft,
  type ProfileDraft,
  stepErrors,
  stillShownErrors,
} from './profile-draft.ts';
import { photoUploadErrorMessage } from './photo-errors.ts';
import { readWizardLocation, type WizardLocation } from './wizard-location.ts';
import { toast } from '../../ui/toast-store.ts';
import {
  clearWizardDraft,
  readWizardDraft,
  type StoredWizardDraft,
  saveWizardDraft,
  saveWizardPhotos,
} from '../../services/wizard-draft.ts';

export const SAVE_FAILED_MESSAGE = 'Error al guardar el perfil. Por favor, inténtalo de nuevo.';

export type PickedPhoto = { id: string; file: File; previewUrl: string };

export type WizardSave =
  | { status: 'idle' }
  | { status: 'saving'; phase: 'location' | 'profile' | 'photos' | 'finishing'; percent: number }
  | { status: 'failed'; message: string }
  | { status: 'done'; profile: OwnProfile };

export type WizardDependencies = {
  readLocation: () => Promise<WizardLocation>;
  createProfile: typeof createProfile;
  updateProfile: typeof updateProfile;
  uploadPhotos: typeof uploadPhotos;
  now: () => Date;
  onLocationAlert: (message: string) => void;
  createPreviewUrl: (file: File) => string;
  revokePreviewUrl: (url: string) => void;
  /** The device's copy of the unfinished draft, per user. */
  storage: WizardDraftStorage;
};

export type WizardDraftStorage = {
  read(userId: string): Promise<StoredWizardDraft | null>;
  save(userId: string, step: number, draft: ProfileDraft): Promise<void>;
  savePhotos(userId: string, files: readonly File[]): Promise<void>;
  clear(userId: string): Promise<void>;
};

/** What registration already asked (spec 000 §3: name, lastName), so the wizard does not ask again. */
export type KnownNames = { name?: string | null; lastName?: string | null };

let nextPhotoId = 0;

export function createWizardStore(deps: WizardDependencies) {
  const state = proxy({
    step: 1 as WizardStep,
    draft: emptyDraft(),
    photos: [] as PickedPhoto[],
    errors: {} as FieldErrors,
    photoError: null as string | null,
    save: { status: 'idle' } as WizardSave,
    /** The device's position snapped to the ~1 km grid, once known; never the fallback. */
    gymSearchOrigin: null as { latitude: number; longitude: number } | null,
    /** Whose draft this is; '' until `start`. */
    userId: '',
    /** 'ready' once the kept draft (or a fresh one) is in place. */
    restore: 'pending' as 'pending' | 'ready',
  });

  const isSaving = () => state.save.status === 'saving';

  let located: Promise<WizardLocation> | null = null;

  /** Reads the position once (later calls share the answer) and keeps its snapped form for the gym search. */
  function locate(): Promise<WizardLocation> {
    located ??= deps.readLocation().then((location) => {
      if (!location.alert) state.gymSearchOrigin = snapToGrid(location.latitude, location.longitude);
      return location;
    });
    return located;
  }

  const keeps = () => state.restore === 'ready' && state.userId !== '';
  // Writes are queued so an older draft never lands after a newer one.
  let writes: Promise<void> = Promise.resolve();
  function queue(write: () => Promise<void>): void {
    writes = writes.then(write).catch(() => undefined);
  }

  function persist(): void {
    if (!keeps()) return;
    const { userId, step } = state;
    const draft = JSON.parse(JSON.stringify(state.draft)) as ProfileDraft;
    queue(() => deps.storage.save(userId, step, draft));
  }

  function persistPhotos(): void {
    if (!keeps()) return;
    const { userId } = state;
    const files = state.photos.map((photo) => photo.file);
    queue(() => deps.storage.savePhotos(userId, files));
  }

  /** Resumes the user's kept draft, or starts one with the names given at registration. */
  async function start(userId: string, known: KnownNames = {}): Promise<void> {
    if (state.userId === userId) return;
    reset();
    state.userId = userId;
    const stored = await deps.storage.read(userId).catch(() => null);
    if (state.userId !== userId) return;
    if (stored) {
      state.draft = draftFromStored(stored.draft);
      state.step = Math.min(4, Math.max(1, Math.trunc(stored.step) || 1)) as WizardStep;
      for (const file of stored.photos) {
        nextPhotoId += 1;
        state.photos.push({ id: `p${nextPhotoId}`, file: ref(file), previewUrl: deps.createPreviewUrl(file) });
      }
      if (state.step >= 2) void locate();
    } else {
      state.draft.name = (known.name ?? '').trim();
      state.draft.lastName = (known.lastName ?? '').trim();
    }
    state.restore = 'ready';
  }

  function update(recipe: (draft: ProfileDraft) => void): void {
    recipe(state.draft);
    if (Object.keys(state.errors).length > 0) {
      state.errors = stillShownErrors(state.errors, stepErrors(state.step, state.draft, state.photos, deps.now()));
    }
    persist();
  }

  function validate(step: WizardStep): boolean {
    state.errors = stepErrors(step, state.draft, state.photos, deps.now());
    return Object.keys(state.errors).length === 0;
  }

  function back(): void {
    if (state.step === 1 || isSaving()) return;
    state.errors = {};
    state.step = (state.step - 1) as WizardStep;
    persist();
  }

  /** "Siguiente": validates the step and advances; on step 4 it validates and saves. */
  async function next(userId: string): Promise<void> {
    if (isSaving()) return;
    if (!validate(state.step)) return;
    if (state.step < 4) {
      state.step = (state.step + 1) as WizardStep;
      persist();
      if (state.step === 2) void locate();
      return;
    }
    await save(userId);
  }

  function addPhotos(files: readonly File[]): void {
    state.photoError = null;
    for (const file of files) {
      const problem = photoFileError(file);
      if (problem) {
        state.photoError = problem;
        continue;
      }
      if (state.photos.length >= MAX_PHOTOS) {
        state.photoError = PROFILE_MESSAGES.photosMax;
        break;
      }
      nextPhotoId += 1;
      state.photos.push({ id: `p${nextPhotoId}`, file: ref(file), previewUrl: deps.createPreviewUrl(file) });
    }
    if (state.photos.length >= MIN_PHOTOS && state.errors.photos) {
      const { photos: _cleared, ...rest } = state.errors;
      state.errors = rest;
    }
    persistPhotos();
  }

  function removePhoto(id: string): void {
    const index = state.photos.findIndex((photo) => photo.id === id);
    if (index < 0 || isSaving()) return;
    const [removed] = state.photos.splice(index, 1);
    if (removed) deps.revokePreviewUrl(removed.previewUrl);
    state.photoError = null;
    persistPhotos();
  }

  async function save(userId: string): Promise<void> {
    if (!userId) {
      state.save = { status: 'failed', message: PROFILE_MESSAGES.userIdRequired };
      return;
    }
    state.save = { status: 'saving', phase: 'location', percent: 0 };
    let location = await locate();
    if (location.alert) {
      // The early read failed (refused, timed out): ask once more now that it is needed.
      located = null;
      location = await locate();
    }
    if (location.alert) deps.onLocationAlert(location.alert);
    const position = { latitude: location.latitude, longitude: location.longitude };
    const body = createRequest(userId, state.draft, position);

    let profile: OwnProfile;
    state.save = { status: 'saving', phase: 'profile', percent: 0 };
    try {
      profile = await deps.createProfile(body);
    } catch (error) {
      // A profile left by an earlier attempt whose photo upload failed: complete it instead.
      if (error instanceof ApiRequestError && error.status === 409) {
        try {
          const { photos: _none, ...changes } = body;
          profile = await deps.updateProfile(changes);
        } catch {
          state.save = { status: 'failed', message: SAVE_FAILED_MESSAGE };
          return;
        }
      } else {
        state.save = { status: 'failed', message: SAVE_FAILED_MESSAGE };
        return;
      }
    }

    state.save = { status: 'saving', phase: 'photos', percent: 0 };
    let photoKeys: string[];
    try {
      photoKeys = await deps.uploadPhotos(
        profile.id,
        state.photos.map((photo) => photo.file),
        (percent) => {
          if (state.save.status === 'saving') state.save = { status: 'saving', phase: 'photos', percent };
        },
      );
    } catch (error) {
      const message = photoUploadErrorMessage(error, 'wizard');
      state.photoError = message;
      state.save = { status: 'failed', message };
      return;
    }

    state.save = { status: 'saving', phase: 'finishing', percent: 100 };
    try {
      profile = await deps.updateProfile({ userId, photos: photoKeys });
    } catch {
      try {
        profile = await deps.createProfile({ ...body, photos: photoKeys });
      } catch {
        // The upload already attached the photos to the profile, which is complete: go on.
        if (photoKeys.length === 0) {
          state.save = { status: 'failed', message: SAVE_FAILED_MESSAGE };
          return;
        }
        profile = { ...profile, photos: photoKeys };
      }
    }
    for (const photo of state.photos) deps.revokePreviewUrl(photo.previewUrl);
    if (state.userId) {
      const saved = state.userId;
      queue(() => deps.storage.clear(saved));
    }
    state.save = { status: 'done', profile };
  }

  function reset(): void {
    for (const photo of state.photos) deps.revokePreviewUrl(photo.previewUrl);
    state.step = 1;
    state.draft = emptyDraft();
    state.photos = [];
    state.errors = {};
    state.photoError = null;
    state.save = { status: 'idle' };
    state.gymSearchOrigin = null;
    state.userId = '';
    state.restore = 'pending';
    located = null;
  }

  return { state, start, update, back, next, addPhotos, removePhoto, save, reset };
}

export type WizardStore = ReturnType<typeof createWizardStore>;

// Sign-out deletes the kept draft with the user's database; the copy in memory goes too.
onSignOut(() => wizardStore.reset());

export const wizardStore: WizardStore = createWizardStore({
  readLocation: () => readWizardLocation(),
  createProfile,
  updateProfile,
  uploadPhotos,
  now: () => new Date(),
  onLocationAlert: (message) => toast.info(message, { durationMs: 8000 }),
  createPreviewUrl: (file) => URL.createObjectURL(file),
  revokePreviewUrl: (url) => URL.revokeObjectURL(url),
  storage: { read: readWizardDraft, save: saveWizardDraft, savePhotos: saveWizardPhotos, clear: clearWizardDraft },
});
