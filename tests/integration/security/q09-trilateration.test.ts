// @setup embedded
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRID_CELL_KM, gridCell, haversineKm, type LatLon, snapToGrid } from '#shared/discovery/distance';
import { createDiscoveryApi, type DiscoveryApi } from '../../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createTestClock, SECOND } from '../../helpers/test-clock.ts';

const KM_PER_DEGREE = (Math.PI * 6371.0088) / 180;
/** A point `north` km north and `east` km east of `origin`. */
const offset = (origin: LatLon, north: number, east: number): LatLon => ({
  latitude: origin.latitude + north / KM_PER_DEGREE,
  longitude: origin.longitude + east / (KM_PER_DEGREE * Math.cos((origin.latitude * Math.PI) / 180)),
});
const sameCell = (a: LatLon, b: LatLon) => {
  const x = gridCell(a.latitude, a.longitude);
  const y = gridCell(b.latitude, b.longitude);
  return x.row === y.row && x.column === y.column;
};

/**
 * QUALITY 9 and #19 §2: an attacker moves their own position in 400 m steps around two victims,
 * keeping to the move limits (waiting out every 429), and reads what the app tells them about
 * each victim: distance text, numeric distance, deck order. The two victims are more than 2 km
 * apart, and the attacker must not be able to tell them apart — so it cannot place either closer
 * than 2 km.
 */
describe('Q09 trilateration', () => {
  const clock = createTestClock();
  let app: TestApp;
  let api: DiscoveryApi;

  beforeAll(async () => {
    app = await startTestApp({ rateLimitIpFactor: 1000 }, { dependencies: { clock } });
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a 400 m-step attacker within the limits cannot tell apart two people 2+ km apart', async () => {
    // Two victims in one privacy cell, as far apart as the cell allows north to south.
    const centre = snapToGrid(40.42137, -3.69411);
    const victimA = offset(centre, -0.45 * GRID_CELL_KM, 0.1);
    const victimB = offset(centre, 0.45 * GRID_CELL_KM, -0.1);
    expect(sameCell(victimA, victimB)).toBe(true);
    expect(haversineKm(victimA, victimB)).toBeGreaterThan(2);
    const a = await api.userWithProfile({ location: { ...victimA, city: 'Madrid' } }, 'Alba');
    const b = await api.userWithProfile({ location: { ...victimB, city: 'Madrid' } }, 'Berta');
    const attacker = await api.userWithProfile({ location: { ...centre, city: 'Madrid' } }, 'Atacante');

    let refusedForPace = 0;
    let probes = 0;
    const closestForA: LatLon[] = [];
    // A serpentine walk in 400 m steps over 4.8 km × 4.8 km around the victims' cell.
    for (let row = -6; row <= 6; row += 1) {
      for (let step = -6; step <= 6; step += 1) {
        const column = row % 2 === 0 ? step : -step;
        const here = offset(centre, row * 0.4, column * 0.4);
        for (;;) {
          const moved = await api.put(
            `/profiles/${attacker.userId}/location`,
            { location: { ...here, city: 'Madrid' } },
            attacker.token,
          );
          if (moved.status === 429) {
            // Within the limits: wait as long as the server says, then try again.
            refusedForPace += 1;
            clock.advance(Number(moved.headers.get('retry-after')) * SECOND);
            continue;
          }
          expect(moved.status, JSON.stringify(moved.body)).toBe(200);
          break;
        }
        probes += 1;
        const [seenA, seenB] = await Promise.all([
          api.get(`/profiles/${a.userId}`, attacker.token),
          api.get(`/profiles/${b.userId}`, attacker.token),
        ]);
        const profileA = seenA.body.profile as { distanceText: string; distance: number; compatibilityScore: number };
        const profileB = seenB.body.profile as typeof profileA;
        // Everything location-derived is the same for both: the attacker cannot tell them apart.
        expect([profileB.distanceText, profileB.distance], `at ${row},${column}`).toEqual([
          profileA.distanceText,
          profileA.distance,
        ]);
        expect(profileA.distanceText).toMatch(/^(A menos de 1 km|A \d+ km)$/);
        if (profileA.distanceText === 'A menos de 1 km') closestForA.push(here);
        const raw = JSON.stringify([seenA.body, seenB.body]);
        expect(raw).not.toContain(String(victimA.latitude).slice(0, 7));
        expect(raw).not.toContain(String(victimB.latitude).slice(0, 7));
      }
    }
    expect(probes).toBe(13 * 13);
    // The limits applied (and the attacker waited them out).
    expect(refusedForPace).toBeGreaterThan(0);
    // Where the attacker reads "A menos de 1 km" spans a whole cell, at least 2 km each way.
    const lats = closestForA.map((point) => point.latitude);
    const lons = closestForA.map((point) => point.longitude);
    const south = Math.min(...lats);
    const west = Math.min(...lons);
    expect(
      haversineKm({ latitude: south, longitude: west }, { latitude: Math.max(...lats), longitude: west }),
    ).toBeGreaterThan(2);
    expect(
      haversineKm({ latitude: south, longitude: west }, { latitude: south, longitude: Math.max(...lons) }),
    ).toBeGreaterThan(2);
    // Both are stored as the same cell centre, never as sent.
    const stored = await app.database.db.execute(
      sql`select latitude, longitude from profiles where user_id in (${a.userId}::uuid, ${b.userId}::uuid)`,
    );
    for (const row of (stored as unknown as { rows: LatLon[] }).rows) expect(row).toEqual(centre);
  }, 90_000);

  it('refuses 0,0 and positions off the globe, and a jump too far for the time since the last move', async () => {
    const user = await api.userWithProfile({}, 'Viajera');
    const move = (latitude: number, longitude: number) =>
      api.put(`/profiles/${user.userId}/location`, { location: { latitude, longitude } }, user.token);
    expect((await move(0, 0)).status).toBe(400);
    expect((await move(0, 0)).body.message).toMatch(/0, 0 no es válida/);
    expect((await move(91, 0)).status).toBe(400);
    expect((await move(40, 181)).status).toBe(400);
    // First move: free (a wrong first reading corrected). Madrid → Barcelona.
    expect((await move(41.3874, 2.1686)).status).toBe(200);
    // Barcelona → Sevilla (830 km) ten minutes later: no.
    clock.advance(10 * 60 * SECOND);
    const jump = await move(37.3891, -5.9845);
    expect(jump.status).toBe(422);
    expect(jump.body).toMatchObject({ errorType: 'LOCATION_TOO_FAR' });
    // A nearby move is fine at once; the far one once a flight could have made it.
    expect((await move(41.45, 2.25)).status).toBe(200);
    clock.advance(60 * 60 * SECOND);
    expect((await move(37.3891, -5.9845)).status).toBe(200);
  });

  it('migration 0009 moves stored positions to the centres of their 3 km cells, as snapToGrid does', async () => {
    const user = await api.userWithProfile({}, 'Antigua');
    const statements = readFileSync(
      new URL('../../../src/server/db/migrations/0009_location-privacy.sql', import.meta.url),
      'utf8',
    ).split('--> statement-breakpoint');
    const resnap = statements.at(-1) as string;
    const raw: LatLon[] = [
      { latitude: 40.42137, longitude: -3.69411 },
      { latitude: 43.263, longitude: -2.935 },
      { latitude: -33.8688, longitude: 151.2093 },
      { latitude: 64.1466, longitude: -21.9426 },
      { latitude: 10, longitude: 179.9999 },
    ];
    for (const point of raw) {
      await app.database.db.execute(
        sql`update profiles set latitude = ${point.latitude}, longitude = ${point.longitude} where user_id = ${user.userId}::uuid`,
      );
      await app.database.db.execute(sql.raw(resnap));
      const stored = await app.database.db.execute(
        sql`select latitude, longitude from profiles where user_id = ${user.userId}::uuid`,
      );
      const row = (stored as unknown as { rows: LatLon[] }).rows[0] as LatLon;
      const expected = snapToGrid(point.latitude, point.longitude);
      expect(row.latitude).toBeCloseTo(expected.latitude, 9);
      expect(row.longitude).toBeCloseTo(expected.longitude, 9);
    }
  });
});
