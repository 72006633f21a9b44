// @setup embedded
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * /config «Preferencias de búsqueda» (issue 32 §5, docs/decisions/0050): each control, changed
 * through the call the screen makes, changes the next deck — on the candidate index and on the SQL
 * fallback alike. «Mostrar» is the profile's gender preference (PUT /api/profiles/{id}, as the
 * distance since 0027); «Nivel de experiencia» and «Horario preferido» are settings (PUT /api/settings).
 */
type Deck = { profiles: { userId: string; name: string }[]; totalProfiles: number };

/** A point `km` east of (latitude, longitude). */
const east = (latitude: number, longitude: number, km: number) => ({
  latitude,
  longitude: longitude + km / (111.195 * Math.cos((latitude * Math.PI) / 180)),
});

for (const path of ['index', 'sql'] as const) {
  describe(`search preferences reach the deck (${path === 'index' ? 'candidate index' : 'SQL fallback'})`, () => {
    let app: TestApp;
    let api: DiscoveryApi;
    let spot = 0;

    beforeAll(async () => {
      app = await startTestApp({ isDeckIndexEnabled: path === 'index' });
      api = createDiscoveryApi(app);
      await app.deckIndex?.ready();
    });
    afterAll(async () => {
      await app?.close();
    });

    /** A viewer and candidates in a town of their own (so the tests never see each other's people). */
    async function town(
      people: {
        name: string;
        gender?: string;
        experienceLevel?: string;
        trainingSchedule?: string[];
        availability?: string[];
      }[],
    ) {
      spot += 1;
      const centre = { latitude: 38 + spot * 0.7, longitude: -5 + (path === 'sql' ? 2 : 0) };
      const place = (km: number) => ({ location: { ...east(centre.latitude, centre.longitude, km), city: 'Pueblo' } });
      const viewer = await api.userWithProfile({ ...place(0), gender: 'female' }, 'Vera');
      const byName = new Map<string, TestUser>();
      for (const [n, person] of people.entries()) {
        const user = await api.userWithProfile(
          {
            ...place(1 + n),
            gender: person.gender ?? 'female',
            gym: { name: 'Polideportivo', trainingSchedule: person.trainingSchedule ?? ['Mañana'] },
            training: {
              sports: ['Running'],
              goals: ['Tonificar'],
              availability: person.availability ?? ['Lunes mañana'],
              experienceLevel: person.experienceLevel ?? 'intermediate',
              frequency: 3,
            },
          },
          person.name,
        );
        byName.set(person.name, user);
      }
      return { viewer, byName };
    }

    const deckNames = async (viewer: TestUser) => {
      const response = await api.get(`/profiles/${viewer.userId}/recommended?limit=50`, viewer.token);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const body = response.body as Deck;
      expect(body.totalProfiles).toBe(body.profiles.length);
      return body.profiles.map((profile) => profile.name).sort();
    };
    const putSettings = async (viewer: TestUser, search: Record<string, string>) => {
      const response = await api.call('PUT', '/settings', { token: viewer.token, body: { search } });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    };

    it("«Mostrar»: the profile's gender preference, both ways", async () => {
      const { viewer, byName } = await town([
        { name: 'Marta', gender: 'female' },
        { name: 'Mario', gender: 'male' },
        { name: 'Noa', gender: 'non-binary' },
      ]);
      expect(await deckNames(viewer)).toEqual(['Mario', 'Marta', 'Noa']);
      // What /config sends for «Mostrar: Hombres».
      const men = await api.put(
        `/profiles/${viewer.userId}`,
        { userId: viewer.userId, preferences: { gender_preference: 'male' } },
        viewer.token,
      );
      expect(men.status, JSON.stringify(men.body)).toBe(200);
      expect(await deckNames(viewer)).toEqual(['Mario']);
      // Both ways: Mario stops accepting women, and leaves Vera's deck.
      const mario = byName.get('Mario') as TestUser;
      const onlyMen = await api.put(
        `/profiles/${mario.userId}`,
        { userId: mario.userId, preferences: { gender_preference: 'male' } },
        mario.token,
      );
      expect(onlyMen.status).toBe(200);
      expect(await deckNames(viewer)).toEqual([]);
      // «Mostrar: Todos» is «Ambos»: everyone who accepts her.
      const everyone = await api.put(
        `/profiles/${viewer.userId}`,
        { userId: viewer.userId, preferences: { gender_preference: 'both' } },
        viewer.token,
      );
      expect(everyone.status).toBe(200);
      expect(await deckNames(viewer)).toEqual(['Marta', 'Noa']);
    });

    it('«Nivel de experiencia»: only that level, «Todos los niveles» everyone', async () => {
      const { viewer } = await town([
        { name: 'Berta', experienceLevel: 'beginner' },
        { name: 'Irene', experienceLevel: 'intermediate' },
        { name: 'Alba', experienceLevel: 'advanced' },
        { name: 'Ainhoa', experienceLevel: 'advanced' },
      ]);
      expect(await deckNames(viewer)).toEqual(['Ainhoa', 'Alba', 'Berta', 'Irene']);
      await putSettings(viewer, { experienceLevel: 'advanced' });
      expect(await deckNames(viewer)).toEqual(['Ainhoa', 'Alba']);
      await putSettings(viewer, { experienceLevel: 'beginner' });
      expect(await deckNames(viewer)).toEqual(['Berta']);
      await putSettings(viewer, { experienceLevel: 'all' });
      expect(await deckNames(viewer)).toEqual(['Ainhoa', 'Alba', 'Berta', 'Irene']);
    });

    it('«Horario preferido»: people who train in that part of the day (preferred schedule or slots)', async () => {
      const { viewer } = await town([
        { name: 'Mañanera', trainingSchedule: ['Mañana'], availability: ['Lunes mañana'] },
        { name: 'Tardía', trainingSchedule: ['Tarde'], availability: ['Martes tarde'] },
        { name: 'Noctámbula', trainingSchedule: ['Noche'], availability: ['Miércoles tarde'] },
        // Prefers the night, but her slots include a morning: she trains in the morning too.
        { name: 'Mixta', trainingSchedule: ['Noche'], availability: ['Jueves mañana'] },
      ]);
      expect(await deckNames(viewer)).toEqual(['Mañanera', 'Mixta', 'Noctámbula', 'Tardía']);
      await putSettings(viewer, { preferredSchedule: 'morning' });
      expect(await deckNames(viewer)).toEqual(['Mañanera', 'Mixta']);
      await putSettings(viewer, { preferredSchedule: 'afternoon' });
      expect(await deckNames(viewer)).toEqual(['Noctámbula', 'Tardía']);
      await putSettings(viewer, { preferredSchedule: 'evening' });
      expect(await deckNames(viewer)).toEqual(['Mixta', 'Noctámbula']);
      // Together with the level, and back to «Flexible».
      await putSettings(viewer, { experienceLevel: 'advanced' });
      expect(await deckNames(viewer)).toEqual([]);
      await putSettings(viewer, { preferredSchedule: 'flexible', experienceLevel: 'all' });
      expect(await deckNames(viewer)).toEqual(['Mañanera', 'Mixta', 'Noctámbula', 'Tardía']);
    });

    it('a page 2 of a deck ranked before the change shows nobody the new filters leave out', async () => {
      const people = Array.from({ length: 14 }, (_, n) => ({
        name: `Persona ${String.fromCharCode(65 + n)}`,
        experienceLevel: n % 2 === 0 ? 'advanced' : 'beginner',
      }));
      const { viewer, byName } = await town(people);
      const first = await api.get(`/profiles/${viewer.userId}/recommended?page=1&limit=7`, viewer.token);
      expect((first.body as Deck).totalProfiles).toBe(14);
      await putSettings(viewer, { experienceLevel: 'advanced' });
      const second = await api.get(`/profiles/${viewer.userId}/recommended?page=2&limit=7`, viewer.token);
      expect(second.status).toBe(200);
      const advanced = new Set(people.filter((p) => p.experienceLevel === 'advanced').map((p) => p.name));
      for (const shown of (second.body as Deck).profiles) {
        expect(advanced.has(shown.name), shown.name).toBe(true);
        expect(byName.get(shown.name)).toBeDefined();
      }
    });
  });
}
