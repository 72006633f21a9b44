// @setup embedded
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/client.ts';
import { seedDemoData } from '../../src/server/tools/seed.ts';
import { seedDemoAccountLife } from '../../src/server/tools/seed-demo-account.ts';
import { unreadTotal } from '../../src/server/features/chat/conversation-repository.ts';
import { createMemoryPhotoStore } from '../../src/server/features/photos/photo-store.ts';
import { createTestDatabase } from '../helpers/test-app.ts';

/** `when` of migration 0017 in meta/_journal.json: deleting its row makes the migrator run it again. */
const MIGRATION_0017_WHEN = 1795700500000;

const rows = async <T>(db: Database, query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * The demo data as the model before decision 0041 held it: per-message `read_at`/`delivered_at`,
 * participants' `unread_count`, the change log and `chat_deliveries` (the last message of every
 * other conversation still owed, as a crash right after its ack leaves it). Test-only: it puts back
 * the tables and columns migration 0017 drops, from the cursors the seed wrote.
 */
async function backToTheOldModel(db: Database) {
  await db.execute(
    sql.raw(`
    alter table messages add column delivered_at timestamptz, add column read_at timestamptz;
    update messages m set
      read_at = case when p.last_read_seq >= m.seq then m.created_at end,
      delivered_at = case when greatest(p.delivered_seq, p.last_read_seq) >= m.seq then m.created_at end
    from conversation_participants p where p.conversation_id = m.conversation_id and p.user_id = m.receiver_id;
    create index messages_unread_idx on messages (receiver_id, conversation_id) where read_at is null;
    alter table conversation_participants add column unread_count integer not null default 0;
    update conversation_participants p set unread_count = (select count(*) from messages m
      where m.conversation_id = p.conversation_id and m.receiver_id = p.user_id and m.read_at is null);
    create table chat_deliveries (message_id uuid primary key references messages(id) on delete cascade,
      created_at timestamptz not null default now(), claimed_at timestamptz);
    insert into chat_deliveries (message_id)
      select c.last_message_id from conversations c
      where c.last_message_id is not null and (select count(*) from conversations o where o.id < c.id) % 2 = 0;
    create table sync_counters (user_id uuid primary key, last_change bigint not null default 0);
    create table user_changes (user_id uuid not null, change_seq bigint not null, kind text not null,
      entity_id uuid not null, created_at timestamptz not null default now(), primary key (user_id, change_seq));
    alter table conversation_participants drop column delivered_seq, drop column notified_seq,
      drop column changed_xid, drop column receipt_xid;
    alter table messages drop column xid;
    alter table conversations drop column kind, drop column changed_xid;
    delete from conversation_participants p
      where not exists (select 1 from messages m where m.conversation_id = p.conversation_id);
  `),
  );
  // The migrator runs what is newer than the newest row: 0017's row and every later one go (the
  // later migrations are re-runnable).
  await db.execute(sql`delete from drizzle.__drizzle_migrations where created_at >= ${MIGRATION_0017_WHEN}`);
}

type Counts = {
  messages: number;
  unreadByMember: Record<string, number>;
  totals: Record<string, number>;
  read: number;
  delivered: number;
  owed: number;
};

/** The counts in the old model, from its own columns (hidden and blocked left out of totals, as it did). */
async function oldCounts(db: Database): Promise<Counts> {
  const members = await rows<{ key: string; n: number; hidden: boolean; blocked: boolean; user_id: string }>(
    db,
    sql`select c.id || ':' || u.id as key, u.id as user_id,
      (select count(*)::int from messages m where m.conversation_id = c.id and m.receiver_id = u.id and m.read_at is null) as n,
      coalesce(p.is_hidden, false) as hidden,
      exists (select 1 from blocks b where (b.blocker_id = c.user_a and b.blocked_id = c.user_b)
        or (b.blocker_id = c.user_b and b.blocked_id = c.user_a)) as blocked
    from conversations c cross join lateral (values (c.user_a), (c.user_b)) as u(id)
    left join conversation_participants p on p.conversation_id = c.id and p.user_id = u.id`,
  );
  const totals: Record<string, number> = {};
  for (const member of members) {
    totals[member.user_id] = (totals[member.user_id] ?? 0) + (member.hidden || member.blocked ? 0 : Number(member.n));
  }
  const [summary] = await rows<{ messages: number; read: number; delivered: number; owed: number }>(
    db,
    sql`select count(*)::int as messages, count(read_at)::int as read,
      count(coalesce(delivered_at, read_at))::int as delivered,
      (select count(*)::int from chat_deliveries) as owed from messages`,
  );
  return {
    messages: Number(summary?.messages),
    unreadByMember: Object.fromEntries(members.map((member) => [member.key, Number(member.n)])),
    totals,
    read: Number(summary?.read),
    delivered: Number(summary?.delivered),
    owed: Number(summary?.owed),
  };
}

/** The same counts derived from the cursors (decision 0041), through the app's own queries. */
async function newCounts(db: Database): Promise<Counts> {
  const members = await rows<{ key: string; n: number; user_id: string }>(
    db,
    sql`select c.id || ':' || p.user_id as key, p.user_id,
      (select count(*)::int from messages m where m.conversation_id = c.id and m.seq > p.last_read_seq
        and m.sender_id <> p.user_id) as n
    from conversations c join conversation_participants p on p.conversation_id = c.id`,
  );
  const totals: Record<string, number> = {};
  for (const userId of new Set(members.map((member) => member.user_id))) totals[userId] = await unreadTotal(db, userId);
  const [summary] = await rows<{ messages: number; read: number; delivered: number; owed: number }>(
    db,
    sql`select count(*)::int as messages,
      count(*) filter (where r.last_read_seq >= m.seq)::int as read,
      count(*) filter (where greatest(r.delivered_seq, r.last_read_seq) >= m.seq)::int as delivered,
      count(*) filter (where m.seq > r.notified_seq)::int as owed
    from messages m join conversation_participants r on r.conversation_id = m.conversation_id and r.user_id = m.receiver_id`,
  );
  return {
    messages: Number(summary?.messages),
    unreadByMember: Object.fromEntries(members.map((member) => [member.key, Number(member.n)])),
    totals,
    read: Number(summary?.read),
    delivered: Number(summary?.delivered),
    owed: Number(summary?.owed),
  };
}

describe('migration 0017: a message is one row, every count is a cursor (decision 0041)', { timeout: 120_000 }, () => {
  it('moves the demo data to cursors with every count equal before and after', async () => {
    const scratch = await createTestDatabase();
    try {
      const seeding = await openDatabase({ databaseUrl: scratch.url, dataDir: '/tmp/unused' });
      try {
        await seedDemoData(seeding.db, { photoStore: createMemoryPhotoStore(), count: 12 });
        expect(await seedDemoAccountLife(seeding.db)).toMatch(/4 matches/);
        await backToTheOldModel(seeding.db);
      } finally {
        await seeding.close();
      }
      // The old model's counts, then the migration (run by the next open), then the new model's.
      const old = await openOld(scratch.url);
      const before = await oldCounts(old.db);
      await old.close();
      expect(before.messages).toBeGreaterThan(10);
      expect(Object.values(before.totals).some((n) => n > 0)).toBe(true);
      expect(before.owed).toBeGreaterThan(0);
      expect(before.read).toBeLessThan(before.messages);

      const migrated = await openDatabase({ databaseUrl: scratch.url, dataDir: '/tmp/unused' });
      try {
        const after = await newCounts(migrated.db);
        expect(after).toEqual(before);
        // Every member has its row now (the old model made them lazily).
        const [missing] = await rows<{ n: number }>(
          migrated.db,
          sql`select count(*)::int as n from conversations c cross join lateral (values (c.user_a), (c.user_b)) as u(id)
            where not exists (select 1 from conversation_participants p where p.conversation_id = c.id and p.user_id = u.id)`,
        );
        expect(Number(missing?.n)).toBe(0);
        const gone = await rows<{ name: string }>(
          migrated.db,
          sql`select table_name as name from information_schema.tables
            where table_name in ('chat_deliveries', 'user_changes', 'sync_counters')`,
        );
        expect(gone).toEqual([]);
      } finally {
        await migrated.close();
      }
    } finally {
      await scratch.drop();
    }
  });
});

/** The old-model database as it is, without migrating it (a plain pool). */
async function openOld(url: string) {
  const pg = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.default.Pool({ connectionString: url, max: 2 });
  return { db: drizzle(pool) as unknown as Database, close: () => pool.end() };
}
