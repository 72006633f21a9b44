// @setup embedded
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compatibility } from '#shared/discovery/compatibility';
import type { PublicProfile } from '#shared/profile/profile-views';
import { createDiscoveryApi, type DiscoveryApi, profileBody } from '../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/** "Por qué encajáis" (issue #17, docs/decisions/0023): reasons on every card and profile. */
describe('the reasons sent with every card', () => {
  let app: TestApp;
  let api: DiscoveryApi;

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  let town = 0;
  const inNewTown = () => {
    town += 1;
    return { latitude: 38 + town * 0.4, longitude: -6 + town * 0.4, city: `Villa${'x'.repeat(town)}` };
  };
  const common = {
    gym: { name: 'Basic-Fit Chamberí', trainingSchedule: ['Tarde'] },
    training: {
      sports: ['Musculación', 'Running'],
      goals: ['Aumentar fuerza'],
      availability: ['Lunes tarde', 'Miércoles tarde', 'Viernes tarde', 'Sábado mañana'],
      experienceLevel: 'intermediate',
      frequency: 4,
    },
  };
  const card = async (viewer: { userId: string; token: string }, userId: string) => {
    const deck = await api.get(`/profiles/${viewer.userId}/recommended?page=1&limit=50`, viewer.token);
    expect(deck.status).toBe(200);
    return (deck.body.profiles as PublicProfile[]).find((profile) => profile.userId === userId);
  };

  it('are the strongest factors of the shown score, on the card and the full profile, and hide nothing hidden', async () => {
    const location = inNewTown();
    const viewer = await api.userWithProfile({ location, ...common }, 'Vera');
    const hidden = await api.userWithProfile({ location, ...common, birthDate: '1991-07-07' }, 'Olivia');
    const saved = await api.put(
      '/settings',
      { privacy: { shareLocation: false, showAgeRange: false, showTrainingStats: false } },
      hidden.token,
    );
    expect(saved.status).toBe(200);

    const shown = await card(viewer, hidden.userId);
    const full = (await api.get(`/profiles/${hidden.userId}`, viewer.token)).body.profile as PublicProfile;
    const viewerBody = profileBody(viewer.userId, { location, ...common });
    for (const seen of [shown, full]) {
      expect(seen).toBeDefined();
      if (!seen) continue;
      const expected = compatibility(viewerBody, { gym: seen.gym, training: seen.training });
      expect(seen.compatibilityScore).toBe(expected.score);
      expect(seen.compatibilityReasons).toEqual(expected.reasons);
      expect(seen.compatibilityReasons).toEqual([
        'Los dos entrenáis por la mañana y por la tarde (4 franjas en común)',
        'Compartís 2 deportes: Musculación y Running',
        'Entrenáis en el mismo gimnasio',
      ]);
      // Location, age and stats are withheld: no reason says them either.
      expect(seen.age).toBeNull();
      expect(seen.distanceText).toBe('');
      const said = seen.compatibilityReasons.join(' ');
      expect(said).not.toMatch(/km|\d+ años|Villa|racha/i);
    }
  });

  it('for any training the two state: the reasons are those of the factors that added most', async () => {
    const options = {
      sports: ['Musculación', 'Running', 'Yoga', 'CrossFit'],
      goals: ['Aumentar fuerza', 'Perder peso', 'Ganar músculo'],
      availability: ['Lunes tarde', 'Martes mañana', 'Jueves tarde', 'Sábado mañana'],
      schedule: ['Mañana', 'Tarde', 'Noche'],
    };
    const trainingArbitrary = fc.record({
      sports: fc.subarray(options.sports, { minLength: 1 }),
      goals: fc.subarray(options.goals, { minLength: 1 }),
      availability: fc.subarray(options.availability, { minLength: 1 }),
      schedule: fc.subarray(options.schedule, { minLength: 1 }),
      experienceLevel: fc.constantFrom('beginner', 'intermediate', 'advanced'),
      frequency: fc.integer({ min: 1, max: 7 }),
      gym: fc.constantFrom('Basic-Fit Chamberí', 'McFit Sol'),
    });
    type Draw = typeof trainingArbitrary extends fc.Arbitrary<infer T> ? T : never;
    const asBody = (t: Draw) => ({
      gym: { name: t.gym, trainingSchedule: t.schedule },
      training: {
        sports: t.sports,
        goals: t.goals,
        availability: t.availability,
        experienceLevel: t.experienceLevel,
        frequency: t.frequency,
      },
    });
    await fc.assert(
      fc.asyncProperty(trainingArbitrary, trainingArbitrary, async (mine, theirs) => {
        const location = inNewTown();
        const viewer = await api.userWithProfile({ location, ...asBody(mine) }, 'Vera');
        const other = await api.userWithProfile({ location, ...asBody(theirs) }, 'Olga');
        const shown = await card(viewer, other.userId);
        expect(shown).toBeDefined();
        const { factors, score } = compatibility(
          profileBody(viewer.userId, asBody(mine)),
          profileBody(other.userId, asBody(theirs)),
        );
        expect(shown?.compatibilityScore).toBe(score);
        const reasons = shown?.compatibilityReasons ?? [];
        expect(reasons.length).toBeLessThanOrEqual(3);
        // Each shown reason belongs to a factor that added points, strongest first, and no factor
        // with a reason left out added more than one shown.
        const points = reasons.map((reason) => factors.find((factor) => factor.reason === reason)?.points ?? -1);
        for (const value of points) expect(value).toBeGreaterThan(0);
        expect(points).toEqual([...points].sort((x, y) => y - x));
        const leftOut = factors.filter((factor) => factor.reason !== null && !reasons.includes(factor.reason));
        if (reasons.length < 3) expect(leftOut).toEqual([]);
        for (const factor of leftOut) expect(factor.points).toBeLessThanOrEqual(Math.min(...points));
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
