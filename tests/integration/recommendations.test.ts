// @setup embedded
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscoveryApi, createSignedInUser, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock } from '../helpers/test-clock.ts';

type Deck = { profiles: { userId: string; compatibilityScore: number; distanceText: string }[] } & Record<
  string,
  unknown
>;

/** A point `km` east of (latitude, longitude). */
const east = (latitude: number, longitude: number, km: number) => ({
  latitude,
  longitude: longitude + km / (111.195 * Math.cos((latitude * Math.PI) / 180)),
});

describe('recommendations (spec 001 §7; QUALITY 8, 9, 24)', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const at = (centre: { latitude: number; longitude: number }, km: number, city: string) => ({
    location: { ...east(centre.latitude, centre.longitude, km), city },
  });
  const deck = async (user: TestUser, query = '') => {
    const response = await api.get(`/profiles/${user.userId}/recommended${query}`, user.token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as Deck;
  };
  const ids = (body: Deck) => body.profiles.map((profile) => profile.userId);

  it('applies gender, age and distance in both directions and leaves out swiped, blocked, hidden and oneself', async () => {
    const zaragoza = { latitude: 41.6488, longitude: -0.8891 };
    const place = (km: number, extra: Record<string, unknown> = {}) => ({ ...at(zaragoza, km, 'Zaragoza'), ...extra });
    const viewer = await api.userWithProfile(place(0, { gender: 'female' }), 'Vera');
    const fits = await api.userWithProfile(place(5, { gender: 'male' }), 'Adán');
    const wantsMen = await api.userWithProfile(place(3, { preferences: { gender_preference: 'male' } }), 'Berta');
    const wantsOlder = await api.userWithProfile(
      place(3, { birthDate: '1966-01-01', preferences: { age_range: { min: 40, max: 70 } } }),
      'Cirilo',
    );
    const tooFar = await api.userWithProfile(place(70), 'Dora');
    const nearButPicky = await api.userWithProfile(place(30, { preferences: { distance: 20 } }), 'Elías');
    const swiped = await api.userWithProfile(place(2), 'Fabio');
    const blockedMe = await api.userWithProfile(place(2), 'Gala');
    const iBlocked = await api.userWithProfile(place(2), 'Hilario');
    const hidden = await api.userWithProfile(place(2), 'Inma');
    const older = await api.userWithProfile(place(4, { birthDate: '1950-06-01' }), 'Julián');

    await api.post(
      `/swipes/users/${viewer.userId}/swipe`,
      { target_user_id: swiped.userId, action: 'dislike' },
      viewer.token,
    );
    await app.database.db.execute(sql`insert into blocks (blocker_id, blocked_id) values
      (${blockedMe.userId}, ${viewer.userId}), (${viewer.userId}, ${iBlocked.userId})`);
    expect((await api.put('/settings', { privacy: { showProfile: false } }, hidden.token)).status).toBe(200);

    const all = await deck(viewer);
    expect(new Set(ids(all))).toEqual(new Set([fits.userId, older.userId]));
    expect(all).toMatchObject({ success: true, totalProfiles: 2, currentPage: 1, hasMore: false });
    expect(all.profiles[0]).not.toHaveProperty('location.latitude');
    void [wantsMen, wantsOlder, tooFar, nearButPicky];

    // The viewer's own preferences: men only, 25 to 60.
    const updated = await api.put(
      `/profiles/${viewer.userId}`,
      { userId: viewer.userId, preferences: { gender_preference: 'male', age_range: { min: 25, max: 60 } } },
      viewer.token,
    );
    expect(updated.status).toBe(200);
    expect(ids(await deck(viewer))).toEqual([fits.userId]);
  });

  it('pages without duplicates or gaps, even after swiping, ranked by compatibility', async () => {
    const sevilla = { latitude: 37.3891, longitude: -5.9845 };
    const viewer = await api.userWithProfile(at(sevilla, 0, 'Sevilla'), 'Paula');
    const candidates: TestUser[] = [];
    for (let index = 0; index < 25; index += 1) {
      const sports = index % 3 === 0 ? ['Musculación', 'Running'] : index % 3 === 1 ? ['Yoga'] : ['Boxeo', 'Running'];
      candidates.push(
        await api.userWithProfile(
          {
            ...at(sevilla, (index % 10) + 0.5, 'Sevilla'),
            training: { sports, goals: ['Tonificar'], availability: ['Lunes mañana'], frequency: 1 + (index % 7) },
          },
          'Rocío',
        ),
      );
    }
    const first = await deck(viewer, '?page=1&limit=10');
    expect(first).toMatchObject({ totalProfiles: 25, currentPage: 1, hasMore: true });
    expect(first.profiles).toHaveLength(10);
    const scores = first.profiles.map((profile) => profile.compatibilityScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    // The user swipes the whole first page before the client asks for the next one.
    for (const userId of ids(first)) {
      await api.post(
        `/swipes/users/${viewer.userId}/swipe`,
        { target_user_id: userId, action: 'dislike' },
        viewer.token,
      );
    }
    const second = await deck(viewer, '?page=2&limit=10');
    const third = await deck(viewer, '?page=3&limit=10');
    expect(second).toMatchObject({ currentPage: 2, hasMore: true });
    expect(third).toMatchObject({ currentPage: 3, hasMore: false });
    expect(third.profiles).toHaveLength(5);
    const seen = [...ids(first), ...ids(second), ...ids(third)];
    expect(new Set(seen).size).toBe(25);
    expect(new Set(seen)).toEqual(new Set(candidates.map((candidate) => candidate.userId)));
    const rest = [...second.profiles, ...third.profiles].map((profile) => profile.compatibilityScore);
    expect(Math.max(...rest)).toBeLessThanOrEqual(Math.min(...scores));

    const fourth = await deck(viewer, '?page=4&limit=10');
    expect(fourth).toMatchObject({ profiles: [], message: 'no_matches_found', hasMore: false });

    // A fresh page 1 leaves out the swiped ones.
    expect((await deck(viewer, '?page=1&limit=50')).totalProfiles).toBe(15);
  });

  it("answers 'no_matches_found' when nobody fits, 404 without a profile, 403 for someone else's deck", async () => {
    const alone = await api.userWithProfile(
      { location: { latitude: 28.1, longitude: -15.43, city: 'Las Palmas' } },
      'Sol',
    );
    expect(await deck(alone)).toEqual({
      success: true,
      profiles: [],
      message: 'no_matches_found',
      totalProfiles: 0,
      currentPage: 1,
      hasMore: false,
    });
    const other = await api.userWithProfile({}, 'Tere');
    expect((await api.get(`/profiles/${alone.userId}/recommended`, other.token)).status).toBe(403);
    expect((await api.get(`/profiles/${alone.userId}/recommended?page=0`, alone.token)).status).toBe(400);
    expect((await api.get(`/profiles/${alone.userId}/recommended?limit=abc`, alone.token)).status).toBe(400);
  });

  it('checks a session this node has not cached with the deck: live answers, revoked is 401 before 403, 400 or 404, and a renewal comes back', async () => {
    const user = await api.userWithProfile({}, 'Olga');
    const other = await api.userWithProfile({}, 'Pilar');
    const noProfile = await createSignedInUser(app, 'Quique');
    // A session opened elsewhere: never read on this node, so its row is read by the deck's statement.
    const coldToken = async (userId: string) =>
      (await app.auth.sessions.issueSession(userId, { rememberMe: false })).token;
    const path = `/profiles/${user.userId}/recommended`;

    expect((await api.get(path, await coldToken(user.userId))).status).toBe(200);
    expect((await api.get(`${path}?page=2`, await coldToken(user.userId))).status).toBe(200);
    expect((await api.get(`/profiles/${noProfile.userId}/recommended`, await coldToken(noProfile.userId))).status).toBe(
      404,
    );

    const revoked = await coldToken(user.userId);
    expect((await api.post('/auth/logout', {}, revoked)).status).toBe(200);
    const revokedNoProfile = await coldToken(noProfile.userId);
    expect((await api.post('/auth/logout', {}, revokedNoProfile)).status).toBe(200);
    for (const [asked, token] of [
      [path, revoked],
      [`${path}?page=2`, revoked],
      [`${path}?page=0`, revoked],
      [`/profiles/${other.userId}/recommended`, revoked],
      [`/profiles/${noProfile.userId}/recommended`, revokedNoProfile],
    ] as const) {
      expect((await api.get(asked, token)).status, asked).toBe(401);
    }

    // Past half its life (12 h sessions): the renewed token comes back, as on any other route.
    const aging = await coldToken(user.userId);
    clock.advance(7 * 3_600_000);
    const renewed = await api.get(path, aging);
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get('x-new-token')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });
});
