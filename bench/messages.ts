import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Server } from 'socket.io';
import type { App } from '../src/server/app.ts';
import type { ChatLoad, ChatLoadResult, ChatPair } from './chat-load-worker.ts';
import { DATABASE_URL, listen, pgliteApp, postgresApp, REDIS_URL } from './data/datasets.ts';
import { benchUserId } from './data/generate.ts';
import { achieved, type BenchResult, compareLines } from './load.ts';
import { summarize } from './stats.ts';
import { runWorker } from './worker.ts';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

/** A bare Socket.IO relay: `sendMessage` → `newMessage` to the recipient's room, with an ack. */
async function bareRelay() {
  const http = createServer();
  const io = new Server(http, { transports: ['websocket'] });
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
    close: () => new Promise<void>((resolve) => io.close(() => resolve())),
  };
}

/** Users 1…SOCKETS with sessions; pairs (i, i + pairs) matched through the swipe API. */
async function prepare(app: App, url: string, pairCount: number) {
  const tokens: string[] = [];
  for (let n = 1; n <= SOCKETS; n += 1) {
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

async function run(label: string, app: App, rate: number): Promise<BenchResult> {
  // Each user sends about once a second (the chat allows 30 per 10 s).
  const pairCount = Math.min(Math.floor(SOCKETS / 2), Math.max(1, Math.round(rate / 2)));
  const url = await listen(app);
  const { tokens, pairs } = await prepare(app, url, pairCount);
  const count = rate * SECONDS;
  const warmup = rate * 2;

  const bare = await bareRelay();
  const baseline = await runWorker<ChatLoadResult>('./chat-load-worker.ts', {
    url: bare.url,
    mode: 'bare',
    auth: tokens.map((_, index) => ({ user: benchUserId(index + 1) })),
    pairs,
    rate,
    warmup,
    count,
  } satisfies ChatLoad);
  await bare.close();
  const measured = await runWorker<ChatLoadResult>('./chat-load-worker.ts', {
    url,
    mode: 'app',
    auth: tokens.map((token) => ({ token })),
    pairs,
    rate,
    warmup,
    count,
  } satisfies ChatLoad);
  // Let the server finish what is queued (an overloaded run leaves sends in flight) before it
  // closes: until the message count holds still for 2 s, at most a minute.
  const countMessages = async () =>
    Number(
      (
        (await app.database.db.execute(sql`select count(*)::int as n from messages`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]?.n,
    );
  for (let last = -1, deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const now = await countMessages();
    if (now === last) break;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  const m = summarize(measured.latenciesMs);
  const b = summarize(baseline.latenciesMs);
  const target = label.startsWith('embedded') ? 25 : 30;
  return {
    name: `Messages end to end (${label}): ${SOCKETS} connected sockets, ${pairs.length} conversations, ${rate} msg/s open loop for ${SECONDS} s, sender emits → stored → recipient receives (baseline: bare Socket.IO relay, same sockets and rate)`,
    lines: [
      ...compareLines(m, b),
      `errors ${measured.errors} (baseline ${baseline.errors})${measured.firstError ? ` first: ${measured.firstError}` : ''}; ${achieved(measured, count)} (baseline ${achieved(baseline, count)}); ${SOCKETS} sockets connected in ${(measured.connectMs / 1000).toFixed(1)} s`,
      `target p99 ≤ ${target} ms and ≤ 3x baseline: ${!measured.overloaded && m.p99 <= target && m.p99 <= 3 * b.p99 && measured.errors === 0 ? 'MET' : 'NOT MET'}`,
    ],
  };
}

/** QUALITY 26: embedded (PGlite) at 1,000 msg/s; PostgreSQL + Redis at 3,000 msg/s when configured. */
export async function benchMessages(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const embedded = await pgliteApp({ profiles: SOCKETS, swipesPerUser: 0 });
  try {
    results.push(await run('embedded PGlite', embedded, Number(process.env.BENCH_MESSAGE_RATE ?? 1000)));
  } finally {
    await embedded.close();
  }
  if (DATABASE_URL) {
    // A data set of its own (swipes 0): the pairs' swipes and messages are added to it each run.
    const scaled = await postgresApp({ profiles: SOCKETS, swipesPerUser: 0 });
    try {
      // Fresh conversations each run, so reruns start from the same state.
      await scaled.database.db.execute(sql`truncate swipes, matches, conversations cascade`);
      results.push(
        await run(
          `PostgreSQL${REDIS_URL ? ' + Redis adapter' : ''}`,
          scaled,
          Number(process.env.BENCH_MESSAGE_RATE_PG ?? 3000),
        ),
      );
    } finally {
      await scaled.close();
    }
  }
  return results;
}
