// @setup scaled — open sessions across two nodes
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenSession, OpenSessionUpdatedEvent } from '#shared/open-sessions/open-session-schemas';
import { sql } from 'drizzle-orm';
import { OPEN_SESSION_ATTENDANCE_REMINDER_DELAY_MS } from '../../src/server/features/open-sessions/open-session-notices.ts';
import { nextEventMatching } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { openSessionBody } from '../helpers/open-session-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startSecondNode, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, DAY, HOUR, MINUTE } from '../helpers/test-clock.ts';

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

/** «Entrenos abiertos» on two nodes sharing PostgreSQL and Redis (issue #35, docs/decisions/0055): places, reminders. */
describe.runIf(isScaled)('open sessions across two nodes', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let nodeA: TestApp;
  let nodeB: TestApp;
  let apiA: DiscoveryApi;
  let apiB: DiscoveryApi;

  beforeAll(async () => {
    nodeA = await startTestApp({}, { dependencies: { clock } });
    nodeB = await startSecondNode(nodeA, { dependencies: { clock } });
    apiA = createDiscoveryApi(nodeA);
    apiB = createDiscoveryApi(nodeB);
  });
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
  });

  const reminders = async (user: TestUser) => {
    const listed = await apiA.get('/notifications?type=reminder', user.token);
    return ((listed.body.notifications ?? []) as { title: string }[]).filter((n) => n.title === 'Entreno abierto')
      .length;
  };

  it('the last place goes to one of two joins racing on two nodes; the host hears it on the other node; one reminder each', async () => {
    const host = await apiA.userWithProfile({}, 'Nora');
    const first = await apiA.userWithProfile({}, 'Olga');
    const second = await apiA.userWithProfile({}, 'Paula');
    const published = await apiA.post(
      '/open-sessions',
      {
        clientId: randomUUID(),
        gymName: 'Altafit Argüelles',
        startsAt: new Date(clock.now().getTime() + DAY).toISOString(),
        durationMin: 60,
        activity: 'Remo',
        level: 'all',
        places: 1,
        visibility: 'nearby',
        approval: 'first',
      },
      host.token,
    );
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const session = published.body.session as OpenSession;

    const socket = await connectSocket(nodeA, { token: host.token });
    try {
      const heard = nextEventMatching<OpenSessionUpdatedEvent>(
        socket,
        'openSessionUpdated',
        (event) => event.sessionId === session._id,
      );
      const [throughA, throughB] = await Promise.all([
        apiA.post(`/open-sessions/${session._id}/join`, { clientId: randomUUID() }, first.token),
        apiB.post(`/open-sessions/${session._id}/join`, { clientId: randomUUID() }, second.token),
      ]);
      expect([throughA.status, throughB.status].sort()).toEqual([200, 409]);
      const refused = throughA.status === 409 ? throughA : throughB;
      expect(refused.body.message).toBe('Completo');
      expect((await heard).sessionId).toBe(session._id);
    } finally {
      socket.close();
    }
    const seen = await apiB.get(`/open-sessions/${session._id}`, host.token);
    expect(seen.body.session).toMatchObject({ taken: 1, isFull: true });

    clock.set(new Date(Date.parse(session.startsAt) - 2 * HOUR + MINUTE));
    const passes = await Promise.all(
      Array.from({ length: 8 }, (_, index) => (index % 2 ? nodeA : nodeB).openSessions.runDueReminders()),
    );
    expect(passes.reduce((sum, sent) => sum + sent, 0)).toBe(2);
    expect(await reminders(host)).toBe(1);
    const joined = throughWhom(await apiA.get(`/open-sessions/${session._id}/members`, host.token), [first, second]);
    expect(await reminders(joined)).toBe(1);
  });

  it('«¿Quién vino?» an hour after the end: passes racing on two nodes ask each one who marked nobody once', async () => {
    const host = await apiA.userWithProfile({}, 'Rosa');
    const sara = await apiA.userWithProfile({}, 'Sara');
    const tere = await apiA.userWithProfile({}, 'Tere');
    const published = await apiA.post('/open-sessions', openSessionBody(clock.now(), { places: 3 }), host.token);
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const session = published.body.session as OpenSession;
    for (const user of [sara, tere]) {
      expect(
        (await apiB.post(`/open-sessions/${session._id}/join`, { clientId: randomUUID() }, user.token)).status,
      ).toBe(200);
    }
    const endsAt = Date.parse(session.startsAt) + session.durationMin * MINUTE;
    clock.set(new Date(endsAt + MINUTE));
    const marked = await apiB.post(
      `/open-sessions/${session._id}/attendance`,
      { clientId: randomUUID(), marks: [{ userId: host.userId, came: true }] },
      sara.token,
    );
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);

    clock.set(new Date(endsAt + OPEN_SESSION_ATTENDANCE_REMINDER_DELAY_MS + MINUTE));
    const passes = await Promise.all(
      Array.from({ length: 8 }, (_, index) => (index % 2 ? nodeA : nodeB).openSessions.runDueAttendanceReminders()),
    );
    const sent = passes.reduce((sum, count) => sum + count, 0);
    // Every send made one row (a second send of one reminder would collapse into the first's row).
    const rows = (await nodeA.database.db.execute(
      sql`select count(*)::int as n from notifications where title = '¿Quién vino?'`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0]?.n).toBe(sent);
    const asked = async (user: TestUser) => {
      const listed = await apiB.get('/notifications?type=reminder', user.token);
      return ((listed.body.notifications ?? []) as { title: string }[]).filter((n) => n.title === '¿Quién vino?')
        .length;
    };
    expect([await asked(host), await asked(sara), await asked(tere)]).toEqual([1, 0, 1]);
  });
});

/** The one of `users` the host's member list shows as approved. */
function throughWhom(members: { body: Record<string, unknown> }, users: TestUser[]): TestUser {
  const approved = (members.body.members as { userId: string; state: string }[]).find((m) => m.state === 'approved');
  const user = users.find((candidate) => candidate.userId === approved?.userId);
  if (!user) throw new Error('no approved member');
  return user;
}
