import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { App } from '../src/server/app.ts';
import { describeBatchSizes, takeBatchSizes } from '../src/server/infra/batcher.ts';
import { renderLatencyChart } from './chart.ts';
import { DATABASE_URL, listen, embeddedApp, postgresApp, type Scale } from './data/datasets.ts';
import { benchUserId } from './data/generate.ts';
import type { HttpLoad, HttpLoadResult } from './http-load-worker.ts';
import { type BenchResult, openLoop } from './load.ts';
import { processTreeRssMb } from './messages.ts';
import { kneeLines, pointLine, rateSteps, type SweepSeries, sweep } from './sweep.ts';
import { runWorker } from './worker.ts';

/** 10,000 profiles in 10 cities, 20 swipes each: every swiper has ~980 users of its city left to swipe. */
export const SWIPE_SCALE: Scale = { profiles: Number(process.env.BENCH_SWIPE_PROFILES ?? 10_000), swipesPerUser: 20 };
const STEP_SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? process.env.BENCH_SECONDS ?? 4);
export const SWIPERS = 1500;
const TARGET_P95_MS = 5;
const CHART_DIR = path.resolve(import.meta.dirname, '../docs/performance');

/**
 * Swipe i of a step: swiper s (1…SWIPERS) on the k-th user of its city, k from `firstK`; each step
 * takes fresh k's, so every measured swipe is a new pair (70 % dislikes, 20 % likes, 10 % superlikes).
 */
function swipePair(index: number, firstK: number, profiles = SWIPE_SCALE.profiles) {
  const swiper = (index % SWIPERS) + 1;
  const k = firstK + Math.floor(index / SWIPERS);
  const target = ((swiper - 1 + 10 * k) % profiles) + 1;
  return { swiper: benchUserId(swiper), target: benchUserId(target) };
}

/**
 * The bench's own swipes (clientId `bench…`) and the matches they made go, so every run swipes new
 * pairs and the kept PostgreSQL data set stays the generated one.
 */
async function forgetBenchSwipes(app: App) {
  await app.database.db.execute(
    sql`delete from matches m using swipes s where s.match_id = m.id and s.client_id like 'bench%'`,
  );
  await app.database.db.execute(sql`delete from swipes where client_id like 'bench%'`);
}

/** The sweep's baseline: swipe i of a step as a bare `INSERT INTO swipes` through the app's pool. */
export function bareSwipeInsert(
  app: App,
  index: number,
  firstK: number,
  profiles = SWIPE_SCALE.profiles,
): Promise<void> {
  const { swiper, target } = swipePair(index, firstK, profiles);
  return app.database.db
    .execute(
      sql`insert into swipes (swiper_id, target_id, action, client_id)
        values (${swiper}::uuid, ${target}::uuid, 'like', ${`bench-${firstK}-${index}`})`,
    )
    .then(() => {});
}

/**
 * Sessions for the SWIPERS and a maker of swipe requests on fresh pairs: `takeKs(count)` reserves
 * the k's of `count` swipes, `requests(firstK, count)` builds them (also bench/swipe-cost.ts, with
 * its own number of `profiles`).
 */
export async function swipeRequests(app: App, url: string, profiles = SWIPE_SCALE.profiles) {
  await forgetBenchSwipes(app);
  const tokens = new Map<string, string>();
  for (let swiper = 1; swiper <= SWIPERS; swiper += 1) {
    const id = benchUserId(swiper);
    tokens.set(id, (await app.auth.sessions.issueSession(id, { rememberMe: true })).token);
  }
  let nextK = 21;
  const takeKs = (count: number) => {
    const first = nextK;
    nextK += Math.ceil(count / SWIPERS) + 1;
    return first;
  };
  const requests = (firstK: number, n: number) =>
    Array.from({ length: n }, (_, index) => {
      const { swiper, target } = swipePair(index, firstK, profiles);
      const action = index % 10 < 7 ? 'dislike' : index % 10 < 9 ? 'like' : 'superlike';
      return {
        method: 'POST',
        url: `${url}/api/swipes/users/${swiper}/swipe`,
        headers: { authorization: `Bearer ${tokens.get(swiper)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ target_user_id: target, action, clientId: `bench-${firstK}-${index}` }),
      };
    });
  return { takeKs, requests, forget: () => forgetBenchSwipes(app) };
}

async function benchOne(label: string, app: App, rates: number[], chart: string, rss?: () => number) {
  const lines: string[] = [];
  const url = await listen(app);
  const { takeKs, requests } = await swipeRequests(app, url);
  // Warm-up (JIT, caches, the sessions' pages), not measured.
  await runWorker<HttpLoadResult>('./http-load-worker.ts', {
    rate: 200,
    requests: requests(takeKs(1500), 1500),
    closed: { concurrency: 4, seconds: 3 },
  } satisfies HttpLoad);
  if (rss) lines.push(`after warm-up: RSS ${rss().toFixed(0)} MB`);

  const baseline = await sweep({
    label: 'bare INSERT',
    rates,
    percentile: 'p95',
    targetMs: TARGET_P95_MS,
    // Past the first miss until the run overloads: the chart shows the curve, not one point.
    missesToStop: Number.POSITIVE_INFINITY,
    async measure(rate) {
      const firstK = takeKs(rate * STEP_SECONDS);
      return openLoop({
        rate,
        count: rate * STEP_SECONDS,
        fire: (i) => bareSwipeInsert(app, i, firstK),
      });
    },
    onPoint: (point) =>
      lines.push(pointLine({ label: 'bare INSERT', percentile: 'p95', targetMs: TARGET_P95_MS }, point)),
  });
  const measured: SweepSeries = await sweep({
    label: 'app',
    rates,
    percentile: 'p95',
    targetMs: TARGET_P95_MS,
    // Past the first miss until the run overloads: the chart shows the curve, not one point.
    missesToStop: Number.POSITIVE_INFINITY,
    async measure(rate) {
      const count = rate * STEP_SECONDS;
      takeBatchSizes();
      const result = await runWorker<HttpLoadResult>('./http-load-worker.ts', {
        rate,
        requests: requests(takeKs(count), count),
      } satisfies HttpLoad);
      lines.push(
        `app @ ${rate}/s: record_swipes batches (count×size) ${describeBatchSizes(takeBatchSizes().get('swipes') ?? new Map())}`,
      );
      if (result.firstError) lines.push(`app @ ${rate}/s: first error ${result.firstError}`);
      return { ...result, ...(rss ? { rssMb: rss() } : {}) };
    },
    onPoint: (point) => {
      lines.push(pointLine({ label: 'app', percentile: 'p95', targetMs: TARGET_P95_MS }, point));
      console.log(`  … ${label}: ${lines.at(-1)}`);
    },
  });
  lines.push(...kneeLines(measured, baseline));
  const file = path.join(CHART_DIR, chart);
  await renderLatencyChart({
    title: `Swipes, ${label}`,
    subtitle: `POST …/swipe vs a bare INSERT, ${STEP_SECONDS} s per step; load average ${os.loadavg()[0]?.toFixed(1)} at the end`,
    series: [measured, baseline],
    file,
    targetMs: TARGET_P95_MS,
  });
  lines.push(`chart: ${path.relative(process.cwd(), file)}`);
  await forgetBenchSwipes(app);
  return {
    name: `Swipes sweep (${label}, ${SWIPE_SCALE.profiles.toLocaleString('en')} profiles): p95 target ${TARGET_P95_MS} ms, ≥ 1,500/s embedded; baseline: bare INSERT INTO swipes, same rates`,
    lines,
  } satisfies BenchResult;
}

/** QUALITY 25 as sweeps, on the embedded database and (when configured) PostgreSQL. */
export async function benchSwipes(): Promise<BenchResult[]> {
  const rates = rateSteps(Number(process.env.BENCH_SWIPE_START ?? 200), Number(process.env.BENCH_SWIPE_RATE ?? 3000));
  const results: BenchResult[] = [];
  const embedded = await embeddedApp(SWIPE_SCALE);
  try {
    results.push(await benchOne('embedded', embedded, rates, 'swipes-embedded.svg', processTreeRssMb));
  } finally {
    await embedded.close();
  }
  if (DATABASE_URL) {
    const scaled = await postgresApp(SWIPE_SCALE);
    try {
      results.push(await benchOne('PostgreSQL', scaled, rates, 'swipes-postgres.svg'));
    } finally {
      await scaled.close();
    }
  }
  return results;
}
