/**
 * `npm run bench -- message-cost`: what one message costs the server, at a rate the app holds
 * (BENCH_COST_RATE, default 200/s, for BENCH_COST_SECONDS, default 10, with BENCH_COST_SOCKETS,
 * default 1,000), for same-run A/B of two checkouts on a shared host, where latency moves with
 * the load but work per message much less. Prints, per message: the statements by name (the
 * after-ack work included: the run waits for the delivery drain), the CPU of the server's main
 * thread (the clients run in a worker thread) and of the PostgreSQL backends, the server's socket
 * writes (system calls) to the WebSockets and to the database, and the latency until the
 * recipient's `newMessage`; with BENCH_COST_SAMPLING=1 also a CPU profile by function. Two
 * phases in one run, on the same sockets: messages in two-member conversations (matches), then in
 * BENCH_COST_GROUP-member group conversations (default 8, docs/decisions/0056; 0 skips them).
 * The embedded database by default; BENCH_COST_DB=postgres: DATABASE_URL (and REDIS_URL).
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import net from 'node:net';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { App } from '../src/server/app.ts';
import type { ChatLoad, ChatLoadResult, ChatPair, ChatReady, ChatStep } from './chat-load-worker.ts';
import { describeBatchSizes, takeBatchSizes } from '../src/server/infra/batcher.ts';
import { embeddedApp, listen, postgresApp, rows } from './data/datasets.ts';
import type { BenchResult } from './load.ts';
import { prepareChat } from './messages.ts';
import {
  backendCpu,
  type CpuProfile,
  instrumentPool,
  mainThreadCpuMs,
  summarizeProfile,
  startProfiler,
} from './server-cost.ts';
import { summarize } from './stats.ts';
import { startWorker } from './worker.ts';

const SOCKETS = Number(process.env.BENCH_COST_SOCKETS ?? 1000);
const RATE = Number(process.env.BENCH_COST_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_COST_SECONDS ?? 10);
const SAMPLING = process.env.BENCH_COST_SAMPLING === '1';
const ON_POSTGRES = process.env.BENCH_COST_DB === 'postgres';
const GROUP_SIZE = Number(process.env.BENCH_COST_GROUP ?? 8);

const load = () =>
  `load ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;

/** Until no message is owed (above its recipient's notified_seq: every notification written). */
async function settle(app: App) {
  for (let tries = 0; tries < 100; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await app.chat.whenDelivered();
    const [left] = await rows<{ n: number }>(
      app,
      sql`select count(*)::int as n from messages m join conversation_participants p
        on p.conversation_id = m.conversation_id and coalesce(p.user_id = m.receiver_id, p.user_id <> m.sender_id)
        and p.left_at is null where m.seq > p.notified_seq`,
    );
    if (left?.n === 0) return;
  }
}

/**
 * Counts the server's socket writes (each one `write`/`writev` system call): the WebSocket
 * connections (TCP) apart from the embedded database's (a Unix socket). The clients run in a
 * worker thread, whose `net` is its own, so only the server's writes are counted.
 */
function countSocketWrites() {
  const counts = { tcp: 0, unix: 0 };
  let isOn = false;
  const proto = net.Socket.prototype as unknown as { _writeGeneric: (...args: unknown[]) => unknown };
  const original = proto._writeGeneric;
  proto._writeGeneric = function (this: net.Socket, ...args: unknown[]) {
    if (isOn) counts[this.remoteAddress === undefined ? 'unix' : 'tcp'] += 1;
    return original.apply(this, args);
  };
  return {
    start() {
      counts.tcp = 0;
      counts.unix = 0;
      isOn = true;
    },
    stop() {
      isOn = false;
      return { ...counts };
    },
    restore() {
      proto._writeGeneric = original;
    },
  };
}

/**
 * Groups of `size` of the pairs' users (consecutive socket indexes), each made through the chat
 * module's API; as pairs for the worker: its first two members send to each other in it.
 */
async function makeGroups(app: App, pairs: readonly ChatPair[], size: number): Promise<ChatPair[]> {
  const users = pairs
    .flatMap((pair) => [
      { index: pair.a, userId: pair.aUser },
      { index: pair.b, userId: pair.bUser },
    ])
    .sort((x, y) => x.index - y.index);
  const groups: ChatPair[] = [];
  for (let start = 0; start + size <= users.length; start += size) {
    const members = users.slice(start, start + size);
    const [owner, second] = members as [(typeof members)[number], (typeof members)[number]];
    const { conversationId } = await app.chat.groups.createGroupConversation({
      ownerId: owner.userId,
      title: `Bench ${start / size + 1}`,
    });
    for (const member of members.slice(1)) await app.chat.groups.addGroupMember(conversationId, member.userId);
    groups.push({ a: owner.index, b: second.index, conversationId, aUser: owner.userId, bUser: second.userId });
  }
  return groups;
}

export async function benchMessageCost(): Promise<BenchResult> {
  const scale = { profiles: SOCKETS, swipesPerUser: 0 };
  const pool = instrumentPool();
  const writes = countSocketWrites();
  const app = ON_POSTGRES ? await postgresApp(scale) : await embeddedApp(scale);
  const lines: string[] = [];
  try {
    if (ON_POSTGRES) await app.database.db.execute(sql`truncate swipes, matches, conversations cascade`);
    const url = await listen(app);
    const { tokens, pairs } = await prepareChat(app, url, Math.floor(SOCKETS / 2));
    console.log(`  … ${pairs.length} pairs matched (${load()})`);
    const groups = GROUP_SIZE >= 2 ? await makeGroups(app, pairs, GROUP_SIZE) : [];
    if (groups.length > 0) console.log(`  … ${groups.length} groups of ${GROUP_SIZE} made (${load()})`);
    const worker = await startWorker<ChatReady, ChatStep, ChatLoadResult>('./chat-load-worker.ts', {
      urls: [url],
      mode: 'app',
      auth: tokens.map((token) => ({ token })),
      pairs,
      groups,
    } satisfies ChatLoad);
    console.log(`  … ${tokens.length} sockets connected (${load()})`);
    const phases = [
      { label: '2 members (matches)', inGroups: false, conversations: pairs.length },
      ...(groups.length > 0
        ? [{ label: `${GROUP_SIZE} members (groups)`, inGroups: true, conversations: groups.length }]
        : []),
    ];
    try {
      for (const phase of phases) {
        lines.push(`— ${phase.label}:`);
        // Unmeasured: every conversation used once (membership cached, statements prepared).
        await worker.request({
          rate: RATE,
          warmup: 0,
          count: Math.max(phase.conversations, RATE * 2),
          inGroups: phase.inGroups,
        });
        await settle(app);
        console.log(`  … ${phase.label}: warmed up (${load()})`);
        const session = new Session();
        session.connect();
        if (SAMPLING) {
          await startProfiler(session);
        }
        // The same span with nothing sent: timers, pings and the database's own upkeep, subtracted below.
        const idleMain = await mainThreadCpuMs();
        const idleBackends = backendCpu(
          ON_POSTGRES ? { database: new URL(app.config.databaseUrl ?? 'x:///').pathname.slice(1) } : { embedded: true },
        );
        await idleBackends.start();
        await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
        const idleMainMs = (await mainThreadCpuMs()) - idleMain;
        const idleBackendMs = await idleBackends.stop();
        const backends = backendCpu(
          ON_POSTGRES ? { database: new URL(app.config.databaseUrl ?? 'x:///').pathname.slice(1) } : { embedded: true },
        );
        await backends.start();
        pool.start();
        writes.start();
        const loadBefore = load();
        const mainBefore = await mainThreadCpuMs();
        takeBatchSizes();
        const count = RATE * SECONDS;
        const result = await worker.request({ rate: RATE, warmup: 0, count, inGroups: phase.inGroups });
        await settle(app);
        const mainMs = (await mainThreadCpuMs()) - mainBefore;
        const statements = pool.stop();
        const written = writes.stop();
        const backendMs = await backends.stop();
        const profile = SAMPLING
          ? ((await session.post('Profiler.stop')) as { profile: CpuProfile }).profile
          : undefined;
        session.disconnect();
        const latency = summarize(result.latenciesMs);
        const sent = result.sent;
        let total = 0;
        for (const list of statements.values()) total += list.length;
        lines.push(
          `${ON_POSTGRES ? 'PostgreSQL' : 'embedded'}, ${tokens.length} sockets, ${RATE}/s for ${SECONDS} s: ${sent} sent, ${result.latenciesMs.length} delivered${result.overloaded ? ', OVERLOADED' : ''}, ${result.errors} errors (${loadBefore} → ${load()})`,
          `latency to newMessage: p50 ${latency.p50.toFixed(2)} ms p95 ${latency.p95.toFixed(2)} ms p99 ${latency.p99.toFixed(2)} ms`,
          `per message: main thread ${(mainMs / sent).toFixed(3)} ms CPU (${((mainMs - idleMainMs) / sent).toFixed(3)} beyond idle); PostgreSQL ${(backendMs / sent).toFixed(3)} ms CPU (${((backendMs - idleBackendMs) / sent).toFixed(3)} beyond idle); ${(total / sent).toFixed(2)} statements`,
          `socket writes (system calls) per message: ${(written.tcp / sent).toFixed(2)} to TCP (the WebSockets${ON_POSTGRES ? ', PostgreSQL, Redis' : ''}), ${(written.unix / sent).toFixed(2)} to Unix sockets (${ON_POSTGRES ? 'none expected' : 'the embedded PostgreSQL'})`,
          `idle, the same ${SECONDS} s with nothing sent: main thread ${idleMainMs} ms, PostgreSQL ${idleBackendMs} ms CPU`,
          `send batches (count×size): ${describeBatchSizes(takeBatchSizes().get(phase.inGroups ? 'chat_group_sends' : 'chat_sends') ?? new Map<number, number>())}`,
        );
        for (const [key, list] of [...statements].sort((a, b) => b[1].length - a[1].length).slice(0, 12)) {
          const round = summarize(list);
          lines.push(
            `  ${(list.length / sent).toFixed(3)}/msg  p50 ${round.p50.toFixed(2)} ms  p99 ${round.p99.toFixed(2)} ms  ${key}`,
          );
        }
        if (profile) {
          const file = `/tmp/message-cost-${process.pid}.cpuprofile`;
          await writeFile(file, JSON.stringify(profile));
          const summary = summarizeProfile(profile);
          const perMessage = (ms: number) => `${((ms / sent) * 1000).toFixed(0)} µs/msg`;
          lines.push(`CPU profile (${file}): busy ${perMessage(summary.total - summary.idle)}`);
          lines.push('  self:');
          for (const [name, ms] of summary.self.slice(0, 25)) lines.push(`    ${perMessage(ms)}  ${name}`);
          lines.push('  inclusive:');
          for (const [name, ms] of summary.inclusive.slice(0, 40)) lines.push(`    ${perMessage(ms)}  ${name}`);
          lines.push('  by module:');
          for (const [name, ms] of summary.modules) lines.push(`    ${perMessage(ms)}  ${name}`);
        }
      }
    } finally {
      await worker.close();
    }
  } finally {
    pool.restore();
    writes.restore();
    await app.close();
  }
  return { name: 'Message cost: statements, Node and PostgreSQL CPU per message at a held rate', lines };
}
