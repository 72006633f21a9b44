import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  const search = async (query: string, location?: { latitude: number; longitude: number }) => {
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

  it('adds gyms typed in profiles', async () => {
    expect(await search('Gimnasio Hércules Lavapiés')).not.toContainEqual(
      expect.objectContaining({ name: 'Gimnasio Hércules Lavapiés' }),
    );
    await api.userWithProfile({ gym: { name: 'Gimnasio Hércules Lavapiés', trainingSchedule: ['Tarde'] } });
    await expect.poll(async () => (await search('hercules lava'))[0]?.name).toBe('Gimnasio Hércules Lavapiés');
  });

  it('refuses an unknown tool and bad arguments with Spanish 400s; needs a token', async () => {
    const unknown = await api.post(
      '/mcp/tool',
      { server_name: 'x', tool_name: 'drop_tables', arguments: {} },
      user.token,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ success: false, message: 'Herramienta no disponible' });
    const bad = await api.post('/mcp/tool', { tool_name: 'search_gyms', arguments: { query: 42 } }, user.token);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('La búsqueda de gimnasios no es válida');
    expect((await api.post('/mcp/tool', { tool_name: 'search_gyms', arguments: { query: 'altafit' } })).status).toBe(
      401,
    );
  });
});
