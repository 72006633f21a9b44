/**
 * `npm run bench -- deck-profile`: where a deck page 1 spends its time, at a rate the bare SQL
 * query holds (BENCH_PROFILE_RATE, default 50/s, BENCH_PROFILE_SECONDS, default 20). Cold viewers
 * (a fresh session each, asked once), like the recommendations bench. Prints:
 * - the page's latency at the client and its time inside the server (request to response end);
 * - each statement's round trip (call to rows) and count per page, grouped by statement;
 * - a CPU profile of the process (server and bench share it; the load runs in a worker thread)
 *   summarized by function, self and inclusive, and by module.
 * PostgreSQL 100k with DATABASE_URL (BENCH_PROFILE_DB=embedded: the embedded 10k instead).
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { App } from '../src/server/app.ts';
import { type DeckViewer, deckViewerOf } from '../src/server/features/discovery/ranking/deck-viewer.ts';
import { createRecommendationRepository } from '../src/server/features/discovery/recommendation-repository.ts';
import { createProfileRepository } from '../src/server/features/profiles/profile-repository.ts';
import { DATABASE_URL, embeddedApp, listen, postgresApp, rows, type Scale } from './data/datasets.ts';
import type { HttpLoad, HttpLoadResult, HttpRequestSpec } from './http-load-worker.ts';
import { type BenchResult, openLoop } from './load.ts';
import {
  type BackendFilter,
  backendCpu,
  type CpuProfile,
  instrumentPool,
  mainThreadCpuMs,
  schedulerCounters,
  summarizeProfile,
  startProfiler,
} from './server-cost.ts';
import { summarize } from './stats.ts';
import { runWorker } from './worker.ts';

const RATE = Number(process.env.BENCH_PROFILE_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 20);
const PAGE = Number(process.env.BENCH_PROFILE_PAGE ?? 1);
/** BENCH_PROFILE_SAMPLING=0: no CPU profile (the CPU per page then excludes the profiler's own cost). */
const SAMPLING = process.env.BENCH_PROFILE_SAMPLING !== '0';

const load = () =>
  `load ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;

/** Server-side time of each request: from the request event to the response's end. */
function timeRequests(app: App) {
  const times: number[] = [];
  let isOn = false;
  app.http.server.prependListener('request', (_request, response) => {
    if (!isOn) return;
    const started = performance.now();
    response.once('finish', () => times.push(performance.now() - started));
  });
  return {
    start() {
      times.length = 0;
      isOn = true;
    },
    stop() {
      isOn = false;
      return [...times];
    },
  };
}

/** Page 1 of each viewer's deck, each with a fresh session (a cold viewer). */
export async function pageOneRequests(app: App, url: string, ids: readonly string[]): Promise<HttpRequestSpec[]> {
  const requests: HttpRequestSpec[] = [];
  for (const id of ids) {
    const { token } = await app.auth.sessions.issueSession(id, { rememberMe: true });
    requests.push({
      method: 'GET',
      url: `${url}/api/profiles/${id}/recommended?page=1&limit=10`,
      headers: { authorization: `Bearer ${token}` },
    });
  }
  return requests;
}

/** An open-loop run of deck requests in a worker thread (the client off the server's event loop). */
export function deckLoad(requests: HttpRequestSpec[], rate: number): Promise<HttpLoadResult> {
  return runWorker<HttpLoadResult>('./http-load-worker.ts', {
    rate,
    requests,
    countProfiles: true,
  } satisfies HttpLoad);
}

export async function benchDeckProfile(): Promise<BenchResult> {
  const embedded = process.env.BENCH_PROFILE_DB === 'embedded' || !DATABASE_URL;
  const scale: Scale = embedded
    ? { profiles: Number(process.env.BENCH_EMBEDDED_PROFILES ?? 10_000), swipesPerUser: 20 }
    : {
        profiles: Number(process.env.BENCH_PROFILES ?? 100_000),
        swipesPerUser: Number(process.env.BENCH_SWIPES_PER_USER ?? 20),
      };
  const pool = instrumentPool();
  const app = embedded ? await embeddedApp(scale) : await postgresApp(scale);
  const lines: string[] = [];
  try {
    await app.deckIndex?.ready();
    const url = await listen(app);
    const requestTimes = timeRequests(app);
    const count = RATE * SECONDS;
    const warm = RATE * 2;
    const ids = (
      await rows<{ user_id: string }>(
        app,
        sql`select user_id from profiles order by md5(user_id::text || 'profile') limit ${2 * count + warm}`,
      )
    ).map((row) => row.user_id);
    const bareIds = ids.splice(count + warm);
    const requests = await pageOneRequests(app, url, ids);
    const run = (list: HttpRequestSpec[]) => deckLoad(list, RATE);
    await run(requests.slice(count));
    let measuredRequests = requests.slice(0, count);
    if (PAGE > 1) {
      // Page 1 first (untimed), then the page asked for.
      await run(measuredRequests);
      measuredRequests = measuredRequests.map((request) => ({
        ...request,
        url: request.url.replace('page=1', `page=${PAGE}`),
      }));
    }
    const session = new Session();
    session.connect();
    if (SAMPLING) {
      await startProfiler(session);
    }
    pool.start();
    requestTimes.start();
    const database = new URL(app.config.databaseUrl ?? 'x:///').pathname.slice(1);
    const filter: BackendFilter = embedded ? { embedded: true } : { database };
    const backends = backendCpu(filter);
    await backends.start();
    const cpuBefore = process.cpuUsage();
    const mainBefore = await mainThreadCpuMs();
    const schedulerBefore = await schedulerCounters();
    const measured = await run(measuredRequests);
    const schedulerAfter = await schedulerCounters();
    const mainMs = (await mainThreadCpuMs()) - mainBefore;
    const cpu = process.cpuUsage(cpuBefore);
    const backendMs = await backends.stop();
    const serverMs = requestTimes.stop();
    const statements = pool.stop();
    const profile = SAMPLING
      ? ((await session.post('Profiler.stop')) as { profile: CpuProfile }).profile
      : { nodes: [], samples: [], timeDeltas: [], startTime: 0, endTime: 0 };
    session.disconnect();
    const file = `/tmp/deck-profile-${embedded ? 'embedded' : 'postgres'}-page${PAGE}.cpuprofile`;
    if (SAMPLING) await writeFile(file, JSON.stringify(profile));

    // The bare SQL deck query (decision 0006) of other viewers, same rate and count: its cost.
    const repository = createRecommendationRepository(app.database.db);
    const now = new Date();
    const viewers: DeckViewer[] = (await createProfileRepository(app.database.db).findManyByUserIds(bareIds)).map(
      (found) => deckViewerOf(found, now),
    );
    const bareBackends = backendCpu(filter);
    await bareBackends.start();
    const bareMainBefore = await mainThreadCpuMs();
    const bare = await openLoop({
      rate: RATE,
      count: viewers.length,
      async fire(index) {
        await repository.candidates(viewers[index] as DeckViewer, null, 200);
      },
    });
    const bareMainMs = (await mainThreadCpuMs()) - bareMainBefore;
    const bareBackendMs = await bareBackends.stop();
    const bareQueries = Math.max(1, bare.latenciesMs.length);
    const bareLatency = summarize(bare.latenciesMs);

    const client = summarize(measured.latenciesMs);
    const server = summarize(serverMs);
    const pages = Math.max(1, serverMs.length);
    lines.push(
      `${embedded ? 'embedded' : 'PostgreSQL'} ${scale.profiles.toLocaleString('en')} profiles, page ${PAGE} at ${RATE}/s for ${SECONDS} s, cold viewers (${load()})`,
      `client: p50 ${client.p50.toFixed(2)} ms p95 ${client.p95.toFixed(2)} ms p99 ${client.p99.toFixed(2)} ms; sent ${measured.sent}, errors ${measured.errors}, overloaded ${measured.overloaded}, non-empty ${measured.nonEmpty}`,
      `server (request → response end): p50 ${server.p50.toFixed(2)} ms p95 ${server.p95.toFixed(2)} ms p99 ${server.p99.toFixed(2)} ms`,
      `CPU per page: main thread (the server, profiler included) ${(mainMs / pages).toFixed(2)} ms; whole process (with the load worker) ${((cpu.user + cpu.system) / 1000 / pages).toFixed(2)} ms`,
      `main thread, scheduler (per page): on a core ${((schedulerAfter.onCpuMs - schedulerBefore.onCpuMs) / pages).toFixed(2)} ms, runnable but waiting for a core ${((schedulerAfter.waitingMs - schedulerBefore.waitingMs) / pages).toFixed(2)} ms; ${((schedulerAfter.involuntary - schedulerBefore.involuntary) / pages).toFixed(2)} involuntary and ${((schedulerAfter.voluntary - schedulerBefore.voluntary) / pages).toFixed(2)} voluntary context switches`,
      `PostgreSQL ${embedded ? '(embedded, every process)' : `backends of ${database}`}: ${(backendMs / pages).toFixed(2)} ms CPU per page (10 ms ticks, sampled every 200 ms)`,
      `bare SQL deck query, ${bare.latenciesMs.length} other viewers at ${RATE}/s (${load()}): p50 ${bareLatency.p50.toFixed(2)} ms p95 ${bareLatency.p95.toFixed(2)} ms p99 ${bareLatency.p99.toFixed(2)} ms${bare.overloaded ? ' OVERLOADED' : ''}; PostgreSQL backends ${(bareBackendMs / bareQueries).toFixed(2)} ms CPU per query, main thread ${(bareMainMs / bareQueries).toFixed(2)} ms`,
      `CPU cost ratio, page 1 / bare query (main thread + backends): ${((mainMs + backendMs) / pages / ((bareMainMs + bareBackendMs) / bareQueries)).toFixed(2)}`,
      'statements (round trip, call → rows):',
    );
    for (const [key, list] of [...statements].sort((a, b) => b[1].length - a[1].length)) {
      const s = summarize(list);
      lines.push(
        `  ${(list.length / pages).toFixed(2)}/page  p50 ${s.p50.toFixed(2)} p95 ${s.p95.toFixed(2)} ms  ${key}`,
      );
    }
    if (!SAMPLING) return { name: `Deck page ${PAGE} cost`, lines };
    const summary = summarizeProfile(profile);
    const perPage = (ms: number) => `${((ms * 1000) / pages).toFixed(0)} µs/page`;
    lines.push(
      `CPU profile (${file}): ${summary.total.toFixed(0)} ms sampled, idle ${summary.idle.toFixed(0)} ms; busy ${perPage(summary.total - summary.idle)}`,
      'by module (self):',
      ...summary.modules.map(([key, ms]) => `  ${perPage(ms).padStart(14)}  ${key}`),
      'by function, self:',
      ...summary.self.map(([key, ms]) => `  ${perPage(ms).padStart(14)}  ${key}`),
      'by function, inclusive:',
      ...summary.inclusive.map(([key, ms]) => `  ${perPage(ms).padStart(14)}  ${key}`),
    );
  } finally {
    pool.restore();
    await app.close();
  }
  return { name: `Deck page ${PAGE} profile`, lines };
}
