/**
 * `npm run bench -- deck-tail`: where the slow 5 % of deck page 1s spend their time (issue 16, the
 * 1M tail). The recommendations bench's page 1 run (the same viewers, 200/s open loop, every
 * viewer cold), on PostgreSQL 100k and then, with BENCH_RECOMMENDATION_MILLION=1, 1M (100 cities),
 * in one process. Per request, inside the server: its time from the request event to the
 * response's end, each of its statements' round trips (pool wait included; matched by the viewer
 * id among the statement's values), and the ranking's time. Beside them: the main thread's GC
 * pauses (PerformanceObserver 'gc'), event-loop stalls over 10 ms, and the shared buffers' hits
 * and reads of every table and index (pg_statio deltas) — a read is a page PostgreSQL had to
 * take from the OS (page cache or disk) — and the disk's read sectors (/proc/diskstats).
 * Prints the median request and the slowest 5 % split into these parts.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { App } from '../src/server/app.ts';
import { listen, postgresApp, rows, type Scale } from './data/datasets.ts';
import { deckLoad, pageOneRequests } from './deck-profile.ts';
import type { HttpRequestSpec } from './http-load-worker.ts';
import type { BenchResult } from './load.ts';
import { schedulerCounters } from './server-cost.ts';
import { summarize } from './stats.ts';

const RATE = Number(process.env.BENCH_RECOMMENDATION_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const HUNDRED_K: Scale = {
  profiles: Number(process.env.BENCH_PROFILES ?? 100_000),
  swipesPerUser: Number(process.env.BENCH_SWIPES_PER_USER ?? 20),
};
const MILLION: Scale = { profiles: 1_000_000, swipesPerUser: Number(process.env.BENCH_MILLION_SWIPES_PER_USER ?? 2) };

const load = () =>
  `load ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;

type Span = { start: number; end: number };
type Statement = Span & { key: string; waiting: number };
type RequestTrace = Span & { viewerId: string; statements: Statement[]; rank: number };

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const ONE_UUID = new RegExp(`^${UUID.source}$`);

/** Statements' round trips with their uuid values (the viewer id of the deck's statements among them). */
function traceStatements() {
  const statements: (Statement & { uuids: string[] })[] = [];
  let isOn = false;
  const original = pg.Pool.prototype.query as (...args: unknown[]) => Promise<unknown>;
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    const result = original.apply(this, args);
    if (!isOn || !(result instanceof Promise)) return result;
    const start = performance.now();
    const waiting = this.waitingCount;
    const config = args[0] as { name?: string; text?: string; values?: unknown[] } | string;
    const text = typeof config === 'string' ? config : (config.name ?? config.text ?? '?');
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 32);
    // drizzle passes a prepared statement's values beside its config: query(config, values).
    const values = (typeof config === 'string' ? undefined : config.values) ?? (args[1] as unknown[] | undefined);
    const uuids = (values ?? []).filter((value): value is string => typeof value === 'string' && ONE_UUID.test(value));
    return result.then((value) => {
      statements.push({ key, start, end: performance.now(), waiting, uuids });
      return value;
    });
  } as typeof pg.Pool.prototype.query;
  return {
    start() {
      statements.length = 0;
      isOn = true;
    },
    stop() {
      isOn = false;
      return [...statements];
    },
    restore() {
      pg.Pool.prototype.query = original as typeof pg.Pool.prototype.query;
    },
  };
}

/** Event-loop stalls: a 2 ms timer that notes every gap over 10 ms. */
function watchStalls() {
  const stalls: Span[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > 12) stalls.push({ start: last + 2, end: now });
    last = now;
  }, 2);
  return () => {
    clearInterval(timer);
    return stalls;
  };
}

async function statio(app: App) {
  return rows<{ name: string; read: number; hit: number }>(
    app,
    sql`select relname || ' (heap)' as name, heap_blks_read::int8 as read, heap_blks_hit::int8 as hit from pg_statio_user_tables
      union all select indexrelname as name, idx_blks_read::int8 as read, idx_blks_hit::int8 as hit from pg_statio_user_indexes`,
  );
}

/** CPU milliseconds of each thread of this process, by thread id, with its name. */
async function threadCpu(): Promise<Map<string, { name: string; ms: number }>> {
  const { readdir } = await import('node:fs/promises');
  const threads = new Map<string, { name: string; ms: number }>();
  for (const tid of await readdir('/proc/self/task')) {
    try {
      const stat = await readFile(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(tid, { name, ms: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch {
      // The thread ended meanwhile.
    }
  }
  return threads;
}

/** Busy CPU milliseconds of the whole host (every core) from /proc/stat. */
async function hostBusyMs(): Promise<number> {
  const [user, nice, system, , , irq, softirq, steal] = (await readFile('/proc/stat', 'utf8'))
    .split('\n')[0]
    ?.trim()
    .split(/\s+/)
    .slice(1)
    .map(Number) ?? [0];
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 10;
}

async function diskSectorsRead(): Promise<number> {
  const text = await readFile('/proc/diskstats', 'utf8');
  let sectors = 0;
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    // Whole disks only (vda, sda, nvme0n1), not their partitions.
    if (fields[2] && /^(vd[a-z]|sd[a-z]|nvme\d+n\d+)$/.test(fields[2])) sectors += Number(fields[5]);
  }
  return sectors;
}

const overlap = (a: Span, b: Span) => Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));

async function traceScale(label: string, scale: Scale): Promise<string[]> {
  const app = await postgresApp(scale);
  const lines: string[] = [];
  const statements = traceStatements();
  try {
    await app.deckIndex?.ready();
    const index = await app.deckIndex?.current();
    if (!index) throw new Error('the deck index did not load');
    // The ranking's time per viewer (the index object is the one every request ranks with).
    const rankTimes = new Map<string, number>();
    const rank = index.rank;
    index.rank = (viewer, excluded, after, size) => {
      const started = performance.now();
      const result = rank(viewer, excluded, after, size);
      rankTimes.set(viewer.userId, (rankTimes.get(viewer.userId) ?? 0) + performance.now() - started);
      return result;
    };
    const url = await listen(app);
    const count = RATE * SECONDS;
    const warm = RATE * 2;
    // The recommendations bench's measured viewers (its baseline takes the first count + warm).
    const ids = (
      await rows<{ user_id: string }>(
        app,
        sql`select user_id from profiles order by md5(user_id::text || 'viewer') offset ${count + warm} limit ${count + warm}`,
      )
    ).map((row) => row.user_id);
    await app.database.db.execute(sql`delete from recommendation_decks`);
    const requests = await pageOneRequests(app, url, ids);
    const run = (list: HttpRequestSpec[]) => deckLoad(list, RATE);
    await run(requests.slice(count));

    const traces = new Map<string, RequestTrace>();
    const onRequest = (request: { url?: string }, response: { once(event: 'finish', listener: () => void): void }) => {
      const viewerId = UUID.exec(request.url ?? '')?.[0];
      if (!viewerId) return;
      const start = performance.now();
      response.once('finish', () =>
        traces.set(viewerId, { viewerId, start, end: performance.now(), statements: [], rank: 0 }),
      );
    };
    app.http.server.prependListener('request', onRequest);
    const gcs: (Span & { kind: number })[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { detail?: { kind: number } })[]) {
        gcs.push({ start: entry.startTime, end: entry.startTime + entry.duration, kind: entry.detail?.kind ?? 0 });
      }
    });
    observer.observe({ entryTypes: ['gc'] });
    const ioBefore = await statio(app);
    const sectorsBefore = await diskSectorsRead();
    const schedulerBefore = await schedulerCounters();
    const hostBefore = await hostBusyMs();
    const processBefore = process.cpuUsage();
    const threadsBefore = await threadCpu();
    rankTimes.clear();
    statements.start();
    const stopStalls = watchStalls();
    const started = performance.now();
    const measured = await run(requests.slice(0, count));
    const ended = performance.now();
    const stalls = stopStalls();
    const processMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(processBefore));
    const hostMs = (await hostBusyMs()) - hostBefore;
    const threadsAfter = await threadCpu();
    const schedulerAfter = await schedulerCounters();
    const traced = statements.stop();
    observer.disconnect();
    app.http.server.removeListener('request', onRequest);
    const sectors = (await diskSectorsRead()) - sectorsBefore;
    const ioAfter = await statio(app);
    const runLoad = load();

    for (const statement of traced) {
      const trace = statement.uuids.map((id) => traces.get(id)).find((found) => found !== undefined);
      if (trace && statement.start >= trace.start - 1 && statement.end <= trace.end + 1)
        trace.statements.push(statement);
    }
    for (const trace of traces.values()) trace.rank = rankTimes.get(trace.viewerId) ?? 0;

    const client = summarize(measured.latenciesMs);
    const all = [...traces.values()].sort((a, b) => a.end - a.start - (b.end - b.start));
    const server = summarize(all.map((trace) => trace.end - trace.start));
    lines.push(
      `${label} ${scale.profiles.toLocaleString('en')} profiles, page 1 at ${RATE}/s for ${SECONDS} s, ${count} cold viewers (${runLoad})`,
      `client: p50 ${client.p50.toFixed(2)} p95 ${client.p95.toFixed(2)} p99 ${client.p99.toFixed(2)} ms; sent ${measured.sent}, errors ${measured.errors}, overloaded ${measured.overloaded}`,
      `server (request event → response end): p50 ${server.p50.toFixed(2)} p95 ${server.p95.toFixed(2)} p99 ${server.p99.toFixed(2)} ms (${all.length} traced)`,
    );
    const perPage = (ms: number) => (ms / Math.max(1, all.length)).toFixed(2);
    lines.push(
      `main thread per page: ${perPage(schedulerAfter.onCpuMs - schedulerBefore.onCpuMs)} ms on a core, ${perPage(schedulerAfter.waitingMs - schedulerBefore.waitingMs)} ms runnable but waiting for one; host CPU busy per page ${perPage(hostMs)} ms, of it this process (server + load worker) ${perPage(processMs)} ms, the rest (PostgreSQL, everything else) ${perPage(hostMs - processMs)} ms; ${((hostMs / (ended - started) / os.cpus().length) * 100).toFixed(0)} % of the host's cores busy`,
    );
    const byThread = new Map<string, number>();
    for (const [tid, after] of threadsAfter) {
      const name = tid === String(process.pid) ? 'main' : after.name;
      byThread.set(name, (byThread.get(name) ?? 0) + after.ms - (threadsBefore.get(tid)?.ms ?? 0));
    }
    lines.push(
      `  this process's threads, CPU per page: ${[...byThread]
        .filter(([, ms]) => ms > 0)
        .sort((a, b) => b[1] - a[1])
        .map(([name, ms]) => `${name} ${perPage(ms)} ms`)
        .join(', ')}`,
    );
    const keys = [...new Set(traced.map((statement) => statement.key))];
    const breakdown = (name: string, group: RequestTrace[]) => {
      const n = Math.max(1, group.length);
      const mean = (f: (trace: RequestTrace) => number) =>
        (group.reduce((sum, trace) => sum + f(trace), 0) / n).toFixed(2);
      const byKey = keys.map(
        (key) =>
          `${key} ${mean((trace) => trace.statements.filter((s) => s.key === key).reduce((sum, s) => sum + s.end - s.start, 0))}`,
      );
      const inStatements = (trace: RequestTrace) => trace.statements.reduce((sum, s) => sum + s.end - s.start, 0);
      const gcIn = (trace: RequestTrace) => gcs.reduce((sum, gc) => sum + overlap(gc, trace), 0);
      const stallIn = (trace: RequestTrace) => stalls.reduce((sum, stall) => sum + overlap(stall, trace), 0);
      const queued = (trace: RequestTrace) => trace.statements.filter((s) => s.waiting > 0).length;
      lines.push(
        `  ${name} (${group.length}): server ${mean((t) => t.end - t.start)} ms = statements ${mean(inStatements)} [${byKey.join('; ')}] + ranking ${mean((t) => t.rank)} + rest ${mean((t) => t.end - t.start - inStatements(t) - t.rank)}; overlapping GC ${mean(gcIn)}, loop stalls > 10 ms ${mean(stallIn)}; statements that found the pool busy ${mean(queued)}`,
      );
    };
    const p95Index = Math.floor(all.length * 0.95);
    breakdown('slowest 5 %', all.slice(p95Index));
    breakdown('50–95 %', all.slice(Math.floor(all.length * 0.5), p95Index));
    breakdown('fastest half', all.slice(0, Math.floor(all.length * 0.5)));
    const slowStarts = all.slice(p95Index).map((trace) => trace.start - started);
    const buckets = new Array<number>(Math.ceil((ended - started) / 1000)).fill(0);
    for (const at of slowStarts) {
      const second = Math.min(buckets.length - 1, Math.max(0, Math.floor(at / 1000)));
      buckets[second] = (buckets[second] ?? 0) + 1;
    }
    lines.push(`  slowest 5 % by second of the run: ${buckets.join(' ')}`);
    const gcTotal = (kind?: number) =>
      gcs.filter((gc) => kind === undefined || gc.kind === kind).reduce((sum, gc) => sum + gc.end - gc.start, 0);
    const longest = gcs.reduce((max, gc) => Math.max(max, gc.end - gc.start), 0);
    lines.push(
      `  GC on the main thread: ${gcs.length} pauses, ${gcTotal().toFixed(0)} ms in all (minor ${gcTotal(1).toFixed(0)}, major ${gcTotal(4).toFixed(0)}, incremental ${gcTotal(8).toFixed(0)}), longest ${longest.toFixed(1)} ms; loop stalls > 10 ms: ${stalls.length}, ${stalls.reduce((sum, s) => sum + s.end - s.start, 0).toFixed(0)} ms in all, longest ${stalls.reduce((max, s) => Math.max(max, s.end - s.start), 0).toFixed(0)} ms`,
    );
    const before = new Map(ioBefore.map((row) => [row.name, row]));
    const io = ioAfter
      .map((row) => ({
        name: row.name,
        read: Number(row.read) - Number(before.get(row.name)?.read ?? 0),
        hit: Number(row.hit) - Number(before.get(row.name)?.hit ?? 0),
      }))
      .filter((row) => row.read + row.hit > 0)
      .sort((a, b) => b.read - a.read || b.hit - a.hit)
      .slice(0, 10);
    const pages = Math.max(1, all.length);
    lines.push(
      `  shared buffers per page 1 (reads = pages taken from the OS), disk ${((sectors * 512) / 2 ** 20).toFixed(1)} MB read during the run:`,
      ...io.map((row) => `    ${row.name}: ${(row.read / pages).toFixed(2)} read, ${(row.hit / pages).toFixed(2)} hit`),
    );
  } finally {
    statements.restore();
    await app.close();
  }
  return lines;
}

export async function benchDeckTail(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const scales: [string, Scale][] = [['PostgreSQL', HUNDRED_K]];
  if (process.env.BENCH_RECOMMENDATION_MILLION === '1') scales.push(['PostgreSQL, 100 cities', MILLION]);
  for (const [label, scale] of scales) {
    results.push({ name: `Deck page 1 tail (${label})`, lines: await traceScale(label, scale) });
  }
  return results;
}
