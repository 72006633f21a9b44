import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ownProfileFixture } from './own-profile.fixture.ts';

const api = vi.hoisted(() => ({
  updateProfile: vi.fn(),
  uploadPhotos: vi.fn(),
  deletePhoto: vi.fn(),
  reorderPhotos: vi.fn(),
}));
vi.mock('./profile-api.ts', () => api);
vi.mock('./own-profile-store.ts', () => ({ setOwnProfile: vi.fn() }));

const { editorState, refreshEditing, saveEditor, startEditing, updateDraft } = await import('./editor-store.ts');

const NOW = new Date('2026-06-01T10:00:00Z');
const profile = ownProfileFixture({
  training: { ...ownProfileFixture().training, commitment_level: null, socialPreference: null },
  social: { instagram: 'lucia.fit' },
});

describe('/edit-profile save', () => {
  beforeEach(() => {
    api.updateProfile.mockReset();
    api.updateProfile.mockImplementation(async () => profile);
    startEditing(profile);
  });

  it('clears an emptied last name, gender and social link on the server (sends null)', async () => {
    updateDraft((draft) => {
      draft.lastName = '';
      draft.gender = '';
      draft.training.experienceLevel = null;
      draft.social.instagram = '';
    });
    expect(await saveEditor(NOW)).toBeNull();
    expect(api.updateProfile).toHaveBeenCalledTimes(1);
    const body = api.updateProfile.mock.calls[0]?.[0] as Record<string, unknown>;
    expect(body).toMatchObject({
      userId: 'u1',
      lastName: null,
      gender: null,
      training: { experienceLevel: null },
      social: { instagram: null, spotify: null, strava: null },
    });
    expect(editorState.save).toEqual({ status: 'saved' });
  });

  it('does not save a bad social link, and points at the section that holds it', async () => {
    updateDraft((draft) => {
      draft.social.strava = 'mi perfil';
    });
    expect(await saveEditor(NOW)).toBe(4);
    expect(api.updateProfile).not.toHaveBeenCalled();
    expect(editorState.errors['social.strava']).toBe(
      'El atleta de Strava debe ser el número de tu perfil (1-12 dígitos)',
    );
  });

  it("clears a field's message once it is fixed", async () => {
    updateDraft((draft) => {
      draft.social.strava = 'mi perfil';
      draft.bio = 'corta';
    });
    expect(await saveEditor(NOW)).toBe(1);
    expect(Object.keys(editorState.errors).sort()).toEqual(['bio', 'social.strava']);
    updateDraft((draft) => {
      draft.social.strava = 'https://www.strava.com/athletes/31337';
    }, NOW);
    expect(Object.keys(editorState.errors)).toEqual(['bio']);
  });
});

describe('/edit-profile and a newer copy of the profile', () => {
  const stale = ownProfileFixture({ social: { instagram: 'lucia.fit' } });
  const fresh = ownProfileFixture({ social: { instagram: 'lucia.fit', strava: '777' } });

  beforeEach(() => {
    api.updateProfile.mockReset();
    startEditing(stale);
  });

  it("takes the server's copy over the device's while the person has changed nothing", () => {
    refreshEditing(fresh);
    expect(editorState.draft.social.strava).toBe('777');
  });

  it("keeps the person's changes when a newer copy arrives after them", () => {
    updateDraft((draft) => {
      draft.bio = 'Escrito a mano';
    });
    refreshEditing(fresh);
    expect(editorState.draft.bio).toBe('Escrito a mano');
    expect(editorState.draft.social.strava).toBe('');
  });

  it('takes the saved profile after a save, and keeps what was typed while saving', async () => {
    api.updateProfile.mockImplementation(async () => fresh);
    updateDraft((draft) => {
      draft.social.strava = '777';
    });
    await saveEditor(NOW);
    expect(editorState.edits).toBe(0);
    refreshEditing(fresh);
    expect(editorState.save).toEqual({ status: 'saved' });

    let answer: (value: typeof fresh) => void = () => undefined;
    api.updateProfile.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    updateDraft((draft) => {
      draft.bio = 'Primera versión';
    });
    const saving = saveEditor(NOW);
    updateDraft((draft) => {
      draft.bio = 'Segunda versión';
    });
    answer(fresh);
    await saving;
    refreshEditing(fresh);
    expect(editorState.draft.bio).toBe('Segunda versión');
  });
});
