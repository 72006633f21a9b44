import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createAdapter } from '@socket.io/redis-adapter';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import type { App } from '../src/server/app.ts';
import { guardAdapterClients } from '../src/server/plugins/realtime.ts';
import { renderLatencyChart } from './chart.ts';
import type { ChatLoad, ChatLoadResult, ChatPair, ChatReady, ChatStep } from './chat-load-worker.ts';
import { DATABASE_URL, listen, embeddedApp, postgresApp, REDIS_URL } from './data/datasets.ts';
import { benchUserId } from './data/generate.ts';
import type { BenchResult } from './load.ts';
import { kneeLines, pointLine, rateSteps, type SweepSeries, sweep } from './sweep.ts';
import { startWorker } from './worker.ts';
import { describeBatchSizes, takeBatchSizes } from '../src/server/infra/batcher.ts';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 5000);
/** Seconds per sweep step (each step also sends one second's worth of unmeasured warm-up). */
const STEP_SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? process.env.BENCH_SECONDS ?? 4);
const CHART_DIR = path.resolve(import.meta.dirname, '../docs/performance');

/** This process's RSS plus its child processes' (an embedded database server), in MB. */
export function processTreeRssMb(): number {
  const rssOf = (pid: number) => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return match ? Number(match[1]) / 1024 : 0;
    } catch {
      return 0;
    }
  };
  const childrenOf = (pid: number): number[] => {
    const found: number[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (parent === pid) found.push(Number(entry));
      } catch {
        // gone
      }
    }
    return found;
  };
  let total = 0;
  const queue = [process.pid];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    total += rssOf(pid);
    if (pid === process.pid || queue.length < 64) queue.push(...childrenOf(pid));
  }
  return total;
}

/** A bare Socket.IO relay (optionally on the Redis adapter): `sendMessage` → `newMessage` to the recipient's room, with an ack. */
async function bareRelay(redisUrl?: string) {
  const http = createServer();
  const io = new Server(http, { transports: ['websocket'] });
  const clients: Redis[] = [];
  if (redisUrl) {
    const pub = new Redis(redisUrl);
    const sub = pub.duplicate();
    // Emits of acks still in flight at close: reported nowhere, never an unhandled rejection.
    guardAdapterClients(pub, sub, () => {});
    clients.push(pub, sub);
    io.adapter(createAdapter(pub, sub, { key: `bench-relay-${process.pid}` }));
  }
  io.on('connection', (socket) => {
    void socket.join(`user:${String(socket.handshake.auth.user)}`);
    socket.on('sendMessage', (payload: { to: string; text: string }, ack: (answer: unknown) => void) => {
      io.to(`user:${payload.to}`).emit('newMessage', { text: payload.text, at: Date.now() });
      ack({ ok: true });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => io.close(() => resolve()));
      for (const client of clients) client.disconnect();
    },
  };
}

/** Users 1…2 × pairCount with sessions; pairs (i, i + pairs) matched through the swipe API. */
export async function prepareChat(app: App, url: string, pairCount: number) {
  const tokens: string[] = [];
  for (let n = 1; n <= 2 * pairCount; n += 1) {
    tokens.push((await app.auth.sessions.issueSession(benchUserId(n), { rememberMe: true })).token);
  }
  const swipe = async (from: number, to: number) => {
    const response = await fetch(`${url}/api/swipes/users/${benchUserId(from)}/swipe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[from - 1]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ target_user_id: benchUserId(to), action: 'like' }),
    });
    return (await response.json()) as { match?: boolean; matchData?: { conversationId: string } };
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
}

/** One sweep over a connected set of sockets (a worker holding them). */
async function sweepWith(options: {
  label: string;
  load: ChatLoad;
  rates: number[];
  targetMs: number;
  lines: string[];
  rss?: () => number;
}): Promise<SweepSeries> {
  const worker = await startWorker<ChatReady, ChatStep, ChatLoadResult>('./chat-load-worker.ts', options.load);
  options.lines.push(
    `${options.label}: ${options.load.auth.length} sockets connected in ${(worker.ready.connectMs / 1000).toFixed(1)} s`,
  );
  try {
    let firstError: string | undefined;
    const series = await sweep({
      label: options.label,
      rates: options.rates,
      percentile: 'p99',
      targetMs: options.targetMs,
      // Past the first miss until the run overloads: the chart shows the curve, not one point.
      missesToStop: Number.POSITIVE_INFINITY,
      async measure(rate) {
        takeBatchSizes();
        const result = await worker.request({ rate, warmup: rate, count: rate * STEP_SECONDS });
        // The app's sends in this process (embedded; a node in a child process counts its own).
        const sends = takeBatchSizes().get('chat_sends');
        if (sends) {
          const line = `${options.label} @ ${rate}/s: send batches, warm-up included (count×size) ${describeBatchSizes(sends)}`;
          options.lines.push(line);
          console.log(`  … ${line}`);
        }
        firstError ??= result.firstError;
        return { ...result, ...(options.rss ? { rssMb: options.rss() } : {}) };
      },
      onPoint: (point) => {
        const line = pointLine({ label: options.label, percentile: 'p99', targetMs: options.targetMs }, point);
        options.lines.push(line);
        // Live as well: a long sweep shows its progress (and what it reached if it is stopped).
        console.log(`  … ${line}`);
      },
    });
    if (firstError) options.lines.push(`${options.label}: first error: ${firstError}`);
    return series;
  } finally {
    await worker.close();
  }
}

/** The app and a bare relay swept on the same sockets' shape; knees, ratio and a chart. */
async function benchOne(options: {
  label: string;
  app: App;
  /** Two nodes: the recipients' sockets on this one (both nodes on one database and Redis). */
  secondApp?: App;
  sockets?: number;
  rates: number[];
  targetMs: number;
  chart: string;
  relayRedisUrl?: string;
  rss?: () => number;
}): Promise<BenchResult> {
  const lines: string[] = [];
  const pairCount = Math.floor((options.sockets ?? SOCKETS) / 2);
  const url = await listen(options.app);
  const urls = options.secondApp ? [url, await listen(options.secondApp)] : [url];
  const splitAt = options.secondApp ? pairCount : undefined;
  const { tokens, pairs } = await prepareChat(options.app, url, pairCount);
  if (options.rss) lines.push(`idle (after setup, before sockets): RSS ${options.rss().toFixed(0)} MB`);
  const bares = await Promise.all(urls.map(() => bareRelay(options.relayRedisUrl)));
  let baseline: SweepSeries;
  try {
    baseline = await sweepWith({
      label: `bare Socket.IO relay${options.secondApp ? ', two nodes' : ''}`,
      load: {
        urls: bares.map((bare) => bare.url),
        splitAt,
        mode: 'bare',
        auth: tokens.map((_, i) => ({ user: benchUserId(i + 1) })),
        pairs,
      },
      rates: options.rates,
      targetMs: options.targetMs,
      lines,
    });
  } finally {
    await Promise.all(bares.map((bare) => bare.close()));
  }
  const measured = await sweepWith({
    label: options.secondApp ? 'app, two nodes' : 'app',
    load: { urls, splitAt, mode: 'app', auth: tokens.map((token) => ({ token })), pairs },
    rates: options.rates,
    targetMs: options.targetMs,
    lines,
    rss: options.rss,
  });
  await drain(options.app);
  lines.push(...kneeLines(measured, baseline));
  for (const line of kneeLines(measured, baseline)) console.log(`  … ${options.label}: ${line}`);
  const file = path.join(CHART_DIR, options.chart);
  await renderLatencyChart({
    title: `Messages end to end, ${options.label}`,
    subtitle: `${tokens.length} sockets, ${STEP_SECONDS} s per step; load average ${os.loadavg()[0]?.toFixed(1)} at the end`,
    series: [measured, baseline],
    file,
  });
  lines.push(`chart: ${path.relative(process.cwd(), file)}`);
  return {
    name: `Messages sweep (${options.label}): sender emits → stored → recipient's newMessage, p99 target ${options.targetMs} ms; baseline: bare Socket.IO relay, same sockets and rates`,
    lines,
  };
}

/** Lets the server finish what is queued before it closes: until the message count holds still. */
async function drain(app: App) {
  const count = async () =>
    Number(
      (
        (await app.database.db.execute(sql`select count(*)::int as n from messages`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]?.n,
    );
  for (let last = -1, deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const now = await count();
    if (now === last) break;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** QUALITY 26 as sweeps: embedded (target 1,000 msg/s at p99 ≤ 25 ms); PostgreSQL + Redis (3,000 at ≤ 30 ms). */
export async function benchMessages(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const embedded = await embeddedApp({ profiles: SOCKETS, swipesPerUser: 0 });
  try {
    results.push(
      await benchOne({
        label: 'embedded',
        app: embedded,
        rates: rateSteps(
          Number(process.env.BENCH_MESSAGE_START ?? 100),
          Number(process.env.BENCH_MESSAGE_RATE ?? 1500),
        ),
        targetMs: 25,
        chart: 'messages-embedded.svg',
        rss: processTreeRssMb,
      }),
    );
  } finally {
    await embedded.close();
  }
  if (DATABASE_URL) {
    const scaled = await postgresApp({ profiles: SOCKETS, swipesPerUser: 0 });
    try {
      // Fresh conversations each run, so reruns start from the same state.
      await scaled.database.db.execute(sql`truncate swipes, matches, conversations cascade`);
      results.push(
        await benchOne({
          label: `PostgreSQL${REDIS_URL ? ' + Redis' : ''}`,
          app: scaled,
          rates: rateSteps(
            Number(process.env.BENCH_MESSAGE_START ?? 100),
            Number(process.env.BENCH_MESSAGE_RATE_PG ?? 4000),
          ),
          targetMs: 30,
          chart: 'messages-postgres.svg',
          relayRedisUrl: REDIS_URL,
        }),
      );
    } finally {
      await scaled.close();
    }
  }
  if (DATABASE_URL && REDIS_URL) results.push(await benchTwoNodes());
  return results;
}

/** Two app nodes on one PostgreSQL and one Redis, senders on one, recipients on the other; vs two bare relays on the Redis adapter. */
async function benchTwoNodes(): Promise<BenchResult> {
  const shared = {
    tokenSecret: randomBytes(32).toString('hex'),
    redisKeyPrefix: `entreno-bench:${randomBytes(4).toString('hex')}:`,
  };
  const sockets = Number(process.env.BENCH_TWO_NODE_SOCKETS ?? 1000);
  const first = await postgresApp({ profiles: SOCKETS, swipesPerUser: 0 }, () => {}, shared);
  const second = await postgresApp({ profiles: SOCKETS, swipesPerUser: 0 }, () => {}, shared);
  try {
    await first.database.db.execute(sql`truncate swipes, matches, conversations cascade`);
    return await benchOne({
      label: 'two nodes, PostgreSQL + Redis',
      app: first,
      secondApp: second,
      sockets,
      rates: rateSteps(Number(process.env.BENCH_MESSAGE_START ?? 100), Number(process.env.BENCH_TWO_NODE_RATE ?? 2000)),
      targetMs: 30,
      chart: 'messages-two-nodes.svg',
      relayRedisUrl: REDIS_URL,
    });
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
}
