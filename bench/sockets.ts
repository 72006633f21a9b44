import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import type { BenchResult } from './load.ts';

/**
 * QUALITY 27: memory per idle socket and event-loop delay on one node, against a bare Socket.IO
 * server with the same sockets. Server and clients are separate processes, each started through
 * `bash -c 'ulimit -n …'`, which raises the file limit to FILE_LIMIT when the machine allows it
 * (root with CAP_SYS_RESOURCE) and otherwise takes the hard limit (`ulimit -Hn`). The target is
 * 50,000 sockets (BENCH_IDLE_SOCKETS); when one process cannot hold that many files the bench
 * goes as far as the limit allows and says so, extrapolating RSS linearly to 50,000.
 */
const FILE_LIMIT = 200_000;
const WANTED = Number(process.env.BENCH_IDLE_SOCKETS ?? 50_000);
const PER_CLIENT_PROCESS = 9_500;
const IDLE_WINDOW_MS = Number(process.env.BENCH_IDLE_WINDOW_MS ?? 10_000);
/** Files a server process needs besides its sockets (the database pool, stdio, listeners…). */
const SPARE_FILES = 400;

type Stats = { rss: number; heapUsed: number; sockets: number; delayP50: number; delayP99: number; delayMax: number };

const RAISE_LIMIT = `ulimit -n ${FILE_LIMIT} 2>/dev/null || ulimit -n $(ulimit -Hn)`;

/** The file limit a bench process gets here (what RAISE_LIMIT achieves). */
function fileLimit(): number {
  const answer = spawnSync('bash', ['-c', `${RAISE_LIMIT}; ulimit -n`], { encoding: 'utf8' });
  const limit = Number(answer.stdout.trim());
  return Number.isFinite(limit) && limit > 0 ? limit : 1024;
}

function spawnLimited(command: string, env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn('bash', ['-c', `${RAISE_LIMIT}; exec ${command}`], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

function lineReader(child: ChildProcessWithoutNullStreams): { next(): Promise<string>; lines: Interface } {
  const lines = createInterface({ input: child.stdout });
  const queue: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  lines.on('line', (line) => {
    if (!line.startsWith('{')) return;
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else queue.push(line);
  });
  return {
    lines,
    next: () =>
      new Promise((resolve, reject) => {
        const queued = queue.shift();
        if (queued !== undefined) return resolve(queued);
        const timer = setTimeout(() => reject(new Error('no answer from a bench process')), 300_000);
        waiters.push((line) => {
          clearTimeout(timer);
          resolve(line);
        });
      }),
  };
}

async function measure(mode: 'app' | 'bare', steps: number[]) {
  const server = spawnLimited('node --expose-gc --import tsx bench/socket-server.ts', { MODE: mode });
  const errors: string[] = [];
  server.stderr.on('data', (chunk) => errors.push(String(chunk)));
  const serverLines = lineReader(server);
  const clients: ChildProcessWithoutNullStreams[] = [];
  const stats = async (): Promise<Stats> => {
    server.stdin.write('stats\n');
    return JSON.parse(await serverLines.next()) as Stats;
  };
  try {
    const { port, token } = JSON.parse(await serverLines.next()) as { port: number; token: string };
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await stats();
    const results: { sockets: number; stats: Stats; connectSeconds: number; failed: number }[] = [];
    await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS / 2));
    results.push({ sockets: 0, stats: await stats(), connectSeconds: 0, failed: 0 });
    let open = 0;
    let failed = 0;
    for (const step of steps) {
      const started = performance.now();
      while (open < step) {
        const batch = Math.min(PER_CLIENT_PROCESS, step - open);
        const client = spawnLimited(
          `node --import tsx bench/socket-clients.ts ${port} ${batch} ${2 + clients.length} ${token}`,
        );
        client.stderr.on('data', (chunk) => errors.push(String(chunk)));
        clients.push(client);
        const report = JSON.parse(await lineReader(client).next()) as { connected: number; failed: number };
        open += batch;
        failed += report.failed;
      }
      const connectSeconds = (performance.now() - started) / 1000;
      await stats();
      await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
      results.push({ sockets: step, stats: await stats(), connectSeconds, failed });
    }
    return results;
  } catch (error) {
    throw new Error(`${String(error)}\n${errors.join('').slice(-2000)}`);
  } finally {
    for (const client of clients) client.stdin.end();
    server.stdin.end();
    await Promise.all(
      [...clients, server].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
          }),
      ),
    );
  }
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

export async function benchSockets(): Promise<BenchResult> {
  const limit = fileLimit();
  const target = Math.min(WANTED, limit - SPARE_FILES);
  const isLimited = target < WANTED;
  const steps = [Math.round(target / 4), Math.round(target / 2), target];
  const bare = await measure('bare', steps);
  const app = await measure('app', steps);
  const lines: string[] = [];
  for (let index = 0; index < app.length; index += 1) {
    const a = app[index] as (typeof app)[number];
    const b = bare[index] as (typeof bare)[number];
    lines.push(
      `${String(a.sockets).padStart(6)} sockets: RSS ${mb(a.stats.rss)} (baseline ${mb(b.stats.rss)}), heap ${mb(a.stats.heapUsed)}, loop delay p50 ${a.stats.delayP50.toFixed(1)} / p99 ${a.stats.delayP99.toFixed(1)} / max ${a.stats.delayMax.toFixed(1)} ms (baseline p99 ${b.stats.delayP99.toFixed(1)} ms)` +
        (a.sockets > 0
          ? `; server counts ${a.stats.sockets}, failed ${a.failed}, connected in ${a.connectSeconds.toFixed(0)} s`
          : ''),
    );
  }
  const first = app[0] as (typeof app)[number];
  const last = app[app.length - 1] as (typeof app)[number];
  const bareFirst = bare[0] as (typeof bare)[number];
  const bareLast = bare[bare.length - 1] as (typeof bare)[number];
  const perSocket = (last.stats.rss - first.stats.rss) / last.sockets;
  const barePerSocket = (bareLast.stats.rss - bareFirst.stats.rss) / bareLast.sockets;
  const at50k = first.stats.rss + perSocket * 50_000;
  lines.push(
    `per idle socket: ${(perSocket / 1024).toFixed(1)} KB  baseline ${(barePerSocket / 1024).toFixed(1)} KB  ratio ${(perSocket / barePerSocket).toFixed(2)}x`,
    last.sockets >= 50_000
      ? `at ${last.sockets} sockets: RSS ${mb(last.stats.rss)} (target ≤ 1.5 GB: ${last.stats.rss <= 1.5 * 2 ** 30 ? 'MET' : 'NOT MET'}); loop delay p99 ${last.stats.delayP99.toFixed(1)} ms (target ≤ 50 ms: ${last.stats.delayP99 <= 50 ? 'MET' : 'NOT MET'})`
      : `extrapolated to 50,000 sockets: RSS ≈ ${mb(at50k)} (target ≤ 1.5 GB: ${at50k <= 1.5 * 2 ** 30 ? 'met by extrapolation only' : 'NOT MET'}); loop delay p99 at ${last.sockets}: ${last.stats.delayP99.toFixed(1)} ms (target ≤ 50 ms at 50,000: ${last.stats.delayP99 <= 50 ? 'met at this count only' : 'NOT MET'})`,
  );
  return {
    name: `Idle sockets on one node (app on the embedded PostgreSQL vs bare Socket.IO; up to ${target} sockets${isLimited ? ` — NOT ${WANTED}: a process may open only ${limit} files here and the limit cannot be raised (no CAP_SYS_RESOURCE)` : ''}; file limit ${limit}; idle window ${IDLE_WINDOW_MS / 1000} s per step)`,
    lines,
  };
}
