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
import pg from 'pg';
import type { App } from '../src/server/app.ts';
import {
  createRecommendationRepository,
  type DeckViewer,
} from '../src/server/features/discovery/recommendation-repository.ts';
import { deckViewerOf } from '../src/server/features/discovery/recommendation-service.ts';
import { createProfileRepository } from '../src/server/features/profiles/profile-repository.ts';
import { DATABASE_URL, embeddedApp, listen, postgresApp, rows, type Scale } from './data/datasets.ts';
import type { HttpLoad, HttpLoadResult, HttpRequestSpec } from './http-load-worker.ts';
import { type BenchResult, openLoop } from './load.ts';
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

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

/** Statement round trips by statement (prepared name, or the first words of its text). */
function instrumentPool() {
  const timings = new Map<string, number[]>();
  let isOn = false;
  const original = pg.Pool.prototype.query as (...args: unknown[]) => Promise<unknown>;
  const keyOf = (config: unknown): string => {
    if (typeof config === 'string') return config.replace(/\s+/g, ' ').slice(0, 70);
    const named = config as { name?: string; text?: string };
    return named.name ?? (named.text ?? '?').replace(/\s+/g, ' ').slice(0, 70);
  };
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    const result = original.apply(this, args);
    if (!isOn || !(result instanceof Promise)) return result;
    const started = performance.now();
    const key = keyOf(args[0]);
    return result.then((value) => {
      const list = timings.get(key) ?? [];
      list.push(performance.now() - started);
      timings.set(key, list);
      return value;
    });
  } as typeof pg.Pool.prototype.query;
  return {
    start() {
      timings.clear();
      isOn = true;
    },
    stop() {
      isOn = false;
      return timings;
    },
    restore() {
      pg.Pool.prototype.query = original as typeof pg.Pool.prototype.query;
    },
  };
}

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

/** CPU milliseconds (user + system) of each PostgreSQL backend serving database `name`, by pid (Linux /proc). */
async function backendCpuByPid(name: string): Promise<Map<string, number>> {
  const { readdir, readFile } = await import('node:fs/promises');
  const tick = 10; // ms per USER_HZ tick on Linux
  const byPid = new Map<string, number>();
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      if (!cmdline.startsWith('postgres: ') || !cmdline.includes(` ${name} `)) continue;
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byPid.set(pid, (Number(fields[11]) + Number(fields[12])) * tick);
    } catch {
      // The process ended meanwhile.
    }
  }
  return byPid;
}

/**
 * The CPU the backends of database `name` spend from start() to stop(), sampled every 200 ms so a
 * backend that ends meanwhile (the pool closes idle connections) still counts up to its last sample.
 */
function backendCpu(name: string) {
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  const sample = async (isFirst: boolean) => {
    for (const [pid, ms] of await backendCpuByPid(name)) {
      if (isFirst) first.set(pid, ms);
      else if (!first.has(pid)) first.set(pid, 0);
      last.set(pid, ms);
    }
  };
  return {
    async start() {
      await sample(true);
      timer = setInterval(() => void sample(false), 200);
    },
    async stop(): Promise<number> {
      clearInterval(timer);
      await sample(false);
      let total = 0;
      for (const [pid, ms] of last) total += ms - (first.get(pid) ?? 0);
      return total;
    },
  };
}

/** CPU milliseconds of this process's main thread alone (the server; the load runs in a worker). */
async function mainThreadCpuMs(): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const place = (frame: ProfileNode['callFrame']) => {
  const url = frame.url.replace(/^file:\/\//, '');
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  const bench = url.indexOf('/bench/');
  if (bench >= 0) return url.slice(bench + 1);
  return url === '' ? '(native)' : url.startsWith('node:') ? url : url.split('/').slice(-1)[0] || url;
};

/** Self and inclusive milliseconds by function and by module (place). */
function summarizeProfile(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const modules = new Map<string, number>();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    total += ms;
    const leaf = byId.get(id) as ProfileNode;
    const name = (node: ProfileNode) =>
      `${node.callFrame.functionName || '(anonymous)'} ${place(node.callFrame)}:${node.callFrame.lineNumber + 1}`;
    if (leaf.callFrame.functionName === '(idle)') {
      idle += ms;
      return;
    }
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + ms);
    const leafModule = place(leaf.callFrame);
    modules.set(leafModule, (modules.get(leafModule) ?? 0) + ms);
    const seen = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const node = byId.get(current) as ProfileNode;
      const key = name(node);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  });
  const top = (map: Map<string, number>, n: number, filter: (key: string) => boolean = () => true) =>
    [...map]
      .filter(([key]) => filter(key))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n);
  return {
    total,
    idle,
    self: top(self, 30),
    inclusive: top(inclusive, 45, (key) => !key.startsWith('(')),
    modules: top(modules, 20),
  };
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
    const requests: HttpRequestSpec[] = [];
    for (const id of ids) {
      const { token } = await app.auth.sessions.issueSession(id, { rememberMe: true });
      requests.push({
        method: 'GET',
        url: `${url}/api/profiles/${id}/recommended?page=1&limit=10`,
        headers: { authorization: `Bearer ${token}` },
      });
    }
    const run = (list: HttpRequestSpec[]) =>
      runWorker<HttpLoadResult>('./http-load-worker.ts', {
        rate: RATE,
        requests: list,
        countProfiles: true,
      } satisfies HttpLoad);
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
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
    }
    pool.start();
    requestTimes.start();
    const database = embedded ? 'postgres' : new URL(app.config.databaseUrl ?? 'x:///').pathname.slice(1);
    const backends = backendCpu(database);
    await backends.start();
    const cpuBefore = process.cpuUsage();
    const mainBefore = await mainThreadCpuMs();
    const measured = await run(measuredRequests);
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
    const bareBackends = backendCpu(database);
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
      `PostgreSQL backends of ${database}: ${(backendMs / pages).toFixed(2)} ms CPU per page (10 ms ticks, sampled every 200 ms)`,
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
