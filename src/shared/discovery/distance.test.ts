import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  distanceKmBucket,
  distanceText,
  distanceTextBetween,
  GRID_CELL_KM,
  gridCell,
  haversineKm,
  type LatLon,
  snapToGrid,
} from './distance.ts';

const MADRID: LatLon = { latitude: 40.4168, longitude: -3.7038 };
const BARCELONA: LatLon = { latitude: 41.3874, longitude: 2.1686 };

/** A point `north` km north and `east` km east of `origin` (flat-earth offsets, fine at this scale). */
function offset(origin: LatLon, north: number, east: number): LatLon {
  const kmPerDegree = (Math.PI * 6371.0088) / 180;
  return {
    latitude: origin.latitude + north / kmPerDegree,
    longitude: origin.longitude + east / (kmPerDegree * Math.cos((origin.latitude * Math.PI) / 180)),
  };
}

const sameCell = (a: LatLon, b: LatLon) => {
  const x = gridCell(a.latitude, a.longitude);
  const y = gridCell(b.latitude, b.longitude);
  return x.row === y.row && x.column === y.column;
};

describe('haversineKm', () => {
  it('measures great-circle distances', () => {
    expect(haversineKm(MADRID, BARCELONA)).toBeCloseTo(505, -1);
    expect(haversineKm(MADRID, MADRID)).toBe(0);
    expect(haversineKm(MADRID, BARCELONA)).toBe(haversineKm(BARCELONA, MADRID));
    expect(haversineKm({ latitude: 0, longitude: 179.9 }, { latitude: 0, longitude: -179.9 })).toBeCloseTo(22.2, 1);
  });
});

describe('snapToGrid', () => {
  const position = fc.record({
    latitude: fc.double({ min: -85, max: 85, noNaN: true }),
    longitude: fc.double({ min: -180, max: 180, noNaN: true }),
  });

  it('moves a position by at most half a cell diagonal', () => {
    fc.assert(
      fc.property(position, (p) => {
        expect(haversineKm(p, snapToGrid(p.latitude, p.longitude))).toBeLessThan(0.75 * GRID_CELL_KM);
      }),
      { numRuns: 5000 },
    );
  });

  it('changes nothing when applied twice', () => {
    fc.assert(
      fc.property(position, (p) => {
        const once = snapToGrid(p.latitude, p.longitude);
        expect(snapToGrid(once.latitude, once.longitude)).toEqual(once);
      }),
      { numRuns: 5000 },
    );
  });

  it('makes cells about GRID_CELL_KM (3 km) on each side, from the equator to the far north', () => {
    expect(GRID_CELL_KM).toBe(3);
    for (const latitude of [0, 40.4, 60, 80]) {
      const centre = snapToGrid(latitude, 10);
      // The next band up (its cells are offset east or west, so measure the latitude step alone).
      const north = {
        latitude: snapToGrid(centre.latitude + 0.009 * GRID_CELL_KM, 10).latitude,
        longitude: centre.longitude,
      };
      const cell = gridCell(centre.latitude, 10);
      const east = snapToGrid(centre.latitude, centre.longitude + 360 / cell.columns);
      expect(haversineKm(centre, north)).toBeGreaterThanOrEqual(0.999 * GRID_CELL_KM);
      expect(haversineKm(centre, north)).toBeLessThan(1.01 * GRID_CELL_KM);
      expect(haversineKm(centre, east)).toBeGreaterThanOrEqual(0.999 * GRID_CELL_KM);
      expect(haversineKm(centre, east)).toBeLessThan(1.01 * GRID_CELL_KM);
    }
  });

  it('has no seam at the antimeridian and handles the poles', () => {
    expect(snapToGrid(10, 180)).toEqual(snapToGrid(10, -180));
    expect(snapToGrid(10, 540)).toEqual(snapToGrid(10, 180));
    expect(Math.abs(snapToGrid(10, 179.9999).longitude)).toBeLessThanOrEqual(180);
    expect(snapToGrid(90, 0).latitude).toBeLessThan(90);
    expect(snapToGrid(-90, 0).latitude).toBeGreaterThan(-90);
  });

  it('refuses positions that are not on the globe', () => {
    expect(() => snapToGrid(Number.NaN, 0)).toThrow(RangeError);
    expect(() => snapToGrid(91, 0)).toThrow(RangeError);
    expect(() => snapToGrid(0, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('distanceText', () => {
  it('floors at "A menos de 1 km" and otherwise rounds to whole kilometres', () => {
    expect(distanceText(0)).toBe('A menos de 1 km');
    expect(distanceText(0.99)).toBe('A menos de 1 km');
    expect(distanceText(1)).toBe('A 1 km');
    expect(distanceText(1.49)).toBe('A 1 km');
    expect(distanceText(1.5)).toBe('A 2 km');
    expect(distanceText(12.4)).toBe('A 12 km');
    expect(distanceText(505.2)).toBe('A 505 km');
  });

  it('has a numeric twin in the same bucket, floor 1 (spec 001 §3 Profile distance)', () => {
    for (const km of [0, 0.4, 0.99, 1, 1.49, 1.5, 2.6, 12.4, 505.2, Number.NaN, -3]) {
      const bucket = distanceKmBucket(km);
      expect(bucket).toBeGreaterThanOrEqual(1);
      expect(Number.isInteger(bucket)).toBe(true);
      // The text says the same number (or "menos de 1", whose floor is 1).
      expect(distanceText(km)).toBe(km >= 1 ? `A ${bucket} km` : 'A menos de 1 km');
    }
  });

  it('gives the least revealing answer to anything that is not a distance', () => {
    for (const km of [Number.NaN, -3, Number.POSITIVE_INFINITY]) expect(distanceText(km)).toBe('A menos de 1 km');
  });

  it('reads "A menos de 1 km" for two people in the same cell, wherever they are in it', () => {
    const centre = snapToGrid(MADRID.latitude, MADRID.longitude);
    const nearby = offset(centre, 0.3, -0.3);
    expect(sameCell(centre, nearby)).toBe(true);
    expect(distanceTextBetween(centre, nearby)).toBe('A menos de 1 km');
    expect(distanceTextBetween(MADRID, BARCELONA)).toMatch(/^A 50[56] km$/);
  });
});

describe('an attacker moving around a victim (QUALITY 9: no trilateration)', () => {
  const victim = MADRID;
  // The attacker reports positions every 400 m over a 16 km × 16 km square centred on the victim,
  // and writes down the distance text the app shows for the victim at each of them.
  const probes: LatLon[] = [];
  for (let north = -8; north <= 8; north += 0.4) {
    for (let east = -8; east <= 8; east += 0.4) probes.push(offset(victim, north, east));
  }
  const answersFor = (target: LatLon) => probes.map((probe) => distanceTextBetween(probe, target));
  const observed = answersFor(victim);
  /** Whether the victim being at `candidate` would have produced exactly the answers observed. */
  const fitsAnswers = (candidate: LatLon) =>
    probes.every((probe, i) => distanceTextBetween(probe, candidate) === observed[i]);

  it('gets identical answers for every point of the victim’s cell', () => {
    const candidates: LatLon[] = [];
    for (let north = -2.4; north <= 2.4; north += 0.3) {
      for (let east = -2.4; east <= 2.4; east += 0.3) {
        const candidate = offset(victim, north, east);
        if (sameCell(candidate, victim)) candidates.push(candidate);
      }
    }
    expect(candidates.length).toBeGreaterThan(50);
    for (const candidate of candidates) expect(answersFor(candidate)).toEqual(observed);
  });

  it('cannot narrow the victim down below the cell: what fits the answers spans a whole cell', () => {
    // Every place the victim could be, on a 150 m mesh 9 km across.
    const consistent: LatLon[] = [];
    const inconsistent: LatLon[] = [];
    for (let north = -4.5; north <= 4.5; north += 0.15) {
      for (let east = -4.5; east <= 4.5; east += 0.15) {
        const candidate = offset(victim, north, east);
        (fitsAnswers(candidate) ? consistent : inconsistent).push(candidate);
      }
    }
    // What the attacker can rule in is exactly the victim's cell…
    for (const candidate of consistent) expect(sameCell(candidate, victim)).toBe(true);
    for (const candidate of inconsistent) expect(sameCell(candidate, victim)).toBe(false);
    // …and that cell is about 3 km in each direction: no finer answer exists (#19: never under 2 km).
    const latitudes = consistent.map((p) => p.latitude);
    const longitudes = consistent.map((p) => p.longitude);
    const southWest = { latitude: Math.min(...latitudes), longitude: Math.min(...longitudes) };
    const northWest = { latitude: Math.max(...latitudes), longitude: Math.min(...longitudes) };
    const southEast = { latitude: Math.min(...latitudes), longitude: Math.max(...longitudes) };
    expect(haversineKm(southWest, northWest)).toBeGreaterThan(2.5);
    expect(haversineKm(southWest, southEast)).toBeGreaterThan(2.5);
  });

  it('learns nothing from standing inside the victim’s cell either', () => {
    const inside = offset(snapToGrid(victim.latitude, victim.longitude), 0.2, 0.2);
    for (let north = -1.4; north <= 1.4; north += 0.1) {
      const candidate = offset(victim, north, 0);
      if (sameCell(candidate, victim)) expect(distanceTextBetween(inside, candidate)).toBe('A menos de 1 km');
    }
  });
});
