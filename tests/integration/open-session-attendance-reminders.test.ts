// @setup embedded
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_SESSION_ATTENDANCE_REMINDER_DELAY_MS as DELAY } from '../../src/server/features/open-sessions/open-session-notices.ts';
import { endOf } from '#shared/quedadas/quedada-state';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { createOpenSessionApi, type OpenSessionApi } from '../helpers/open-session-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, DAY, MINUTE } from '../helpers/test-clock.ts';

/**
 * The «¿Quién vino?» reminder (issue #35, docs/decisions/0055, amendment of session 16): an hour
 * after a held session's end, once, to each person in it who has marked nobody; passes racing on
 * the database send it once. A file of its own: every ended session of the database is due.
 */
describe('open sessions: the «¿Quién vino?» reminder', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;
  let sessions: OpenSessionApi;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createDiscoveryApi(app);
    sessions = createOpenSessionApi(api, () => clock.now(), { places: 4, approval: 'host' });
  });
  afterAll(async () => {
    await app?.close();
  });

  const heldWith = async (host: TestUser, members: TestUser[]) => {
    const session = await sessions.publish(host);
    await sessions.admit(session, host, members);
    return session;
  };
  const asked = async (user: TestUser) =>
    (
      ((await api.get('/notifications?type=reminder', user.token)).body.notifications ?? []) as { title: string }[]
    ).filter((n) => n.title === '¿Quién vino?').length;
  /** Passes racing on the database, as several nodes' runners would: what they sent in all. */
  const racingPasses = async (count = 6) =>
    (await Promise.all(Array.from({ length: count }, () => app.openSessions.runDueAttendanceReminders()))).reduce(
      (sum, sent) => sum + sent,
      0,
    );

  it('an hour after the end, once, to whoever in it has marked nobody', async () => {
    const host = await api.userWithProfile({}, 'Gema');
    const [ana, bea] = [await api.userWithProfile({}, 'Ana'), await api.userWithProfile({}, 'Bea')];
    const asker = await api.userWithProfile({}, 'Rita');
    const loneHost = await api.userWithProfile({}, 'Lara');
    const [cancelHost, cancelMember] = [await api.userWithProfile({}, 'Nerea'), await api.userWithProfile({}, 'Olga')];
    const session = await heldWith(host, [ana, bea]);
    expect((await sessions.write(asker, `${session._id}/join`)).status).toBe(200);
    // Nobody else in it: nothing to mark. Cancelled: nothing happened.
    const lone = await sessions.publish(loneHost);
    const cancelled = await heldWith(cancelHost, [cancelMember]);
    expect((await sessions.write(cancelHost, `${cancelled._id}/cancel`)).status).toBe(200);
    expect(Math.max(endOf(lone), endOf(cancelled))).toBe(endOf(session));

    // Ana marks straight after the end; the others do not.
    clock.set(new Date(endOf(session) + MINUTE));
    const marked = await sessions.write(ana, `${session._id}/attendance`, {
      marks: [{ userId: host.userId, came: true }],
    });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    clock.set(new Date(endOf(session) + DELAY - MINUTE));
    expect(await racingPasses()).toBe(0);

    clock.set(new Date(endOf(session) + DELAY + MINUTE));
    expect(await racingPasses()).toBe(2);
    expect(await racingPasses()).toBe(0);
    for (const user of [host, bea]) expect(await asked(user)).toBe(1);
    for (const user of [ana, asker, loneHost, cancelHost, cancelMember]) expect(await asked(user)).toBe(0);
    const [notice] = ((await api.get('/notifications?type=reminder', bea.token)).body.notifications ?? []) as {
      body: string;
    }[];
    expect(notice?.body).toBe('Cuéntanos quién vino al entreno de Pierna en Altafit Argüelles.');
    // Exactly once: one in-app row per person, as the passes counted.
    const rows = (await app.database.db.execute(
      sql`select count(*)::int as n from notifications where title = '¿Quién vino?'`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0]?.n).toBe(2);
  });

  it('a claim whose node died is taken again once its lease runs out; past the 7 days nobody is asked', async () => {
    const host = await api.userWithProfile({}, 'Pilar');
    const member = await api.userWithProfile({}, 'Queralt');
    const session = await heldWith(host, [member]);
    // A node claims it and dies before sending: the lease keeps others off it until it runs out.
    clock.set(new Date(endOf(session) + DELAY + MINUTE));
    const claimed = await app.database.db.execute(sql`update open_sessions
      set attendance_reminder_claimed_until = ${new Date(clock.now().getTime() + 5 * MINUTE)}::timestamptz,
        attendance_reminder_claim_token = ${randomUUID()}::uuid
      where id = ${session._id}::uuid returning 1`);
    expect((claimed as unknown as { rows: unknown[] }).rows).toHaveLength(1);
    expect(await racingPasses()).toBe(0);
    clock.set(new Date(clock.now().getTime() + 6 * MINUTE));
    expect(await racingPasses()).toBe(2);
    for (const user of [host, member]) expect(await asked(user)).toBe(1);

    // A session nobody's runner reached within the 7 days of marks: done, and nobody asked.
    const late = await heldWith(host, [member]);
    clock.set(new Date(endOf(late) + 8 * DAY));
    expect(await racingPasses()).toBe(0);
    const done = (await app.database.db.execute(
      sql`select attendance_reminder_done_at is not null as done from open_sessions where id = ${late._id}::uuid`,
    )) as unknown as { rows: { done: boolean }[] };
    expect(done.rows[0]?.done).toBe(true);
    for (const user of [host, member]) expect(await asked(user)).toBe(1);
  });
});
