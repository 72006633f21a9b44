/**
 * QUALITY 34: the memory of everything `npm start` runs — the built server (`node
 * dist/server/main.js`) and, embedded, every PostgreSQL process below it — idle with the demo data,
 * then under the message load. PSS is the honest sum (PostgreSQL's shared buffers counted once);
 * RSS summed over the processes is printed beside it.
 *
 * BENCH_SERVER_ROOT runs another checkout's build (e.g. the previous commit, for a same-run
 * comparison: idle only when that build cannot share its database with this process).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import type { ChatLoad, ChatLoadResult, ChatPair, ChatReady, ChatStep } from './chat-load-worker.ts';
import { benchUserId, generateDataset } from './data/generate.ts';
import type { BenchResult } from './load.ts';
import { describeMemory, type TreeMemory, treeMemory } from './process-memory.ts';
import { summarize } from './stats.ts';
import { startWorker } from './worker.ts';

const ROOT = path.resolve(process.env.BENCH_SERVER_ROOT ?? '.');
const IDLE_SECONDS = Number(process.env.BENCH_MEMORY_IDLE_SECONDS ?? 15);
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 5000);
const RATE = Number(process.env.BENCH_MESSAGE_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LOAD = process.env.BENCH_MEMORY_LOAD !== '0';
const AFTER_SECONDS = Number(process.env.BENCH_MEMORY_AFTER_SECONDS ?? 20);

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Node's flags in the tree's `npm start` (e.g. `--max-semi-space-size=64`): the server runs as it would. */
async function startFlags(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  return manifest.scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

async function startServer(dataDir: string, tokenSecret: string) {
  const port = await freePort();
  const child = spawn(process.execPath, [...(await startFlags()), path.join(ROOT, 'dist/server/main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      TOKEN_SECRET: tokenSecret,
      RATE_LIMIT_IP_FACTOR: '1000',
      // BENCH_SERVER_NODE_OPTIONS: flags for the measured server only (e.g. a heap limit to try).
      ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const output: string[] = [];
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output.join('')}`);
    const ok = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, url, startMs: performance.now() - started };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Bench users 1…SOCKETS with sessions; pairs (i, i + pairs) matched through the swipe API of `url`. */
async function prepare(url: string, dataDir: string, tokenSecret: string, pairCount: number) {
  // A second app on the same cluster (its Unix socket in DATA_DIR/pg) issues the sessions; the
  // measured server handles every request.
  const helper = await buildApp({
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir }),
    databaseUrl: `postgresql://postgres@localhost/entreno?host=${encodeURIComponent(path.join(dataDir, 'pg'))}`,
    tokenSecret,
    isEphemeral: true,
  });
  try {
    await generateDataset((statement) => helper.database.db.execute(sql.raw(statement)), {
      profiles: SOCKETS,
      swipesPerUser: 0,
    });
    const tokens: string[] = [];
    for (let n = 1; n <= SOCKETS; n += 1) {
      tokens.push((await helper.auth.sessions.issueSession(benchUserId(n), { rememberMe: true })).token);
    }
    const swipe = async (from: number, to: number) => {
      const response = await fetch(`${url}/api/swipes/users/${benchUserId(from)}/swipe`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[from - 1]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ target_user_id: benchUserId(to), action: 'like' }),
      });
      return (await response.json()) as { matchData?: { conversationId: string } };
    };
    const pairs: ChatPair[] = [];
    for (let start = 1; start <= pairCount; start += 50) {
      const batch = Array.from({ length: Math.min(50, pairCount - start + 1) }, (_, k) => start + k);
      await Promise.all(batch.map((a) => swipe(a, a + pairCount)));
      const matched = await Promise.all(batch.map((a) => swipe(a + pairCount, a)));
      matched.forEach((answer, k) => {
        const a = batch[k] as number;
        if (!answer.matchData) throw new Error(`pair ${a} did not match: ${JSON.stringify(answer)}`);
        pairs.push({
          a: a - 1,
          b: a + pairCount - 1,
          conversationId: answer.matchData.conversationId,
          aUser: benchUserId(a),
          bUser: benchUserId(a + pairCount),
        });
      });
    }
    return { tokens, pairs };
  } finally {
    await helper.close();
  }
}

export async function benchMemory(): Promise<BenchResult> {
  if (process.platform !== 'linux') throw new Error('the memory bench reads /proc (Linux only)');
  if (!existsSync(path.join(ROOT, 'dist/server/main.js'))) {
    throw new Error(`no build in ${ROOT}: run npm run build first`);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'entreno-bench-memory-'));
  // The embedded PostgreSQL runs as its own user when the bench runs as root: it must enter DATA_DIR.
  chmodSync(dataDir, 0o711);
  const tokenSecret = randomBytes(32).toString('hex');
  const lines: string[] = [];
  const { child, url, startMs } = await startServer(dataDir, tokenSecret);
  try {
    const pid = child.pid as number;
    const health = (await (await fetch(`${url}/api/health`)).json()) as { database: string };
    lines.push(
      `server ${ROOT} (database: ${health.database}; node ${[...(await startFlags()), process.env.BENCH_SERVER_NODE_OPTIONS ?? ''].join(' ').trim() || 'without flags'}), first start with the demo data seeded in ${(startMs / 1000).toFixed(1)} s`,
    );
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const idle = treeMemory(pid);
    lines.push(
      `idle ${IDLE_SECONDS} s after start, demo data: ${describeMemory(idle)} — target ≤ 300 MB: ${idle.pssMb <= 300 ? 'MET' : 'NOT MET'} (load ${load()})`,
    );
    if (LOAD && health.database === 'embedded') {
      const pairCount = Math.min(Math.floor(SOCKETS / 2), Math.max(1, Math.round(RATE / 2)));
      const { tokens, pairs } = await prepare(url, dataDir, tokenSecret, pairCount);
      let peak: TreeMemory = treeMemory(pid);
      const sampler = setInterval(() => {
        const now = treeMemory(pid);
        if (now.pssMb > peak.pssMb) peak = now;
      }, 500);
      const worker = await startWorker<ChatReady, ChatStep, ChatLoadResult>('./chat-load-worker.ts', {
        urls: [url],
        mode: 'app',
        auth: tokens.map((token) => ({ token })),
        pairs,
      } satisfies ChatLoad);
      const measured = await worker.request({ rate: RATE, warmup: RATE * 2, count: RATE * SECONDS });
      await worker.close();
      clearInterval(sampler);
      const latency = summarize(measured.latenciesMs);
      lines.push(
        `under load (${SOCKETS} sockets, ${RATE} msg/s offered for ${SECONDS} s: ${measured.sent - measured.errors} delivered, p99 ${latency.p99.toFixed(1)} ms${measured.overloaded ? ', OVERLOADED' : ''}), peak: ${describeMemory(peak)} — target ≤ 400 MB: ${peak.pssMb <= 400 ? 'MET' : 'NOT MET'} (load ${load()})`,
      );
      // What stays once the load is over: garbage a later collection frees, or memory held.
      await new Promise((resolve) => setTimeout(resolve, AFTER_SECONDS * 1000));
      lines.push(`${AFTER_SECONDS} s after the load: ${describeMemory(treeMemory(pid))} (load ${load()})`);
      const byName = new Map<string, number>();
      for (const item of peak.processes) byName.set(item.name, (byName.get(item.name) ?? 0) + item.pssKb / 1024);
      lines.push(`peak PSS by process: ${[...byName].map(([name, mb]) => `${name} ${mb.toFixed(0)} MB`).join(', ')}`);
    }
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return {
    name: 'Memory of the embedded server (everything npm start runs: node dist/server/main.js and its PostgreSQL)',
    lines,
  };
}
