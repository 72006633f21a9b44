/**
 * `npx tsx bench/prepared-micro.ts`: does a named (prepared) statement win over the same text
 * unnamed, for the write path's new statements (docs/decisions/0057)? On a scratch database of
 * DATABASE_URL's server (default the local test server), seeded with the demo data: the drain's
 * claim over the demo conversations (each with two messages owed), and `record_swipes` batches of
 * 1 and of 16 dislikes (a fresh pair each; deleted by another connection between rounds). One
 * connection runs the measured statements one after another; per statement it prints the client's
 * wall time and the CPU of that connection's PostgreSQL process (/proc, 10 ms ticks), for
 * MICRO_ROUNDS (default 4) alternating rounds of MICRO_RUNS (default 1,000) each. Not a load test.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { openDatabase } from '../src/server/db/client.ts';
import { DRAIN_CLAIM_SQL } from '../src/server/features/chat/delivery-repository.ts';
import { createMemoryPhotoStore } from '../src/server/features/photos/photo-store.ts';
import { seedDemoData } from '../src/server/tools/seed.ts';
import { seedDemoAccountLife } from '../src/server/tools/seed-demo-account.ts';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const RUNS = Number(process.env.MICRO_RUNS ?? 1000);
const ROUNDS = Number(process.env.MICRO_ROUNDS ?? 4);
const TICK_MS = 1000 / 100;

const RECORD =
  'select * from record_swipes($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::timestamptz[])';

const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
};

async function main() {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const name = `writepath_micro_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    const seeding = await openDatabase({ databaseUrl: url.toString(), dataDir: '/tmp/unused' });
    await seedDemoData(seeding.db, { photoStore: createMemoryPhotoStore(), count: 200 });
    await seedDemoAccountLife(seeding.db);
    await seeding.close();

    const client = new pg.Client({ connectionString: url.toString() });
    const helper = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await helper.connect();
    // The scratch database is dropped with force at the end, whatever happened.
    client.on('error', () => {});
    helper.on('error', () => {});
    const pid = Number((await client.query('select pg_backend_pid() as pid')).rows[0].pid);
    await helper.query(`update conversation_participants p set notified_seq = greatest(c.last_seq - 2, 0)
      from conversations c where c.id = p.conversation_id`);
    const conversationIds = (await helper.query('select id from conversations')).rows.map((row) => row.id as string);
    const people = (await helper.query('select user_id from profiles order by user_id')).rows.map(
      (row) => row.user_id as string,
    );
    const swiper = people[0] as string;
    const session = (
      await helper.query(
        `insert into sessions (user_id, expires_at, max_expires_at)
         values ($1, now() + interval '1 day', now() + interval '1 day') returning id`,
        [swiper],
      )
    ).rows[0].id as string;
    const targets = people.slice(1);

    const swipeValues = (size: number, run: number) => {
      const picked = Array.from({ length: size }, (_, i) => targets[(run * size + i) % targets.length] as string);
      return [
        picked.map(() => swiper),
        picked.map(() => session),
        picked,
        picked.map(() => 'dislike'),
        picked.map(() => null),
        picked.map(() => new Date().toISOString()),
      ];
    };
    const cases: {
      label: string;
      text: string;
      values: (run: number) => unknown[];
      per: number;
      after?: () => Promise<unknown>;
    }[] = [
      {
        label: `drain claim (${conversationIds.length} conversations)`,
        text: DRAIN_CLAIM_SQL,
        values: () => [conversationIds],
        per: 1,
      },
      {
        label: 'record_swipes, 1 dislike',
        text: RECORD,
        values: (run) => swipeValues(1, run),
        per: 1,
        after: () => helper.query('delete from swipes where swiper_id = $1', [swiper]),
      },
      {
        label: 'record_swipes, 16 dislikes',
        text: RECORD,
        values: (run) => swipeValues(16, run),
        per: 16,
        after: () => helper.query('delete from swipes where swiper_id = $1', [swiper]),
      },
    ];
    const lines = [
      `prepared-micro: ${RUNS} runs a round, ${ROUNDS} rounds; load ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    ];
    for (const [index, one] of cases.entries()) {
      const totals = { named: { wall: 0, cpu: 0, runs: 0 }, unnamed: { wall: 0, cpu: 0, runs: 0 } };
      for (let round = 0; round < ROUNDS * 2; round += 1) {
        const kind = round % 2 === 0 ? 'named' : 'unnamed';
        const ticks = cpuTicks(pid);
        const started = performance.now();
        for (let run = 0; run < RUNS; run += 1) {
          const values = one.values(run % Math.max(1, Math.floor(targets.length / one.per)));
          if (kind === 'named') await client.query({ name: `micro_${index}`, text: one.text, values });
          else await client.query({ text: one.text, values });
          if (one.after && (run + 1) % Math.max(1, Math.floor(targets.length / one.per)) === 0) await one.after();
        }
        totals[kind].wall += performance.now() - started;
        totals[kind].cpu += (cpuTicks(pid) - ticks) * TICK_MS;
        totals[kind].runs += RUNS;
        await one.after?.();
      }
      const per = (kind: 'named' | 'unnamed') =>
        `${(totals[kind].wall / totals[kind].runs).toFixed(3)} ms wall, ${(totals[kind].cpu / totals[kind].runs).toFixed(3)} ms PostgreSQL CPU`;
      lines.push(`${one.label}: named ${per('named')}; unnamed ${per('unnamed')} (per statement)`);
    }
    lines.push(
      `load at the end ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    );
    console.log(lines.join('\n'));
    await client.end();
    await helper.end();
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

await main();
