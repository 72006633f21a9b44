/**
 * `npm run bench -- swipe-cost`: what one swipe costs the server at a rate it holds
 * (BENCH_COST_RATE, default 300/s, for BENCH_COST_SECONDS, default 10, BENCH_COST_ROUNDS times,
 * default 3), for same-run A/B of two checkouts on a shared host, where latency moves with the
 * load but work per request much less. Every swiper's session is warmed first (one swipe each).
 * The HTTP load runs in a worker thread, so the main thread's CPU is the server's (and the
 * database driver's). Prints, per swipe and round: CPU of the main thread and of the PostgreSQL
 * processes, statements, latency, the sizes of the swipes' self-forming batches; then the sweep's baseline (a bare INSERT INTO swipes through
 * the same pool, same rate) measured the same way; with BENCH_COST_SAMPLING=1 a CPU profile of
 * the last round by function (wall-clock samples: time in a syscall includes waiting for the
 * CPU on a loaded host). BENCH_COST_DB=postgres: DATABASE_URL. BENCH_COST_LOG_LEVEL (default
 * silent, like the other benches): the server's LOG_LEVEL, its lines written to /dev/null through
 * pino's own destination (what stdout costs, without a terminal). 3,000 profiles unless
 * BENCH_SWIPE_PROFILES says otherwise.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import pino from 'pino';
import type { App } from '../src/server/app.ts';
import type { Config } from '../src/server/config.ts';
import { describeBatchSizes, takeBatchSizes } from '../src/server/infra/batcher.ts';
import { embeddedApp, listen, postgresApp } from './data/datasets.ts';
import type { HttpLoad, HttpLoadResult } from './http-load-worker.ts';
import { type BenchResult, openLoop } from './load.ts';
import {
  backendCpu,
  type CpuProfile,
  instrumentPool,
  mainThreadCpuMs,
  schedulerCounters,
  startProfiler,
  summarizeProfile,
} from './server-cost.ts';
import { summarize } from './stats.ts';
import { bareSwipeInsert, SWIPE_SCALE, SWIPERS, swipeRequests } from './swipes.ts';
import { runWorker } from './worker.ts';

const RATE = Number(process.env.BENCH_COST_RATE ?? 300);
const SECONDS = Number(process.env.BENCH_COST_SECONDS ?? 10);
const SAMPLING = process.env.BENCH_COST_SAMPLING === '1';
const ROUNDS = Number(process.env.BENCH_COST_ROUNDS ?? 3);
const ON_POSTGRES = process.env.BENCH_COST_DB === 'postgres';
const LOG_LEVEL = (process.env.BENCH_COST_LOG_LEVEL ?? 'silent') as Config['logLevel'];
const SCALE = { ...SWIPE_SCALE, profiles: Number(process.env.BENCH_SWIPE_PROFILES ?? 3000) };

const load = () =>
  `load ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;

export async function benchSwipeCost(): Promise<BenchResult> {
  const pool = instrumentPool();
  const overrides: Partial<Config> = { logLevel: LOG_LEVEL };
  // pino's own destination (sonic-boom), what it writes stdout with.
  const logStream = pino.destination({ dest: '/dev/null', sync: false }) as unknown as NodeJS.WritableStream;
  const dependencies = { logStream };
  const app: App = ON_POSTGRES
    ? await postgresApp(SCALE, () => {}, overrides)
    : await embeddedApp(SCALE, () => {}, overrides, dependencies);
  const lines: string[] = [
    `${ON_POSTGRES ? 'PostgreSQL' : 'embedded'}, ${SCALE.profiles} profiles, LOG_LEVEL ${LOG_LEVEL}, ${RATE}/s for ${SECONDS} s a round`,
  ];
  try {
    const url = await listen(app);
    const { takeKs, requests, forget } = await swipeRequests(app, url, SCALE.profiles);
    // Unmeasured: JIT, prepared statements on every pool connection, every swiper's session
    // cached (one swipe each, 8 in flight), as a person swiping every few seconds has it.
    await runWorker<HttpLoadResult>('./http-load-worker.ts', {
      rate: RATE,
      requests: requests(takeKs(SWIPERS), SWIPERS),
      closed: { concurrency: 8, seconds: 60 },
    } satisfies HttpLoad);
    const filter = ON_POSTGRES
      ? { database: new URL(app.config.databaseUrl ?? 'x:///').pathname.slice(1) }
      : { embedded: true as const };
    const session = new Session();
    session.connect();
    let sent = 0;
    let profile: CpuProfile | undefined;
    for (let round = 1; round <= ROUNDS; round += 1) {
      const count = RATE * SECONDS;
      const batch = requests(takeKs(count), count);
      const isSampled = SAMPLING && round === ROUNDS;
      if (isSampled) await startProfiler(session);
      // The pool's connections stay open while busy: PostgreSQL's CPU is read at start and end only
      // (a scan of /proc costs the main thread, which is what this bench measures).
      const backends = backendCpu(filter, 0);
      await backends.start();
      pool.start();
      const loadBefore = load();
      const mainBefore = await mainThreadCpuMs();
      const schedulerBefore = await schedulerCounters();
      takeBatchSizes();
      const result = await runWorker<HttpLoadResult>('./http-load-worker.ts', {
        rate: RATE,
        requests: batch,
      } satisfies HttpLoad);
      const mainMs = (await mainThreadCpuMs()) - mainBefore;
      const schedulerAfter = await schedulerCounters();
      const statements = pool.stop();
      const batches = takeBatchSizes().get('swipes') ?? new Map<number, number>();
      const backendMs = await backends.stop();
      if (isSampled) profile = ((await session.post('Profiler.stop')) as { profile: CpuProfile }).profile;
      sent = result.sent;
      const latency = summarize(result.latenciesMs);
      let total = 0;
      for (const list of statements.values()) total += list.length;
      lines.push(
        `round ${round}${isSampled ? ' (profiled)' : ''}: ${sent} sent, ${result.errors} errors${result.overloaded ? ', OVERLOADED' : ''}, statuses ${JSON.stringify(result.statuses)} (${loadBefore} → ${load()})`,
        `  per swipe: main thread ${(mainMs / sent).toFixed(3)} ms CPU; PostgreSQL ${(backendMs / sent).toFixed(3)} ms CPU; ${(total / sent).toFixed(2)} statements; latency p50 ${latency.p50.toFixed(2)} ms p95 ${latency.p95.toFixed(2)} ms p99 ${latency.p99.toFixed(2)} ms`,
        `  record_swipes batches (count×size): ${describeBatchSizes(batches)}`,
        `  main thread, scheduler (per swipe): on a core ${((schedulerAfter.onCpuMs - schedulerBefore.onCpuMs) / sent).toFixed(3)} ms, runnable but waiting for a core ${((schedulerAfter.waitingMs - schedulerBefore.waitingMs) / sent).toFixed(3)} ms; ${((schedulerAfter.involuntary - schedulerBefore.involuntary) / sent).toFixed(2)} involuntary and ${((schedulerAfter.voluntary - schedulerBefore.voluntary) / sent).toFixed(2)} voluntary context switches`,
      );
      if (round === ROUNDS) {
        for (const [key, list] of [...statements].sort((a, b) => b[1].length - a[1].length).slice(0, 5)) {
          const took = summarize(list);
          lines.push(
            `  ${(list.length / sent).toFixed(3)}/swipe, p50 ${took.p50.toFixed(2)} ms p95 ${took.p95.toFixed(2)} ms  ${key}`,
          );
        }
      }
    }
    session.disconnect();
    // The baseline of the sweep (bench/swipes.ts): a bare INSERT INTO swipes through the same
    // pool, at the same rate, from this thread; what the database and the driver alone cost.
    const count = RATE * SECONDS;
    const firstK = takeKs(count);
    const backends = backendCpu(filter, 0);
    await backends.start();
    const loadBefore = load();
    const mainBefore = await mainThreadCpuMs();
    const bare = await openLoop({
      rate: RATE,
      count,
      fire: (i) => bareSwipeInsert(app, i, firstK, SCALE.profiles),
    });
    const mainMs = (await mainThreadCpuMs()) - mainBefore;
    const backendMs = await backends.stop();
    const latency = summarize(bare.latenciesMs);
    lines.push(
      `bare INSERT: ${bare.sent} sent, ${bare.errors} errors${bare.overloaded ? ', OVERLOADED' : ''} (${loadBefore} → ${load()})`,
      `  per insert: main thread ${(mainMs / bare.sent).toFixed(3)} ms CPU; PostgreSQL ${(backendMs / bare.sent).toFixed(3)} ms CPU; latency p50 ${latency.p50.toFixed(2)} ms p95 ${latency.p95.toFixed(2)} ms p99 ${latency.p99.toFixed(2)} ms`,
    );
    if (profile) {
      const file = `/tmp/swipe-cost-${process.pid}.cpuprofile`;
      await writeFile(file, JSON.stringify(profile));
      const summary = summarizeProfile(profile);
      const perSwipe = (ms: number) => `${((ms / sent) * 1000).toFixed(0)} µs/swipe`;
      lines.push(`CPU profile (${file}): busy ${perSwipe(summary.total - summary.idle)}`);
      lines.push('  self:');
      for (const [name, ms] of summary.self.slice(0, 30)) lines.push(`    ${perSwipe(ms)}  ${name}`);
      lines.push('  inclusive:');
      for (const [name, ms] of summary.inclusive.slice(0, 45)) lines.push(`    ${perSwipe(ms)}  ${name}`);
      lines.push('  by module:');
      for (const [name, ms] of summary.modules) lines.push(`    ${perSwipe(ms)}  ${name}`);
    }
    await forget();
  } finally {
    pool.restore();
    await app.close();
  }
  return { name: 'Swipe cost: Node and PostgreSQL CPU per swipe at a held rate', lines };
}
