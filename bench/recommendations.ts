import { sql } from 'drizzle-orm';
import type { App } from '../src/server/app.ts';
import {
  createRecommendationRepository,
  type DeckViewer,
} from '../src/server/features/discovery/recommendation-repository.ts';
import { deckViewerOf } from '../src/server/features/discovery/recommendation-service.ts';
import { createProfileRepository } from '../src/server/features/profiles/profile-repository.ts';
import { DATABASE_URL, listen, pgliteApp, postgresApp, rows, type Scale } from './data/datasets.ts';
import type { HttpLoad, HttpLoadResult } from './http-load-worker.ts';
import { achieved, type BenchResult, compareLines, openLoop } from './load.ts';
import { summarize } from './stats.ts';
import { runWorker } from './worker.ts';

const SCALE: Scale = {
  profiles: Number(process.env.BENCH_PROFILES ?? 100_000),
  swipesPerUser: Number(process.env.BENCH_SWIPES_PER_USER ?? 20),
};
/** PGlite generates ~600–1,000 profiles/s (WASM): the embedded data set is smaller. */
const PGLITE_SCALE: Scale = { profiles: Number(process.env.BENCH_PGLITE_PROFILES ?? 10_000), swipesPerUser: 20 };
const RATE = Number(process.env.BENCH_RECOMMENDATION_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);

/** Viewers spread over the whole data set (every city), each asked for once: no warm per-viewer state. */
async function pickViewers(app: App, scale: Scale, count: number, offset: number): Promise<string[]> {
  const step = Math.max(1, Math.floor(scale.profiles / count));
  const found = await rows<{ user_id: string }>(
    app,
    sql`select user_id from (select user_id, row_number() over (order by user_id) as r from profiles) x
        where (r + ${offset}) % ${step} = 0 limit ${count}`,
  );
  return found.map((row) => row.user_id);
}

/**
 * QUALITY 24: `GET /api/profiles/{id}/recommended` (page 1) at a fixed rate, over many viewers,
 * against the repository's deck query run directly at the same rate: on the embedded PGlite
 * (10,000 profiles) and, with DATABASE_URL, on PostgreSQL (100,000 profiles).
 */
export async function benchRecommendations(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const embeddedLog: string[] = [];
  results.push(
    await measureRecommendations(
      'embedded PGlite',
      PGLITE_SCALE,
      await pgliteApp(PGLITE_SCALE, (line) => embeddedLog.push(line)),
      embeddedLog,
    ),
  );
  if (!DATABASE_URL) {
    results.push({ name: 'Recommendations on PostgreSQL: skipped (set DATABASE_URL)', lines: [] });
    return results;
  }
  const log: string[] = [];
  results.push(
    await measureRecommendations('PostgreSQL', SCALE, await postgresApp(SCALE, (line) => log.push(line)), log),
  );
  return results;
}

async function measureRecommendations(label: string, scale: Scale, app: App, log: string[]): Promise<BenchResult> {
  try {
    const url = await listen(app);
    const count = RATE * SECONDS;
    const warm = RATE * 2;
    const [baselineIds, measuredIds] = await Promise.all([
      pickViewers(app, scale, count + warm, 0),
      pickViewers(app, scale, count + warm, 1),
    ]);
    const profiles = createProfileRepository(app.database.db);
    const repository = createRecommendationRepository(app.database.db);
    const now = new Date();
    const viewers: DeckViewer[] = [];
    for (const id of baselineIds) {
      const profile = await profiles.findByUserId(id);
      if (profile) viewers.push(deckViewerOf(profile, now));
    }
    // Clear every stored deck so the measured run starts cold, like the baseline.
    await app.database.db.execute(sql`delete from recommendation_decks`);

    // Baseline: the bare deck query (as the repository issues it), open loop at the same rate.
    let baselineEmpty = 0;
    const bare = async (offset: number, n: number) =>
      openLoop({
        rate: RATE,
        count: n,
        async fire(index) {
          const { entries } = await repository.candidates(
            viewers[(offset + index) % viewers.length] as DeckViewer,
            null,
            200,
          );
          if (entries.length === 0) baselineEmpty += 1;
        },
      });
    await bare(count, warm);
    baselineEmpty = 0;
    const baselineRun = await bare(0, count);

    const requests = [];
    for (const id of measuredIds) {
      const { token } = await app.auth.sessions.issueSession(id, { rememberMe: true });
      requests.push({
        method: 'GET',
        url: `${url}/api/profiles/${id}/recommended?page=1&limit=10`,
        headers: { authorization: `Bearer ${token}` },
      });
    }
    await runWorker<HttpLoadResult>('./http-load-worker.ts', {
      rate: RATE,
      requests: requests.slice(count),
      countProfiles: true,
    } satisfies HttpLoad);
    const measured = await runWorker<HttpLoadResult>('./http-load-worker.ts', {
      rate: RATE,
      requests: requests.slice(0, count),
      countProfiles: true,
    } satisfies HttpLoad);

    const nonEmptyShare = measured.nonEmpty / Math.max(1, measured.sent - measured.errors);
    if (measured.errors > 0) throw new Error(`recommended: ${measured.errors} errors (${measured.firstError})`);
    if (nonEmptyShare < 0.9) throw new Error(`recommended: only ${(nonEmptyShare * 100).toFixed(1)} % non-empty pages`);
    const m = summarize(measured.latenciesMs);
    const b = summarize(baselineRun.latenciesMs);
    return {
      name: `Recommendations (${label}, ${scale.profiles.toLocaleString('en')} profiles, ${(scale.profiles * scale.swipesPerUser).toLocaleString('en')} swipes): GET …/recommended page 1 at ${RATE} req/s open loop, ${count} distinct viewers (baseline: the repository's deck query alone, same rate)`,
      lines: [
        ...log,
        ...compareLines(m, b),
        `pages non-empty: ${(nonEmptyShare * 100).toFixed(1)} % (${(measured.profiles / Math.max(1, measured.nonEmpty)).toFixed(1)} profiles per non-empty page); baseline empty decks: ${baselineEmpty}`,
        `${achieved(measured, count)} (baseline ${achieved(baselineRun, count)}); target p95 ≤ 15 ms, p99 ≤ 40 ms, ≤ 1.5x baseline: ${!measured.overloaded && m.p95 <= 15 && m.p99 <= 40 && m.p95 <= 1.5 * b.p95 ? 'MET' : 'NOT MET'}`,
      ],
    };
  } finally {
    await app.close();
  }
}
