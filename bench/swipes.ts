import { sql } from 'drizzle-orm';
import { listen, pgliteApp, type Scale } from './data/datasets.ts';
import { benchUserId } from './data/generate.ts';
import type { HttpLoad, HttpLoadResult } from './http-load-worker.ts';
import { achieved, type BenchResult, compareLines, openLoop } from './load.ts';
import { summarize } from './stats.ts';
import { runWorker } from './worker.ts';

/** PGlite generates ~400 profiles/s here (WASM), so the embedded data set is smaller than 100k. */
const SCALE: Scale = { profiles: Number(process.env.BENCH_PGLITE_PROFILES ?? 10_000), swipesPerUser: 20 };
const RATE = Number(process.env.BENCH_SWIPE_RATE ?? 1500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SWIPERS = 1500;

/** Swipe i: swiper s (1…SWIPERS) on the k-th not-yet-swiped user of its city (k from `firstK`). */
function pair(index: number, firstK: number) {
  const swiper = (index % SWIPERS) + 1;
  const k = firstK + Math.floor(index / SWIPERS);
  const target = ((swiper - 1 + 10 * k) % SCALE.profiles) + 1;
  return { swiper: benchUserId(swiper), target: benchUserId(target) };
}

/**
 * QUALITY 25 on the embedded database: `POST /api/swipes/users/{id}/swipe` at a fixed rate (open
 * loop), against a bare `INSERT INTO swipes` at the same rate; then the saturated throughput.
 */
export async function benchSwipes(): Promise<BenchResult> {
  const log: string[] = [];
  const app = await pgliteApp(SCALE, (line) => log.push(line));
  try {
    const url = await listen(app);
    const count = RATE * SECONDS;
    const perSwiper = Math.ceil(count / SWIPERS);

    // Baseline: the bare INSERT (k from 21 + perSwiper, pairs the measured run never uses).
    const insert = (index: number, firstK: number) => {
      const { swiper, target } = pair(index, firstK);
      return app.database.db.execute(
        sql`insert into swipes (swiper_id, target_id, action) values (${swiper}::uuid, ${target}::uuid, 'like')`,
      );
    };
    const bareFirstK = 21 + 2 * perSwiper + 2;
    await openLoop({
      rate: RATE,
      count: Math.min(count, 2000),
      fire: (i) => insert(i, bareFirstK + perSwiper + 1).then(() => {}),
    });
    const baseline = await openLoop({ rate: RATE, count, fire: (i) => insert(i, bareFirstK).then(() => {}) });
    if (baseline.errors > 0) throw new Error(`bare insert: ${String(baseline.firstError)}`);

    const tokens = new Map<string, string>();
    for (let swiper = 1; swiper <= SWIPERS; swiper += 1) {
      const id = benchUserId(swiper);
      tokens.set(id, (await app.auth.sessions.issueSession(id, { rememberMe: true })).token);
    }
    const requests = (firstK: number, n: number) =>
      Array.from({ length: n }, (_, index) => {
        const { swiper, target } = pair(index, firstK);
        const action = index % 10 < 7 ? 'dislike' : index % 10 < 9 ? 'like' : 'superlike';
        return {
          method: 'POST',
          url: `${url}/api/swipes/users/${swiper}/swipe`,
          headers: { authorization: `Bearer ${tokens.get(swiper)}`, 'content-type': 'application/json' },
          body: JSON.stringify({ target_user_id: target, action }),
        };
      });
    // Warm-up (JIT, PGlite's caches, the sessions' pages), not measured: pairs no other phase uses.
    const warmUp = await runWorker<HttpLoadResult>('./http-load-worker.ts', {
      rate: RATE,
      requests: requests(bareFirstK + 2 * perSwiper + 2, 1500),
      closed: { concurrency: 4, seconds: 3 },
    } satisfies HttpLoad);
    if (warmUp.errors > 0) throw new Error(`swipe warm-up: ${warmUp.errors} errors (${warmUp.firstError})`);
    const measured = await runWorker<HttpLoadResult>('./http-load-worker.ts', {
      rate: RATE,
      requests: requests(21, count),
    } satisfies HttpLoad);
    if (measured.errors > 0) throw new Error(`swipe: ${measured.errors} errors (${measured.firstError})`);

    // Saturated throughput: a closed loop, 32 in flight, for at most 5 s.
    const saturation = await runWorker<HttpLoadResult>('./http-load-worker.ts', {
      rate: RATE,
      requests: requests(21 + perSwiper + 1, Math.min(count, RATE * 5)),
      closed: { concurrency: 32, seconds: 5 },
    } satisfies HttpLoad);
    const throughput = (saturation.sent - saturation.errors) / (saturation.elapsedMs / 1000);

    const m = summarize(measured.latenciesMs);
    const b = summarize(baseline.latenciesMs);
    return {
      name: `Swipes (embedded PGlite, ${SCALE.profiles.toLocaleString('en')} profiles, ${(SCALE.profiles * SCALE.swipesPerUser).toLocaleString('en')} swipes): POST …/swipe at ${RATE}/s open loop, ${count} swipes by ${SWIPERS} users (baseline: bare INSERT, same rate)`,
      lines: [
        ...log,
        ...compareLines(m, b),
        `${achieved(measured, count)}; saturated throughput (closed loop, 32 in flight): ${throughput.toFixed(0)} swipes/s, ${saturation.errors} errors; bare INSERT ${achieved(baseline, count)}`,
        `target p95 ≤ 5 ms and ≥ 1,500 swipes/s: ${!measured.overloaded && m.p95 <= 5 && throughput >= 1500 ? 'MET' : 'NOT MET'}`,
      ],
    };
  } finally {
    await app.close();
  }
}
