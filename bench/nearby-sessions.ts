/**
 * `npm run bench -- nearby-sessions` (issue #35): «Entrenos abiertos cerca», `GET
 * /api/open-sessions/nearby`, at 100k profiles and 5k upcoming open sessions (plus as many past
 * ones, members, matches and blocks: bench/data/open-sessions.ts), open loop at 100 req/s
 * (BENCH_NEARBY_RATE) for 15 s (BENCH_NEARBY_SECONDS) a run, every request a different viewer
 * with a fresh session. The baseline is the list's bare query — the upcoming open sessions in the
 * viewer's box by start, without the visibility rules — through the same pool at the same rate,
 * for other viewers. BENCH_NEARBY_ROUNDS (default 3) rounds alternate which of the two runs first;
 * each figure is printed with the load average after it. Target: p95 ≤ 15 ms on PostgreSQL.
 *
 * PostgreSQL (DATABASE_URL) in a database of its own, `entreno_bench_nearby`, dropped at the end
 * (BENCH_NEARBY_KEEP=1 keeps it, to EXPLAIN the list on the seeded data; BENCH_NEARBY_PAST sets
 * the ended sessions, as many as the upcoming ones by default); then the embedded
 * PostgreSQL at the same scale (BENCH_NEARBY_DB=postgres or embedded runs only one).
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { App } from '../src/server/app.ts';
import { boundingBox } from '../src/server/features/discovery/ranking/deck-geometry.ts';
import { type DeckViewer, deckViewerOf } from '../src/server/features/discovery/ranking/deck-viewer.ts';
import { createProfileRepository } from '../src/server/features/profiles/profile-repository.ts';
import { OPEN_SESSION_LIST_LIMIT } from '#shared/open-sessions/open-session-schemas';
import { DATABASE_URL, dropDatabase, embeddedApp, listen, postgresApp, rows, type Scale } from './data/datasets.ts';
import { seedOpenSessions } from './data/open-sessions.ts';
import type { HttpLoad, HttpLoadResult, HttpRequestSpec } from './http-load-worker.ts';
import { type BenchResult, compareLines, openLoop } from './load.ts';
import { instrumentPool } from './server-cost.ts';
import { summarize } from './stats.ts';
import { runWorker } from './worker.ts';

const PROFILES = Number(process.env.BENCH_NEARBY_PROFILES ?? 100_000);
const UPCOMING = Number(process.env.BENCH_NEARBY_SESSIONS ?? 5_000);
/** Sessions that have ended (default as many as upcoming): the history the box's index keeps. */
const PAST = Number(process.env.BENCH_NEARBY_PAST ?? UPCOMING);
const RATE = Number(process.env.BENCH_NEARBY_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_NEARBY_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_NEARBY_ROUNDS ?? 3);
const DATABASE = 'entreno_bench_nearby';
const TARGET_P95_MS = 15;

const load = () =>
  `load ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;

const scaleOf = (): Scale => ({ profiles: PROFILES, swipesPerUser: 0 });

export async function benchNearbySessions(): Promise<BenchResult[]> {
  const which = process.env.BENCH_NEARBY_DB ?? 'both';
  const results: BenchResult[] = [];
  if (which !== 'embedded') {
    if (!DATABASE_URL) {
      results.push({ name: 'Nearby open sessions on PostgreSQL: skipped (set DATABASE_URL)', lines: [] });
    } else {
      const log: string[] = [];
      try {
        const app = await postgresApp(scaleOf(), (line) => log.push(line), {}, { database: DATABASE });
        results.push(await measure('PostgreSQL', app, log));
      } finally {
        if (process.env.BENCH_NEARBY_KEEP !== '1') await dropDatabase(DATABASE);
      }
    }
  }
  if (which !== 'postgres') {
    const log: string[] = [];
    results.push(await measure('embedded', await embeddedApp(scaleOf(), (line) => log.push(line)), log));
  }
  return results;
}

/** The list's bare query: upcoming open sessions in the viewer's box by start, no visibility rules. */
async function bareNearby(app: App, viewer: DeckViewer, now: Date): Promise<number> {
  const box = boundingBox(viewer.latitude, viewer.longitude, viewer.maxDistanceKm);
  const longitude =
    box.minLongitude === null
      ? sql`true`
      : sql`s.longitude between ${box.minLongitude}::float8 and ${box.maxLongitude}::float8`;
  const found = await rows<{ id: string }>(
    app,
    sql`select s.* from open_sessions s
      where s.status = 'open' and s.starts_at > ${now}::timestamptz
        and s.latitude between ${box.minLatitude}::float8 and ${box.maxLatitude}::float8 and ${longitude}
      order by s.starts_at asc, s.id asc limit ${OPEN_SESSION_LIST_LIMIT}`,
  );
  return found.length;
}

type Run = { p50: number; p95: number; p99: number; latenciesMs: number[]; load: string; note: string };

async function measure(label: string, app: App, log: string[]): Promise<BenchResult> {
  const pool = instrumentPool();
  try {
    const seeded = performance.now();
    await seedOpenSessions((statement) => app.database.db.execute(sql.raw(statement)), {
      profiles: PROFILES,
      upcoming: UPCOMING,
      past: PAST,
    });
    const [counts] = await rows<{
      sessions: number;
      upcoming: number;
      members: number;
      blocks: number;
      matches: number;
    }>(
      app,
      sql`select (select count(*) from open_sessions)::int as sessions,
        (select count(*) from open_sessions where status = 'open' and starts_at > now())::int as upcoming,
        (select count(*) from open_session_members)::int as members, (select count(*) from blocks)::int as blocks,
        (select count(*) from matches)::int as matches`,
    );
    log.push(
      `seeded ${counts?.sessions} sessions (${counts?.upcoming} open and upcoming), ${counts?.members} members, ${counts?.matches} matches, ${counts?.blocks} blocks in ${((performance.now() - seeded) / 1000).toFixed(1)} s (${load()})`,
    );
    const url = await listen(app);
    const count = RATE * SECONDS;
    const warm = RATE * 2;
    const perSide = ROUNDS * count + warm;
    const ids = (
      await rows<{ user_id: string }>(
        app,
        sql`select user_id from profiles order by md5(user_id::text || 'nearby') limit ${2 * perSide}`,
      )
    ).map((row) => row.user_id);
    const routeIds = ids.slice(0, perSide);
    const bareIds = ids.slice(perSide);

    const requests: HttpRequestSpec[] = [];
    for (const id of routeIds) {
      const { token } = await app.auth.sessions.issueSession(id, { rememberMe: true });
      requests.push({
        method: 'GET',
        url: `${url}/api/open-sessions/nearby`,
        headers: { authorization: `Bearer ${token}` },
      });
    }
    const now = new Date();
    const viewers = (await createProfileRepository(app.database.db).findManyByUserIds(bareIds)).map((profile) =>
      deckViewerOf(profile, now),
    );

    let routeNext = 0;
    // The statements of the last route run: what each request waits for in the database.
    let statements = new Map<string, number[]>();
    const routeRun = async (n: number): Promise<Run> => {
      const batch = requests.slice(routeNext, routeNext + n);
      routeNext += n;
      pool.start();
      const result = await runWorker<HttpLoadResult>('./http-load-worker.ts', {
        rate: RATE,
        requests: batch,
        countKey: 'sessions',
      } satisfies HttpLoad);
      statements = new Map(pool.stop());
      if (result.errors > 0) throw new Error(`nearby: ${result.errors} errors (${result.firstError})`);
      const answered = Math.max(1, result.sent - result.errors);
      return {
        ...summarize(result.latenciesMs),
        latenciesMs: result.latenciesMs,
        load: load(),
        note: `${result.overloaded ? 'OVERLOADED, ' : ''}non-empty ${((result.nonEmpty / answered) * 100).toFixed(0)} %, ${(result.profiles / answered).toFixed(1)} sessions a list`,
      };
    };
    let bareNext = 0;
    const bareRun = async (n: number): Promise<Run> => {
      const start = bareNext;
      bareNext += n;
      let found = 0;
      const result = await openLoop({
        rate: RATE,
        count: n,
        async fire(index) {
          found += await bareNearby(app, viewers[(start + index) % viewers.length] as DeckViewer, new Date());
        },
      });
      if (result.errors > 0) throw new Error(`bare query: ${result.errors} errors (${String(result.firstError)})`);
      return {
        ...summarize(result.latenciesMs),
        latenciesMs: result.latenciesMs,
        load: load(),
        note: `${result.overloaded ? 'OVERLOADED, ' : ''}${(found / Math.max(1, result.sent)).toFixed(1)} rows a query`,
      };
    };
    const figures = (run: Run) =>
      `p50 ${run.p50.toFixed(2)} ms p95 ${run.p95.toFixed(2)} ms p99 ${run.p99.toFixed(2)} ms (${run.load}; ${run.note})`;

    // Unmeasured: JIT, the pool's connections, the plans and the pages in cache, for both.
    await bareRun(warm);
    await routeRun(warm);
    const lines = [...log, `${RATE} req/s open loop, ${SECONDS} s a run, ${ROUNDS} rounds, a new viewer every request`];
    const routes: Run[] = [];
    const bares: Run[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const isBareFirst = round % 2 === 1;
      const first = isBareFirst ? await bareRun(count) : await routeRun(count);
      const second = isBareFirst ? await routeRun(count) : await bareRun(count);
      const [route, bare] = isBareFirst ? [second, first] : [first, second];
      routes.push(route);
      bares.push(bare);
      lines.push(
        `round ${round} (${isBareFirst ? 'bare query first' : 'route first'}): route ${figures(route)}`,
        `  bare query ${figures(bare)}; p95 ratio ${(route.p95 / bare.p95).toFixed(2)}x`,
      );
    }
    const all = summarize(routes.flatMap((run) => run.latenciesMs));
    const allBare = summarize(bares.flatMap((run) => run.latenciesMs));
    const worst = Math.max(...routes.map((run) => run.p95));
    lines.push(
      `all ${ROUNDS} rounds (${load()}):`,
      ...compareLines(all, allBare).map((line) => `  ${line}`),
      `target p95 ≤ ${TARGET_P95_MS} ms at ${RATE} req/s: ${all.p95 <= TARGET_P95_MS ? 'MET' : 'NOT MET'} (p95 of every round ≤ ${TARGET_P95_MS} ms: ${worst <= TARGET_P95_MS ? 'yes' : 'no'}, the worst ${worst.toFixed(2)} ms)`,
      `statements of the last route run (round trip, call → rows; per request):`,
    );
    for (const [key, list] of [...statements].sort((a, b) => b[1].length - a[1].length).slice(0, 6)) {
      const s = summarize(list);
      lines.push(`  ${(list.length / count).toFixed(2)}×  p50 ${s.p50.toFixed(2)} p95 ${s.p95.toFixed(2)} ms  ${key}`);
    }
    return {
      name: `Nearby open sessions (${label}, ${PROFILES.toLocaleString('en')} profiles, ${UPCOMING.toLocaleString('en')} upcoming and ${PAST.toLocaleString('en')} past sessions): GET /api/open-sessions/nearby at ${RATE} req/s (baseline: the bare query by start in the box, same pool, same rate, other viewers)`,
      lines,
    };
  } finally {
    pool.restore();
    await app.close();
  }
}
