// @setup scaled — the deck index on PostgreSQL 15, and on two nodes
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeckIndexRepository } from '../../src/server/features/discovery/ranking/deck-index-repository.ts';
import { createLiveDeckIndex } from '../../src/server/features/discovery/ranking/live-deck-index.ts';
import { createRecommendationRepository } from '../../src/server/features/discovery/recommendation-repository.ts';
import { deckFiltersOf, passesDeckFilters } from '../../src/server/features/discovery/ranking/deck-filters.ts';
import { deckViewerOf } from '../../src/server/features/discovery/ranking/deck-viewer.ts';
import { createRecommendationService } from '../../src/server/features/discovery/recommendation-service.ts';
import { createProfileRepository } from '../../src/server/features/profiles/profile-repository.ts';
import { compatibility, compatibilityFeatures } from '../../src/shared/discovery/compatibility.ts';
import { PREFERRED_SCHEDULES, SEARCH_EXPERIENCE_LEVELS } from '../../src/shared/settings/settings-schema.ts';
import {
  AVAILABILITY_SLOTS,
  COMMITMENT_LEVELS,
  EXPERIENCE_LEVELS,
  GOALS,
  MOTIVATIONS,
  SOCIAL_PREFERENCES,
  SPORTS,
  TRAINING_SCHEDULES,
} from '../../src/shared/profile/options.ts';
import { eventually } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock } from '../helpers/test-clock.ts';

type Deck = { profiles: { userId: string; compatibilityScore: number }[]; totalProfiles: number };

/** A point `km` east of (latitude, longitude). */
const east = (latitude: number, longitude: number, km: number) => ({
  latitude,
  longitude: longitude + km / (111.195 * Math.cos((latitude * Math.PI) / 180)),
});

const nonEmpty = <T>(values: readonly T[]) => fc.subarray([...values], { minLength: 1 });

/** Profile bodies as the API accepts them, with every factor of the score drawn. */
const profileOverrides = fc.record({
  gender: fc.constantFrom('male', 'female', 'non-binary'),
  birthDate: fc.constantFrom('1990-05-01', '1996-01-15', '2000-11-30', '1985-02-28'),
  gym: fc.record({
    name: fc.constantFrom('Altafit Indautxu', 'ALTAFIT indautxu', 'McFit Bilbao', 'Basic-Fit Deusto'),
    trainingSchedule: nonEmpty(TRAINING_SCHEDULES),
  }),
  training: fc.record({
    sports: nonEmpty(SPORTS),
    goals: nonEmpty(GOALS),
    availability: nonEmpty(AVAILABILITY_SLOTS),
    motivation: fc.subarray([...MOTIVATIONS]),
    experienceLevel: fc.constantFrom(...EXPERIENCE_LEVELS),
    commitment_level: fc.constantFrom(...COMMITMENT_LEVELS),
    socialPreference: fc.constantFrom(...SOCIAL_PREFERENCES),
    frequency: fc.integer({ min: 1, max: 7 }),
  }),
  preferences: fc.record({
    gender_preference: fc.constantFrom('both', 'both', 'male', 'female'),
    age_range: fc.constantFrom({ min: 18, max: 99 }, { min: 25, max: 40 }, { min: 20, max: 35 }),
    distance: fc.constantFrom(5, 15, 50),
  }),
  km: fc.integer({ min: 0, max: 12 }),
});

describe('the deck index (docs/decisions/0022)', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createDiscoveryApi(app);
    await app.deckIndex?.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  const deck = async (user: TestUser, query = '') => {
    const response = await api.get(`/profiles/${user.userId}/recommended${query}`, user.token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as Deck;
  };
  it('ranks every deck exactly like the SQL query, with the scores of compatibility(), whatever the filters', async () => {
    const bilbao = { latitude: 43.263, longitude: -2.935 };
    const drawn = fc.sample(profileOverrides, { numRuns: 36, seed: 2026 });
    const users: TestUser[] = [];
    for (const [n, { km, ...overrides }] of drawn.entries()) {
      users.push(
        await api.userWithProfile(
          { ...overrides, location: { ...east(bilbao.latitude, bilbao.longitude, km), city: 'Bilbao' } },
          `Bilbao ${'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'.charAt(n)}`,
        ),
      );
    }
    const index = await app.deckIndex?.current();
    expect(index, 'the index is loaded').toBeDefined();
    if (!index) return;
    const profiles = createProfileRepository(app.database.db);
    const bySql = createRecommendationRepository(app.database.db);
    const now = clock.now();
    const byId = new Map(
      (await profiles.findManyByUserIds(users.map((user) => user.userId))).map((profile) => [profile.userId, profile]),
    );
    let compared = 0;
    let filtered = 0;
    // Every viewer of the drawn population, with every /config filter drawn: the two rankings agree.
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: users.length - 1 }),
        fc.constantFrom(...SEARCH_EXPERIENCE_LEVELS),
        fc.constantFrom(...PREFERRED_SCHEDULES),
        async (n, experienceLevel, preferredSchedule) => {
          const me = byId.get((users[n] as TestUser).userId);
          if (!me) throw new Error('no profile');
          const filters = deckFiltersOf({ experienceLevel, preferredSchedule });
          const viewer = deckViewerOf(me, now, filters);
          const fromSql = await bySql.candidates(viewer, null, 200);
          const fromIndex = index.rank({ ...viewer, features: compatibilityFeatures(me) }, new Set(), null, 200);
          expect(fromIndex.total).toBe(fromSql.total);
          expect(fromIndex.entries.map(([id, score]) => [id, score])).toEqual(
            fromSql.entries.map(([id, score]) => [id, score]),
          );
          const unfiltered = index.rank(
            { ...deckViewerOf(me, now), features: compatibilityFeatures(me) },
            new Set(),
            null,
            200,
          );
          if (unfiltered.total > fromIndex.total) filtered += 1;
          for (const [id, score, km] of fromIndex.entries) {
            const other = byId.get(id);
            if (!other) throw new Error('no profile');
            expect(score).toBe(compatibility(me, other).score);
            expect(passesDeckFilters(filters, compatibilityFeatures(other))).toBe(true);
            expect(km).toBeCloseTo(fromSql.entries.find(([sqlId]) => sqlId === id)?.[2] ?? Number.NaN, 6);
            compared += 1;
          }
          // Nobody the filters let through is left out: the filtered deck is the unfiltered one, filtered.
          expect(fromIndex.entries.map(([id]) => id)).toEqual(
            unfiltered.entries
              .map(([id]) => id)
              .filter((id) => passesDeckFilters(filters, compatibilityFeatures(byId.get(id) ?? me))),
          );
        },
      ),
      { numRuns: 120, seed: 50 },
    );
    // The draw must give the comparison something to compare, and the filters something to remove.
    expect(compared).toBeGreaterThan(200);
    expect(filtered).toBeGreaterThan(20);
  });

  it('reflects a new profile, an edit, a move, a block, a swipe, a match and a deletion in the next deck request', async () => {
    const murcia = { latitude: 37.9922, longitude: -1.1307 };
    const place = (km: number, extra: Record<string, unknown> = {}) => ({
      location: { ...east(murcia.latitude, murcia.longitude, km), city: 'Murcia' },
      ...extra,
    });
    const viewer = await api.userWithProfile(place(0, { gender: 'female' }), 'Marta');
    const stays = await api.userWithProfile(place(2), 'Nuria');
    expect(ids(await deck(viewer))).toEqual([stays.userId]);

    const newcomer = await api.userWithProfile(place(1), 'Olga');
    expect(new Set(ids(await deck(viewer)))).toEqual(new Set([stays.userId, newcomer.userId]));

    // An edit that stops accepting the viewer (women): gone from the deck and from its total.
    const edited = await api.put(
      `/profiles/${newcomer.userId}`,
      { userId: newcomer.userId, preferences: { gender_preference: 'male' } },
      newcomer.token,
    );
    expect(edited.status).toBe(200);
    expect(await deck(viewer)).toMatchObject({ totalProfiles: 1, profiles: [{ userId: stays.userId }] });

    // A move out of reach and back.
    const moved = async (km: number) => api.put(`/profiles/${stays.userId}/location`, place(km), stays.token);
    expect((await moved(80)).status).toBe(200);
    expect(await deck(viewer)).toMatchObject({ totalProfiles: 0, profiles: [] });
    expect((await moved(3)).status).toBe(200);
    expect(await deck(viewer)).toMatchObject({ totalProfiles: 1, profiles: [{ userId: stays.userId }] });

    // A block (by the candidate), a swipe (by the viewer), a deletion.
    const blocker = await api.userWithProfile(place(1), 'Pilar');
    const swiped = await api.userWithProfile(place(1), 'Quima');
    const leaving = await api.userWithProfile(place(1), 'Rosa');
    expect((await deck(viewer)).totalProfiles).toBe(4);
    expect((await api.post('/safety/blocks', { userId: viewer.userId }, blocker.token)).status).toBe(201);
    expect((await deck(viewer)).totalProfiles).toBe(3);
    const swipe = await api.post(
      `/swipes/users/${viewer.userId}/swipe`,
      { target_user_id: swiped.userId, action: 'dislike' },
      viewer.token,
    );
    expect(swipe.status).toBe(200);
    expect((await deck(viewer)).totalProfiles).toBe(2);
    // A match made without a swipe («Conectar» after an open session, decision 0055).
    const connected = await api.userWithProfile(place(1), 'Sara');
    expect((await deck(viewer)).totalProfiles).toBe(3);
    await app.database.db.execute(sql`insert into matches (user_low, user_high, swipe_type)
      values (least(${viewer.userId}::uuid, ${connected.userId}::uuid),
        greatest(${viewer.userId}::uuid, ${connected.userId}::uuid), 'like')`);
    expect((await deck(viewer)).totalProfiles).toBe(2);
    const deleted = await api.call('DELETE', '/account', { body: { confirmation: 'ELIMINAR' }, token: leaving.token });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await deck(viewer)).toMatchObject({ totalProfiles: 1, profiles: [{ userId: stays.userId }] });

    // Any writer at all (here plain SQL, as an operator would) reaches the index through the feed.
    await app.database.db.execute(sql`update profiles set visible = false where user_id = ${stays.userId}`);
    await eventually(async () => (await deck(viewer)).totalProfiles === 0);
    expect(await app.deckIndex?.current()).toBeDefined();
  });

  it('answers correctly while the index (re)builds: from SQL, the same deck', async () => {
    const palma = { latitude: 39.5696, longitude: 2.6502 };
    const viewer = await api.userWithProfile({ location: { ...palma, city: 'Palma' } }, 'Sara');
    for (const km of [1, 2, 3, 4, 5, 6]) {
      await api.userWithProfile(
        {
          location: { ...east(palma.latitude, palma.longitude, km), city: 'Palma' },
          training: {
            sports: km % 2 === 0 ? ['Yoga'] : ['Musculación', 'Running'],
            goals: ['Tonificar'],
            availability: ['Lunes mañana'],
          },
        },
        `Palma ${'abcdefg'.charAt(km)}`,
      );
    }
    const repository = createDeckIndexRepository(app.database.db);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const live = createLiveDeckIndex({
      source: {
        ...repository,
        async candidatesAfter(after, limit) {
          await gate;
          return repository.candidatesAfter(after, limit);
        },
      },
      logger: { info() {}, warn() {} },
    });
    const service = createRecommendationService({
      recommendations: createRecommendationRepository(app.database.db),
      profiles: createProfileRepository(app.database.db),
      clock,
      index: { live, repository },
    });
    try {
      await live.start();
      expect(await live.current(), 'still loading').toBeUndefined();
      const duringLoad = await service.recommended({ userId: viewer.userId, sessionId: 'unused' }, viewer.userId, {
        page: '1',
        limit: '10',
      });
      release();
      await live.ready();
      expect(await live.current(), 'loaded').toBeDefined();
      const afterLoad = await service.recommended({ userId: viewer.userId, sessionId: 'unused' }, viewer.userId, {
        page: '1',
        limit: '10',
      });
      expect(duringLoad.profiles).toHaveLength(6);
      expect(afterLoad).toEqual(duringLoad);
    } finally {
      release();
      await live.close();
    }
  });
});

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

/** Two nodes on one PostgreSQL database and one Redis: each keeps its own index, fed by the database. */
describe.runIf(isScaled)('the deck index on two nodes', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let nodeA: TestApp;
  let nodeB: TestApp;

  beforeAll(async () => {
    nodeA = await startTestApp({}, { dependencies: { clock } });
    nodeB = await startTestApp(
      {
        databaseUrl: nodeA.config.databaseUrl,
        tokenSecret: nodeA.config.tokenSecret,
        redisKeyPrefix: nodeA.config.redisKeyPrefix,
      },
      { dependencies: { clock } },
    );
    await Promise.all([nodeA.deckIndex?.ready(), nodeB.deckIndex?.ready()]);
  });
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
  });

  it("reflects writes made on one node in the other node's decks", async () => {
    const a = createDiscoveryApi(nodeA);
    const b = createDiscoveryApi(nodeB);
    const valladolid = { latitude: 41.6523, longitude: -4.7245 };
    const place = (km: number, extra: Record<string, unknown> = {}) => ({
      location: { ...east(valladolid.latitude, valladolid.longitude, km), city: 'Valladolid' },
      ...extra,
    });
    const viewer = await b.userWithProfile(place(0, { gender: 'female' }), 'Teresa');
    const onB = async () => {
      const response = await b.get(`/profiles/${viewer.userId}/recommended`, viewer.token);
      expect(response.status).toBe(200);
      return response.body as Deck;
    };
    expect(await nodeB.deckIndex?.current(), 'node B ranks with its index').toBeDefined();
    expect((await onB()).totalProfiles).toBe(0);

    // New (on A), seen on B.
    const newcomer = await a.userWithProfile(place(2), 'Ursula');
    const other = await a.userWithProfile(place(3), 'Valeria');
    await eventually(async () => (await onB()).totalProfiles === 2);
    // Edited on A (no longer accepts women), then moved away on A.
    expect(
      (
        await a.put(
          `/profiles/${newcomer.userId}`,
          { userId: newcomer.userId, preferences: { gender_preference: 'male' } },
          newcomer.token,
        )
      ).status,
    ).toBe(200);
    await eventually(async () => (await onB()).totalProfiles === 1);
    expect((await a.put(`/profiles/${other.userId}/location`, place(80), other.token)).status).toBe(200);
    await eventually(async () => (await onB()).totalProfiles === 0);
    // Back in reach, then deleted on A.
    expect((await a.put(`/profiles/${other.userId}/location`, place(1), other.token)).status).toBe(200);
    await eventually(async () => ids(await onB()).includes(other.userId));
    const deleted = await a.call('DELETE', '/account', { body: { confirmation: 'ELIMINAR' }, token: other.token });
    expect(deleted.status).toBe(200);
    await eventually(async () => (await onB()).totalProfiles === 0);
    // A block and a swipe made on A leave B's very next deck (both are read per request).
    const blocker = await a.userWithProfile(place(1), 'Wanda');
    const swiped = await a.userWithProfile(place(1), 'Ximena');
    await eventually(async () => (await onB()).totalProfiles === 2);
    expect((await a.post('/safety/blocks', { userId: viewer.userId }, blocker.token)).status).toBe(201);
    expect((await onB()).totalProfiles).toBe(1);
    const swipe = await a.post(
      `/swipes/users/${viewer.userId}/swipe`,
      { target_user_id: swiped.userId, action: 'like' },
      viewer.token,
    );
    expect(swipe.status).toBe(200);
    expect(await onB()).toMatchObject({ totalProfiles: 0, profiles: [] });
  });
});

const ids = (body: Deck) => body.profiles.map((profile) => profile.userId);
