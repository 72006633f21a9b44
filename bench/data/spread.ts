import { sql } from 'drizzle-orm';
import type { App } from '../../src/server/app.ts';
import { rows, type Scale } from './datasets.ts';

/** Profiles per block of 10 cities: the density of the 100k data set. */
const BLOCK = 100_000;
/** Degrees of longitude between two copies of the 10 cities (far beyond any deck radius). */
const SHIFT_DEGREES = 15;

/**
 * Turns a generated data set of N × 100k profiles (10 cities, N × the density) into N copies of
 * the 100k one: block k (users 100k·k + 1 … 100k·(k + 1)) moves 15k° east, so there are 10·N
 * cities of the same density as the 100k set (each user's swipes stay in its own city). Kept
 * apart from generate.ts, which builds the 10 cities; idempotent (a spread set is left alone).
 * True when it moved them (the app's index then reloads: reopen the app).
 */
export async function spreadCities(app: App, scale: Scale, log: (line: string) => void): Promise<boolean> {
  if (scale.profiles <= BLOCK) return false;
  const [extent] = await rows<{ max: number }>(app, sql`select max(longitude)::float8 as max from profiles`);
  if (Number(extent?.max) > SHIFT_DEGREES) return false;
  const started = performance.now();
  await app.database.db.execute(
    sql.raw(`update profiles p set longitude = round((p.longitude + ${SHIFT_DEGREES} * floor((s.n - 1) / ${BLOCK}))::numeric, 2)::float8
      from generate_series(1, ${scale.profiles}) s(n) where p.user_id = md5('bench-user-' || s.n)::uuid`),
  );
  await app.database.db.execute(sql`vacuum analyze profiles`);
  log(`spread into ${(scale.profiles / BLOCK) * 10} cities in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return true;
}
