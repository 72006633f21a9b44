// @setup embedded
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeGymName } from '#shared/discovery/compatibility';
import { snapToGrid } from '#shared/discovery/distance';
import { createDiscoveryApi, createSignedInUser, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

type Gym = { name: string; address: string; city: string; chain?: string; distanceKm?: number };

describe('gym search (spec 001 §2 step 2, §7: POST /api/mcp/tool)', () => {
  let app: TestApp;
  let api: DiscoveryApi;
  let user: TestUser;

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
    user = await createSignedInUser(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const search = async (query: string, location?: object) => {
    const response = await api.post(
      '/mcp/tool',
      { server_name: 'gyms', tool_name: 'search_gyms', arguments: { query, ...(location ? { location } : {}) } },
      user.token,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.success).toBe(true);
    return response.body.gyms as Gym[];
  };

  it('finds nothing under 3 characters', async () => {
    expect(await search('al')).toEqual([]);
    expect(await search('  a ')).toEqual([]);
  });

  it('ranks names that start with the query first, ignoring case and accents', async () => {
    const gyms = await search('ALTAFIT arguelles');
    expect(gyms[0]).toMatchObject({ name: 'Altafit Argüelles', city: 'Madrid', chain: 'Altafit' });
    expect(gyms[0]?.address).toMatch(/, \d+$/);
    const prefix = await search('vivag');
    expect(prefix.length).toBeGreaterThan(3);
    expect(prefix.every((gym) => gym.name.startsWith('VivaGym'))).toBe(true);
  });

  it('tolerates a typo (trigram similarity) and prefers nearby clubs with a location', async () => {
    expect((await search('Anytime Fitnes'))[0]?.chain).toBe('Anytime Fitness');
    const nearBilbao = await search('basic-fit', { latitude: 43.263, longitude: -2.935 });
    expect(nearBilbao[0]?.city).toBe('Bilbao');
    expect(nearBilbao[0]?.distanceKm).toBeLessThan(10);
    const nearSevilla = await search('basic-fit', { latitude: 37.3891, longitude: -5.9845 });
    expect(nearSevilla[0]?.city).toBe('Sevilla');
  });

  it('ranks by name similarity first and nearness second, from the snapped position', async () => {
    const clubs = [
      { name: 'Zentrix Retiro', city: 'Madrid', latitude: 40.4153, longitude: -3.6845 },
      { name: 'Zentrix Gràcia', city: 'Barcelona', latitude: 41.4036, longitude: 2.1565 },
      { name: 'Zentrix Triana', city: 'Sevilla', latitude: 37.3828, longitude: -6.0026 },
    ];
    for (const club of clubs) {
      await app.database.db.execute(sql`insert into gyms (name, name_key, address, city, city_key, latitude, longitude, source)
        values (${club.name}, ${normalizeGymName(club.name)}, '', ${club.city}, ${normalizeGymName(club.city)},
                ${club.latitude}, ${club.longitude}, 'seed')`);
    }
    const barcelona = { latitude: 41.3874, longitude: 2.1686 };
    const sevilla = { latitude: 37.3891, longitude: -5.9845 };
    const names = (gyms: Gym[]) => gyms.map((gym) => gym.name).filter((name) => name.startsWith('Zentrix'));

    // The same match on the name: the nearest club first, with its distance.
    const fromBarcelona = await search('zentrix', barcelona);
    expect(names(fromBarcelona)[0]).toBe('Zentrix Gràcia');
    expect(fromBarcelona[0]?.distanceKm).toBeLessThan(3);
    expect(names(await search('zentrix', sevilla))[0]).toBe('Zentrix Triana');
    // A better name beats a nearer club.
    expect(names(await search('zentrix triana', barcelona))[0]).toBe('Zentrix Triana');
    // Without a position there is no distance.
    expect((await search('zentrix'))[0]).not.toHaveProperty('distanceKm');

    // Far from every club of a chain, the results still come nearest first, and a gym nobody
    // located (typed in a profile) never takes the place of a located one.
    await app.database.db.execute(sql`insert into gyms (name, name_key, city, city_key, source)
      values ('Zentrix Sin Dirección', 'zentrix sin direccion', 'Teruel', 'teruel', 'user')`);
    const fromJaca = await search('zentrix', { latitude: 42.5704, longitude: -0.5498 });
    expect(names(fromJaca)).toEqual(['Zentrix Gràcia', 'Zentrix Retiro', 'Zentrix Triana', 'Zentrix Sin Dirección']);
    const basicFits = await search('basic-fit', { latitude: 42.5704, longitude: -0.5498 });
    const distances = basicFits.map((gym) => gym.distanceKm ?? Number.POSITIVE_INFINITY);
    expect(distances.length).toBeGreaterThan(3);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(distances[0]).toBeLessThan(200);

    // Two positions in the same ~1 km cell get the same answer: the raw position is never used.
    const centre = snapToGrid(40.4, -3.7);
    const nearby = { latitude: centre.latitude + 0.002, longitude: centre.longitude - 0.002 };
    expect(snapToGrid(nearby.latitude, nearby.longitude)).toEqual(centre);
    const [fromCentre, fromNearby] = [await search('zentrix retiro', centre), await search('zentrix retiro', nearby)];
    expect(fromCentre[0]).toMatchObject({ name: 'Zentrix Retiro' });
    expect(fromNearby[0]?.distanceKm).toBe(fromCentre[0]?.distanceKm);
  });

  it('adds gyms typed in profiles', async () => {
    expect(await search('Gimnasio Hércules Lavapiés')).not.toContainEqual(
      expect.objectContaining({ name: 'Gimnasio Hércules Lavapiés' }),
    );
    await api.userWithProfile({ gym: { name: 'Gimnasio Hércules Lavapiés', trainingSchedule: ['Tarde'] } });
    await expect.poll(async () => (await search('hercules lava'))[0]?.name).toBe('Gimnasio Hércules Lavapiés');
  });

  it('accepts arguments.location as the spec shows it: coordinates and/or a city', async () => {
    // A city alone ranks that city's clubs first.
    const inValencia = await search('basic-fit', { city: 'Valencia' });
    expect(inValencia[0]?.city).toBe('Valencia');
    const inBilbao = await search('basic-fit', { city: 'bilbao ' });
    expect(inBilbao[0]?.city).toBe('Bilbao');
    // Coordinates and a city together: the coordinates decide.
    const both = await search('basic-fit', { latitude: 37.3891, longitude: -5.9845, city: 'Bilbao' });
    expect(both[0]?.city).toBe('Sevilla');
    // Extra keys in the location are ignored, not refused.
    const extra = await search('basic-fit', { latitude: 43.263, longitude: -2.935, accuracy: 30 });
    expect(extra[0]?.city).toBe('Bilbao');
  });

  it('answers an empty list, never an error, for arguments of any other shape', async () => {
    const shapes: unknown[] = [
      { query: 42 },
      { query: 'altafit', location: 'Madrid' },
      { query: 'altafit', location: { latitude: 40.4 } },
      { query: 'altafit', location: { latitude: 400, longitude: 0 } },
      { query: 'altafit', location: [40.4, -3.7] },
      { query: 'altafit', location: {} },
      { query: 'x'.repeat(500) },
      'altafit',
      null,
      [],
    ];
    for (const args of shapes) {
      const answer = await api.post('/mcp/tool', { tool_name: 'search_gyms', arguments: args }, user.token);
      expect(answer.status, JSON.stringify(args)).toBe(200);
      expect(answer.body).toEqual({ success: true, gyms: [] });
    }
  });

  it('refuses an unknown tool with a Spanish 400; needs a token', async () => {
    const unknown = await api.post(
      '/mcp/tool',
      { server_name: 'x', tool_name: 'drop_tables', arguments: {} },
      user.token,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ success: false, message: 'Herramienta no disponible' });
    expect((await api.post('/mcp/tool', { tool_name: 'search_gyms', arguments: { query: 'altafit' } })).status).toBe(
      401,
    );
  });
});
