// @setup embedded
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDiscoveryApi,
  createSignedInUser,
  type DiscoveryApi,
  profileBody,
  type TestUser,
} from '../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

describe('settings "Perfil visible" takes a profile out of every deck (spec 001 §2, /config)', () => {
  let app: TestApp;
  let api: DiscoveryApi;

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const deckIds = async (user: TestUser) => {
    const response = await api.get(`/profiles/${user.userId}/recommended`, user.token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return (response.body as { profiles: { userId: string }[] }).profiles.map((profile) => profile.userId);
  };
  const setShown = async (user: TestUser, showProfile: boolean) => {
    const response = await api.put('/settings', { privacy: { showProfile } }, user.token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };

  it('hides and shows an existing profile', async () => {
    const viewer = await api.userWithProfile({}, 'Lucía');
    const hidden = await api.userWithProfile({}, 'Marta');
    expect(await deckIds(viewer)).toContain(hidden.userId);

    await setShown(hidden, false);
    expect(await deckIds(viewer)).not.toContain(hidden.userId);
    // Hidden from others, still there for its owner.
    expect((await api.get(`/profiles/${hidden.userId}`, hidden.token)).status).toBe(200);

    await setShown(hidden, true);
    expect(await deckIds(viewer)).toContain(hidden.userId);
  });

  it('keeps a profile hidden when the setting was turned off before the profile existed', async () => {
    const viewer = await api.userWithProfile({}, 'Lucía');
    const early = await createSignedInUser(app, 'Nerea');
    await setShown(early, false);
    const created = await api.post('/profiles', profileBody(early.userId, { name: 'Nerea' }), early.token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(await deckIds(viewer)).not.toContain(early.userId);
  });
});
