import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { profileUpdateRequestSchema } from '#shared/profile/profile-schema';
import { ownProfileFixture } from './own-profile.fixture.ts';
import {
  createRequest,
  draftFromProfile,
  emptyDraft,
  stepErrors,
  stepOfField,
  updateRequest,
} from './profile-draft.ts';

const NOW = new Date('2026-06-01T10:00:00Z');

const stored = ownProfileFixture;

describe('profile draft → requests', () => {
  it('sends an emptied optional field as null, so the update clears it (docs/decisions/0014)', () => {
    const draft = draftFromProfile(stored());
    expect(draft.social).toEqual({ instagram: 'lucia.fit', spotify: '', strava: '123456' });
    draft.lastName = '   ';
    draft.gender = '';
    draft.training.experienceLevel = null;
    draft.training.commitment_level = null;
    draft.training.socialPreference = null;
    draft.social.instagram = '';

    const request = updateRequest('u1', draft);
    expect(request).toMatchObject({
      userId: 'u1',
      lastName: null,
      gender: null,
      training: { experienceLevel: null, commitment_level: null, socialPreference: null, sports: ['Musculación'] },
      social: { instagram: null, spotify: null, strava: '123456' },
    });
    // JSON keeps null (undefined would vanish from the body and leave the old value).
    expect(JSON.parse(JSON.stringify(request))).toMatchObject({ lastName: null, gender: null });
    // And the server's schema takes it as "clear".
    const parsed = v.parse(
      profileUpdateRequestSchema(() => NOW),
      JSON.parse(JSON.stringify(request)),
    );
    expect(parsed).toMatchObject({ lastName: null, gender: null, social: { instagram: null, strava: '123456' } });
  });

  it('keeps filled fields trimmed', () => {
    const draft = draftFromProfile(stored());
    draft.lastName = '  Pérez ';
    draft.social.spotify = ' https://open.spotify.com/user/lucia_runs ';
    expect(updateRequest('u1', draft)).toMatchObject({
      lastName: 'Pérez',
      gender: 'female',
      social: { instagram: 'lucia.fit', spotify: 'https://open.spotify.com/user/lucia_runs', strava: '123456' },
    });
  });

  it('creates without a social block when no link was typed, with it otherwise', () => {
    const location = { latitude: 40.42, longitude: -3.7 };
    const draft = emptyDraft();
    expect(createRequest('u1', draft, location)).not.toHaveProperty('social');
    draft.social.strava = '98765';
    expect(createRequest('u1', draft, location).social).toEqual({ instagram: null, spotify: null, strava: '98765' });
  });

  it('checks the social links on step 4 with the shared texts and leads there on a save error', () => {
    const draft = emptyDraft();
    const photo = [{}];
    expect(stepErrors(4, draft, photo, NOW)).toEqual({});
    draft.social = { instagram: 'lucía fit', spotify: '@ok_user', strava: 'lucia' };
    expect(stepErrors(4, draft, photo, NOW)).toEqual({
      'social.instagram':
        'El usuario de Instagram debe contener solo letras, números, puntos y guiones bajos (1-30 caracteres)',
      'social.strava': 'El atleta de Strava debe ser el número de tu perfil (1-12 dígitos)',
    });
    draft.social = { instagram: 'https://www.instagram.com/lucia.fit/', spotify: '', strava: '' };
    expect(stepErrors(4, draft, photo, NOW)).toEqual({});
    expect(stepOfField('social.strava')).toBe(4);
    expect(stepOfField('lastName')).toBe(1);
  });
});
