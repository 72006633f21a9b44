import { describe, expect, it, vi } from 'vitest';
import { snapToGrid } from '#shared/discovery/distance';
import type { OwnProfile } from '#shared/profile/profile-views';
import { ApiRequestError } from '../../services/http.ts';
import { createWizardStore, SAVE_FAILED_MESSAGE, type WizardDependencies } from './wizard-store.ts';

const NOW = new Date('2026-06-01T10:00:00Z');
const profile = { id: 'p1', userId: 'u1', photos: [] } as unknown as OwnProfile;

function png(name = 'a.png', size = 1000, type = 'image/png'): File {
  return new File([new Uint8Array(size)], name, { type });
}

/** The device's kept drafts, in memory. */
function memoryStorage() {
  const kept = new Map<string, { step: number; draft: unknown; photos: File[] }>();
  return {
    kept,
    read: vi.fn(async (userId: string) => kept.get(userId) ?? null),
    save: vi.fn(async (userId: string, step: number, draft: unknown) => {
      kept.set(userId, { step, draft: JSON.parse(JSON.stringify(draft)), photos: kept.get(userId)?.photos ?? [] });
    }),
    savePhotos: vi.fn(async (userId: string, files: readonly File[]) => {
      const current = kept.get(userId) ?? { step: 1, draft: {}, photos: [] };
      kept.set(userId, { ...current, photos: [...files] });
    }),
    clear: vi.fn(async (userId: string) => {
      kept.delete(userId);
    }),
  };
}

function setup(overrides: Partial<WizardDependencies> = {}) {
  const deps: WizardDependencies = {
    storage: memoryStorage(),
    readLocation: async () => ({ latitude: 40.42, longitude: -3.7, alert: null }),
    createProfile: vi.fn(async () => profile),
    updateProfile: vi.fn(async () => ({ ...profile, photos: ['photos/u1/k.webp'] })),
    uploadPhotos: vi.fn(async (_id: string, _files: readonly File[], onProgress: (p: number) => void) => {
      onProgress(50);
      onProgress(100);
      return ['photos/u1/k.webp'];
    }),
    now: () => NOW,
    onLocationAlert: vi.fn(),
    createPreviewUrl: () => 'blob:preview',
    revokePreviewUrl: () => undefined,
    ...overrides,
  };
  return { store: createWizardStore(deps), deps };
}

async function fillToStep4(store: ReturnType<typeof setup>['store']) {
  store.update((d) => {
    d.name = 'Lucía';
    d.birthDate = '1995-04-12';
    d.bio = 'Entreno todas las mañanas.';
  });
  await store.next('u1');
  store.update((d) => {
    d.gym.name = 'Basic-Fit Centro';
    d.gym.trainingSchedule = ['Mañana'];
  });
  await store.next('u1');
  store.update((d) => {
    d.training.sports = ['Musculación'];
    d.training.goals = ['Ganar músculo'];
    d.training.availability = ['Lunes mañana'];
  });
  await store.next('u1');
}

describe('profile wizard draft on the device (issue #20)', () => {
  it('starts with the names given at registration, and leaves height and weight empty', async () => {
    const { store } = setup();
    await store.start('u1', { name: 'Lucía', lastName: 'Martín' });
    expect(store.state.draft).toMatchObject({ name: 'Lucía', lastName: 'Martín' });
    expect(Number.isNaN(store.state.draft.health.height)).toBe(true);
    expect(Number.isNaN(store.state.draft.health.weight)).toBe(true);
  });

  it('resumes the kept step, fields and photos after a reload, per user, and clears them once saved', async () => {
    const storage = memoryStorage();
    const first = setup({ storage });
    await first.store.start('u1', { name: 'Lucía' });
    await fillToStep4(first.store);
    first.store.addPhotos([png('yo.png')]);
    first.store.update((d) => {
      d.health.height = 168;
    });
    await vi.waitFor(() => expect(storage.kept.get('u1')?.photos).toHaveLength(1));

    // A reload: a new store over the same device.
    const second = setup({ storage });
    await second.store.start('u1', { name: 'Otra' });
    expect(second.store.state.step).toBe(4);
    expect(second.store.state.draft).toMatchObject({ name: 'Lucía', gym: { name: 'Basic-Fit Centro' } });
    expect(second.store.state.draft.health.height).toBe(168);
    expect(Number.isNaN(second.store.state.draft.health.weight)).toBe(true);
    expect(second.store.state.photos.map((photo) => photo.file.name)).toEqual(['yo.png']);

    // Someone else on the device starts afresh.
    const other = setup({ storage });
    await other.store.start('u2', { name: 'Marcos' });
    expect(other.store.state.step).toBe(1);
    expect(other.store.state.draft.name).toBe('Marcos');

    await second.store.next('u1');
    expect(second.store.state.save.status).toBe('done');
    await vi.waitFor(() => expect(storage.clear).toHaveBeenCalledWith('u1'));
    expect(storage.kept.has('u1')).toBe(false);
  });

  it("sends body data only when entered (null otherwise), and the picked gym's town as the city", async () => {
    const { store, deps } = setup();
    await store.start('u1');
    await fillToStep4(store);
    store.update((d) => {
      d.city = 'Madrid';
    });
    store.addPhotos([png()]);
    await store.next('u1');
    expect(deps.createProfile).toHaveBeenCalledWith(
      expect.objectContaining({
        health: expect.objectContaining({ height: null, weight: null }),
        location: expect.objectContaining({ city: 'Madrid' }),
      }),
    );
  });
});

describe('profile wizard', () => {
  it('validates each step with the shared texts before advancing; back stops at step 1', async () => {
    const { store } = setup();
    store.back();
    expect(store.state.step).toBe(1);
    await store.next('u1');
    expect(store.state.step).toBe(1);
    expect(store.state.errors.name).toBe('El nombre debe contener solo letras y espacios (1-20 caracteres)');
    expect(store.state.errors.birthDate).toBe('La fecha de nacimiento es obligatoria');
    expect(store.state.errors.bio).toBe('La bio debe tener entre 10 y 500 caracteres');
    store.update((d) => {
      d.name = 'Lucía';
      d.birthDate = '2010-01-01';
      d.bio = 'Entreno todas las mañanas.';
    });
    await store.next('u1');
    expect(store.state.errors.birthDate).toBe('Debes tener al menos 18 años para crear un perfil');
    store.update((d) => {
      d.birthDate = '1995-04-12';
    });
    await store.next('u1');
    expect(store.state.step).toBe(2);
    await store.next('u1');
    expect(store.state.errors['gym.name']).toBe('El nombre del gimnasio debe tener entre 3 y 50 caracteres');
    expect(store.state.errors['gym.trainingSchedule']).toBe('Selecciona al menos un horario de entrenamiento');
    store.back();
    expect(store.state.step).toBe(1);
  });

  it('checks step 3 lists and step 4 photos and measures', async () => {
    const { store } = setup();
    await fillToStep4(store);
    expect(store.state.step).toBe(4);
    store.update((d) => {
      d.health.height = 90;
    });
    await store.next('u1');
    expect(store.state.errors.photos).toBe('Debes subir al menos una foto');
    expect(store.state.errors['health.height']).toBe('La altura debe estar entre 100 y 250 cm');
    store.addPhotos([png('a.gif', 100, 'image/gif')]);
    expect(store.state.photoError).toBe('Formato de imagen no soportado. Utiliza JPG, PNG o WEBP.');
    store.addPhotos([png('big.png', 6 * 1024 * 1024)]);
    expect(store.state.photoError).toBe(
      'Las imágenes son demasiado grandes. El tamaño máximo permitido es 5MB por imagen.',
    );
    store.addPhotos(Array.from({ length: 7 }, (_, i) => png(`${i}.png`)));
    expect(store.state.photos).toHaveLength(6);
    expect(store.state.photoError).toBe('Puedes subir un máximo de 6 fotos');
  });

  it('saves: create with location → upload with progress → update with the keys', async () => {
    const { store, deps } = setup();
    await fillToStep4(store);
    store.addPhotos([png()]);
    await store.next('u1');
    expect(deps.createProfile).toHaveBeenCalledWith(
      expect.objectContaining({ userId: 'u1', name: 'Lucía', location: { latitude: 40.42, longitude: -3.7 } }),
    );
    expect(deps.uploadPhotos).toHaveBeenCalledWith('p1', expect.any(Array), expect.any(Function));
    expect(deps.updateProfile).toHaveBeenCalledWith({ userId: 'u1', photos: ['photos/u1/k.webp'] });
    expect(store.state.save.status).toBe('done');
  });

  it('falls back to creating when the update fails, and reports the location alert', async () => {
    const createProfile = vi
      .fn()
      .mockResolvedValueOnce(profile)
      .mockResolvedValueOnce({ ...profile, photos: ['photos/u1/k.webp'] });
    const onLocationAlert = vi.fn();
    const { store } = setup({
      createProfile,
      updateProfile: vi.fn(async () => {
        throw new ApiRequestError('http', '', 500);
      }),
      readLocation: async () => ({
        latitude: 40.42,
        longitude: -3.7,
        alert: 'Se agotó el tiempo esperando tu ubicación...',
      }),
      onLocationAlert,
    });
    await fillToStep4(store);
    store.addPhotos([png()]);
    await store.next('u1');
    expect(createProfile).toHaveBeenCalledTimes(2);
    expect(createProfile.mock.calls[1]?.[0]).toMatchObject({ photos: ['photos/u1/k.webp'] });
    expect(onLocationAlert).toHaveBeenCalledWith('Se agotó el tiempo esperando tu ubicación...');
    expect(store.state.save.status).toBe('done');
  });

  it('shows the wizard texts for upload and save failures', async () => {
    const { store } = setup({
      uploadPhotos: vi.fn(async () => {
        throw new ApiRequestError('http', '', 503);
      }),
    });
    await fillToStep4(store);
    store.addPhotos([png()]);
    await store.next('u1');
    expect(store.state.save).toEqual({
      status: 'failed',
      message: 'Error en el servidor. Por favor, intenta más tarde.',
    });

    const failing = setup({
      createProfile: vi.fn(async () => {
        throw new ApiRequestError('network', '');
      }),
    });
    await fillToStep4(failing.store);
    failing.store.addPhotos([png()]);
    await failing.store.next('u1');
    expect(failing.store.state.save).toEqual({ status: 'failed', message: SAVE_FAILED_MESSAGE });
  });

  it('asks for the position when the gym step opens: its snapped form ranks gym suggestions; the save reuses it', async () => {
    const readLocation = vi.fn(async () => ({ latitude: 40.41234, longitude: -3.70111, alert: null }));
    const { store, deps } = setup({ readLocation });
    expect(store.state.gymSearchOrigin).toBeNull();
    await fillToStep4(store);
    expect(store.state.gymSearchOrigin).toEqual(snapToGrid(40.41234, -3.70111));
    expect(store.state.gymSearchOrigin).not.toEqual({ latitude: 40.41234, longitude: -3.70111 });
    store.addPhotos([png()]);
    await store.next('u1');
    expect(readLocation).toHaveBeenCalledTimes(1);
    expect(deps.createProfile).toHaveBeenCalledWith(
      expect.objectContaining({ location: { latitude: 40.41234, longitude: -3.70111 } }),
    );
    expect(store.state.save.status).toBe('done');
  });

  it('never ranks gyms around the fallback position, and asks again when saving', async () => {
    const readLocation = vi
      .fn()
      .mockResolvedValueOnce({ latitude: 40.42, longitude: -3.7, alert: 'No se pudo determinar tu ubicación...' })
      .mockResolvedValueOnce({ latitude: 41.39, longitude: 2.17, alert: null });
    const onLocationAlert = vi.fn();
    const { store, deps } = setup({ readLocation, onLocationAlert });
    await fillToStep4(store);
    expect(store.state.gymSearchOrigin).toBeNull();
    store.addPhotos([png()]);
    await store.next('u1');
    expect(readLocation).toHaveBeenCalledTimes(2);
    expect(onLocationAlert).not.toHaveBeenCalled();
    expect(deps.createProfile).toHaveBeenCalledWith(
      expect.objectContaining({ location: { latitude: 41.39, longitude: 2.17 } }),
    );
  });

  it('drops a message as soon as its field is fixed, without flagging fields not checked yet', async () => {
    const { store } = setup();
    await store.next('u1');
    expect(Object.keys(store.state.errors).sort()).toEqual(['bio', 'birthDate', 'name']);
    store.update((d) => {
      d.name = 'Lucía';
    });
    expect(Object.keys(store.state.errors).sort()).toEqual(['bio', 'birthDate']);
    store.update((d) => {
      d.birthDate = '2010-01-01';
    });
    // Still wrong, now with the age text.
    expect(store.state.errors.birthDate).toBe('Debes tener al menos 18 años para crear un perfil');
    store.update((d) => {
      d.name = 'R2D2';
    });
    expect(store.state.errors.name).toBeUndefined();
  });
});
