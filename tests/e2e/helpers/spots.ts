import { closeSync, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

type Spot = { latitude: number; longitude: number };

const MADRID: Spot = { latitude: 40.4168, longitude: -3.7038 };

/** Kilometres between two spots (equirectangular: close enough at these distances). */
function kmBetween(a: Spot, b: Spot): number {
  const x = (b.longitude - a.longitude) * Math.cos((((a.latitude + b.latitude) / 2) * Math.PI) / 180);
  const y = b.latitude - a.latitude;
  return Math.hypot(x, y) * 111.2;
}

/**
 * Grid points 1° of latitude and 1.3° of longitude apart — over 100 km, twice the journeys' 50 km
 * search — and over 150 km from Madrid, where the journeys' other people live.
 */
const SPOTS: Spot[] = [];
for (let row = 0; row <= 8; row += 1) {
  for (let column = 0; column <= 9; column += 1) {
    const spot = { latitude: 36 + row, longitude: Number((-9 + 1.3 * column).toFixed(1)) };
    if (kmBetween(spot, MADRID) > 150) SPOTS.push(spot);
  }
}

/**
 * A spot of its own for a journey whose deck must hold only the people it makes there: each call in
 * the run (every worker and retry) takes a grid point no other call has, claimed with a file created
 * exclusively in the run's E2E_SPOTS_DIR (playwright.config.ts). Random spots in one box met often
 * enough (two within 50 km about once in four runs) to put a stranger in a deck.
 */
export function remoteSpot(): Spot;
export function remoteSpot(city: string): Spot & { city: string };
export function remoteSpot(city?: string): Spot & { city?: string } {
  process.env.E2E_SPOTS_DIR ??= mkdtempSync(path.join(tmpdir(), 'entreno-e2e-spots-'));
  const dir = process.env.E2E_SPOTS_DIR;
  for (const [index, spot] of SPOTS.entries()) {
    try {
      closeSync(openSync(path.join(dir, `spot-${index}`), 'wx'));
      return city === undefined ? { ...spot } : { ...spot, city };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`All ${SPOTS.length} remote spots of this run are taken: add more (tests/e2e/helpers/spots.ts)`);
}
