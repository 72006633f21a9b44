import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapToGrid } from '#shared/discovery/distance';
import { createDiscoveryApi, type DiscoveryApi } from '../../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * QUALITY 9: an attacker walks a grid around the victim (moving their own position) and reads
 * the distance text; every position where it says the closest bucket must be consistent with a
 * whole ~1 km cell, so the victim cannot be placed more precisely than the snapping allows.
 */
describe('Q09 trilateration', () => {
  let app: TestApp;
  let api: DiscoveryApi;

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('moving around the victim never narrows them below the snapping cell', async () => {
    const victimExact = { latitude: 40.42137, longitude: -3.69411 };
    const victim = await api.userWithProfile({ location: { ...victimExact, city: 'Madrid' } }, 'Victima');
    const attacker = await api.userWithProfile({}, 'Atacante');
    const seen = new Set<string>();
    const closest: { latitude: number; longitude: number }[] = [];
    const step = 0.0025; // ~250 m: four probes per cell side
    for (let i = -6; i <= 6; i += 1) {
      for (let j = -6; j <= 6; j += 1) {
        const here = { latitude: victimExact.latitude + i * step, longitude: victimExact.longitude + j * step };
        const moved = await api.put(
          `/profiles/${attacker.userId}/location`,
          { location: { ...here, city: 'Madrid' } },
          attacker.token,
        );
        expect(moved.status, JSON.stringify(moved.body)).toBe(200);
        const profile = await api.get(`/profiles/${victim.userId}`, attacker.token);
        expect(profile.status).toBe(200);
        const text = String((profile.body.profile as { distanceText?: string }).distanceText);
        expect(JSON.stringify(profile.body)).not.toContain(String(victimExact.latitude));
        seen.add(text);
        if (/menos de 1 km/i.test(text)) closest.push(here);
      }
    }
    // Only coarse buckets, with a floor.
    for (const text of seen) expect(text).toMatch(/^(A menos de 1 km|A \d+ km)$/);
    // The "closest" answers all come from whole attacker cells: what the attacker learns is a set of
    // cells, never a point; it spans at least one full cell (≥ ~1 km across).
    const cells = new Set(closest.map((point) => JSON.stringify(snapToGrid(point.latitude, point.longitude))));
    expect(closest.length).toBeGreaterThan(0);
    const lats = closest.map((point) => point.latitude);
    expect(Math.max(...lats) - Math.min(...lats)).toBeGreaterThanOrEqual(0.009 - step); // a ~1 km cell, less one probe step of sampling
    expect(cells.size).toBeGreaterThanOrEqual(1);
    // The stored position is the snapped cell centre, never the exact one.
    const stored = await app.database.db.execute(
      (await import('drizzle-orm'))
        .sql`select latitude, longitude from profiles where user_id = ${victim.userId}::uuid`,
    );
    const row = (stored as unknown as { rows: { latitude: number; longitude: number }[] }).rows[0];
    expect(row).toEqual(snapToGrid(victimExact.latitude, victimExact.longitude));
  });
});
