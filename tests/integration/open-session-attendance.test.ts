// @setup embedded
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTENDANCE_MESSAGES as A, type Attendance, nextWeeklyStart } from '#shared/open-sessions/open-session-after';
import { OPEN_SESSION_MESSAGES as M, type OpenSession } from '#shared/open-sessions/open-session-schemas';
import { instantToMadridLocal } from '#shared/quedadas/quedada-time';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { createOpenSessionApi, type OpenSessionApi } from '../helpers/open-session-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, DAY, HOUR, MINUTE } from '../helpers/test-clock.ts';

/**
 * After an open session (issue #35, docs/decisions/0055, amendment of session 15): «¿Quién vino?»
 * — who may mark whom and when, replays, what the marks add to reliability — and «Repetir la
 * próxima semana». The clock only moves forward; every test publishes its own sessions from now.
 */
describe('open sessions: after the session', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;
  let sessions: OpenSessionApi;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createDiscoveryApi(app);
    sessions = createOpenSessionApi(api, () => clock.now(), { places: 4, note: 'Traed toalla', approval: 'host' });
  });
  afterAll(async () => {
    await app?.close();
  });

  const barcelona = { location: { latitude: 41.3874, longitude: 2.1686, city: 'Barcelona' } };
  const mark = (user: TestUser, session: OpenSession, marks: [TestUser, boolean][], clientId = randomUUID()) =>
    api.post(
      `/open-sessions/${session._id}/attendance`,
      { clientId, marks: marks.map(([subject, came]) => ({ userId: subject.userId, came })) },
      user.token,
    );
  const attendance = async (user: TestUser, session: OpenSession): Promise<Attendance> => {
    const read = await api.get(`/open-sessions/${session._id}/attendance`, user.token);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    return read.body.attendance as Attendance;
  };
  const reliability = async (user: TestUser) =>
    (await api.get(`/quedadas/reliability/${user.userId}`, user.token)).body.reliability;
  const endOf = (session: OpenSession) => new Date(session.startsAt).getTime() + session.durationMin * MINUTE;
  const titlesOf = async (user: TestUser) =>
    (((await api.get('/notifications', user.token)).body.notifications ?? []) as { title: string }[]).map(
      (n) => n.title,
    );

  it('«¿Quién vino?»: members mark each other after the end, a no-show’s marks do not count, replays apply once', async () => {
    const host = await api.userWithProfile({}, 'Helena');
    const [ana, bea, cris] = [
      await api.userWithProfile({}, 'Ana'),
      await api.userWithProfile({}, 'Bea'),
      await api.userWithProfile({}, 'Cris'),
    ];
    const asker = await api.userWithProfile({}, 'Rita');
    const stranger = await api.userWithProfile(barcelona, 'Sonia');
    const session = await sessions.publish(host);
    await sessions.admit(session, host, [ana, bea, cris]);
    expect((await sessions.write(asker, `${session._id}/join`)).status).toBe(200);

    // Not ended yet: nothing to mark.
    const early = await api.get(`/open-sessions/${session._id}/attendance`, ana.token);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(A.notEnded);
    expect((await mark(ana, session, [[bea, true]])).body.message).toBe(A.notEnded);

    clock.set(new Date(endOf(session) + MINUTE));
    // Who was in it is settled: nobody leaves, is approved or cancels any more.
    for (const refused of [
      await sessions.write(ana, `${session._id}/leave`),
      await sessions.write(host, `${session._id}/requests/${asker.userId}`, { decision: 'approve' }),
      await sessions.write(host, `${session._id}/members/${bea.userId}/remove`),
      await sessions.write(host, `${session._id}/cancel`),
    ]) {
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body.message).toBe(M.ended);
    }

    const listed = await attendance(ana, session);
    expect(listed.canMark).toBe(true);
    // The host first; the members (who asked at one instant here) in any order.
    const unmarked = { came: null, connection: { status: 'unavailable' } };
    expect(listed.people[0]).toEqual({ userId: host.userId, name: 'Helena', photo: null, isHost: true, ...unmarked });
    expect(listed.people.slice(1)).toEqual(
      expect.arrayContaining([
        { userId: bea.userId, name: 'Bea', photo: null, isHost: false, ...unmarked },
        { userId: cris.userId, name: 'Cris', photo: null, isHost: false, ...unmarked },
      ]),
    );
    expect(listed.people).toHaveLength(3);
    expect(new Date(listed.closesAt).getTime() - endOf(session)).toBe(7 * DAY);

    // Access: a requester 403, someone who never saw it and a malformed id 404; no 5xx for junk.
    const requester = await api.get(`/open-sessions/${session._id}/attendance`, asker.token);
    expect(requester.status).toBe(403);
    expect(requester.body.message).toBe(M.notJoined);
    expect((await mark(asker, session, [[host, true]])).status).toBe(403);
    expect((await api.get(`/open-sessions/${session._id}/attendance`, stranger.token)).status).toBe(404);
    expect((await api.get('/open-sessions/nope/attendance', ana.token)).status).toBe(404);
    for (const body of [
      {},
      { clientId: randomUUID(), marks: [] },
      { clientId: randomUUID(), marks: [{ userId: bea.userId, came: 'sí' }] },
      { clientId: randomUUID(), marks: [{ userId: 'nadie', came: true }] },
    ]) {
      const bad = await api.post(`/open-sessions/${session._id}/attendance`, body, ana.token);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe(A.invalid);
    }
    for (const subject of [ana, asker, stranger]) {
      const notListed = await mark(ana, session, [[subject, true]]);
      expect(notListed.status).toBe(400);
      expect(notListed.body.message).toBe(A.notListed);
    }

    // Cris did not come; Cris says nobody else did either.
    expect(
      (
        await mark(host, session, [
          [ana, true],
          [bea, true],
          [cris, false],
        ])
      ).status,
    ).toBe(200);
    expect((await mark(bea, session, [[cris, true]])).status).toBe(200);
    expect(
      (
        await mark(cris, session, [
          [host, false],
          [ana, false],
          [bea, false],
        ])
      ).status,
    ).toBe(200);
    // Ana first says Cris came, then corrects it; the first write replayed late changes nothing.
    const first = randomUUID();
    expect(
      (
        await mark(
          ana,
          session,
          [
            [host, true],
            [cris, true],
          ],
          first,
        )
      ).status,
    ).toBe(200);
    const corrected = await mark(ana, session, [[cris, false]]);
    expect(corrected.status).toBe(200);
    expect((corrected.body.attendance as Attendance).people.find((p) => p.userId === cris.userId)?.came).toBe(false);
    const replay = await mark(
      ana,
      session,
      [
        [host, true],
        [cris, true],
      ],
      first,
    );
    expect(replay.status).toBe(200);
    const marked = new Map((await attendance(ana, session)).people.map((p) => [p.userId, p.came]));
    expect(marked).toEqual(
      new Map([
        [host.userId, true],
        [bea.userId, null],
        [cris.userId, false],
      ]),
    );
    const rows = (await app.database.db.execute(
      sql`select count(*)::int as n from open_session_attendance where session_id = ${session._id}::uuid`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0]?.n).toBe(9);

    // Reliability, as for quedadas, per person: Cris's spite against the others is not counted.
    expect(await reliability(cris)).toEqual({ kept: 0, counted: 1 });
    for (const user of [host, ana, bea]) expect(await reliability(user)).toEqual({ kept: 1, counted: 1 });
    // The host's members list shows it too (each one lets it be shown by default).
    const members = await api.get(`/open-sessions/${session._id}/members`, host.token);
    const shown = (members.body.members as { userId: string; reliability: unknown }[]).find(
      (m) => m.userId === cris.userId,
    );
    expect(shown?.reliability).toEqual({ kept: 0, counted: 1 });

    // «Salir» of the group chat after the end leaves the chat only: Bea stays in the session's record.
    const sessionOf = async (user: TestUser) =>
      (await api.get(`/open-sessions/${session._id}`, user.token)).body.session as OpenSession;
    const conversationId = (await sessionOf(bea)).conversationId;
    expect((await api.post(`/groups/${conversationId}/leave`, { clientId: randomUUID() }, bea.token)).status).toBe(200);
    expect((await api.get(`/groups/${conversationId}`, bea.token)).status).toBe(404);
    expect((await sessionOf(bea)).myState).toBe('approved');
    expect((await attendance(bea, session)).people).toHaveLength(3);

    // Seven days after the end the marks close: read-only, counted as they stand.
    clock.set(new Date(endOf(session) + 7 * DAY + MINUTE));
    const late = await mark(bea, session, [[cris, false]]);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(A.tooLate);
    expect((await attendance(bea, session)).canMark).toBe(false);
    expect(await reliability(cris)).toEqual({ kept: 0, counted: 1 });
  });

  it('a cancelled session has no «¿Quién vino?» and counts for nobody', async () => {
    const host = await api.userWithProfile({}, 'Irene');
    const member = await api.userWithProfile({}, 'Julia');
    const session = await sessions.publish(host);
    await sessions.admit(session, host, [member]);
    expect((await sessions.write(host, `${session._id}/cancel`)).status).toBe(200);
    clock.set(new Date(endOf(session) + MINUTE));
    const read = await api.get(`/open-sessions/${session._id}/attendance`, member.token);
    expect(read.status).toBe(409);
    expect(read.body.message).toBe(M.notOpen);
    expect((await mark(member, session, [[host, false]])).status).toBe(409);
    expect(await reliability(host)).toBeNull();
  });

  it('«Repetir la próxima semana»: the same session a week later, once per clientId; its members invited and in at once', async () => {
    // Published for Wednesday 25 March, 11:00 in Madrid: its repeat falls after the clocks' change of the 29th.
    clock.set('2026-03-23T10:00:00.000Z');
    const host = await api.userWithProfile({}, 'Lola');
    const member = await api.userWithProfile({}, 'Marta');
    const asker = await api.userWithProfile({}, 'Nuria');
    const newcomer = await api.userWithProfile({}, 'Olga');
    const session = await sessions.publish(host, { places: 2, level: 'advanced' });
    await sessions.admit(session, host, [member]);
    expect((await sessions.write(asker, `${session._id}/join`)).status).toBe(200);

    const early = await sessions.write(host, `${session._id}/repeat`);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(A.repeatNotEnded);
    clock.set(new Date(endOf(session) + 2 * DAY));
    const notHost = await sessions.write(member, `${session._id}/repeat`);
    expect(notHost.status).toBe(403);
    expect(notHost.body.message).toBe(M.hostOnly);
    expect((await api.post(`/open-sessions/${session._id}/repeat`, { clientId: 7 }, host.token)).status).toBe(400);

    const body = { clientId: randomUUID() };
    const repeated = await api.post(`/open-sessions/${session._id}/repeat`, body, host.token);
    expect(repeated.status, JSON.stringify(repeated.body)).toBe(201);
    const next = repeated.body.session as OpenSession;
    expect(next._id).not.toBe(session._id);
    // A week later at the same Madrid time: 7 days less the hour the clocks moved.
    expect(instantToMadridLocal(next.startsAt).time).toBe(instantToMadridLocal(session.startsAt).time);
    expect(new Date(next.startsAt).getTime() - new Date(session.startsAt).getTime()).toBe(7 * DAY - HOUR);
    expect(next.startsAt).toBe(nextWeeklyStart(session.startsAt, clock.now()).toISOString());
    const same = [
      'gymName',
      'gymAddress',
      'durationMin',
      'activity',
      'level',
      'places',
      'note',
      'visibility',
      'approval',
    ] as const;
    for (const field of same) expect(next[field], field).toEqual(session[field]);
    expect(next).toMatchObject({ status: 'open', myState: 'host', taken: 0 });
    const replay = await api.post(`/open-sessions/${session._id}/repeat`, body, host.token);
    expect(replay.status).toBe(200);
    expect((replay.body.session as OpenSession)._id).toBe(next._id);

    // Only who held a place is invited, once; each one's view says so (the screen offers «Unirme»).
    expect((await titlesOf(member)).filter((title) => title === 'Repetimos entreno')).toHaveLength(1);
    expect(await titlesOf(asker)).not.toContain('Repetimos entreno');
    expect(next.isInvited).toBe(false);
    const seenBy = async (user: TestUser) =>
      (await api.get(`/open-sessions/${next._id}`, user.token)).body.session as OpenSession;
    expect(await seenBy(member)).toMatchObject({ approval: 'host', myState: null, isInvited: true });
    expect(await seenBy(asker)).toMatchObject({ approval: 'host', myState: null, isInvited: false });
    const listed = (await api.get('/open-sessions/nearby', member.token)).body.sessions as OpenSession[];
    expect(listed.find((found) => found._id === next._id)?.isInvited).toBe(true);
    // The invited see it even where they otherwise would not (a session for the host's matches).
    await app.database.db.execute(sql`update open_sessions set visibility = 'matches' where id = ${next._id}::uuid`);
    expect((await api.get(`/open-sessions/${next._id}`, asker.token)).status).toBe(404);
    const joined = await sessions.write(member, `${next._id}/join`);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.session).toMatchObject({ myState: 'approved', taken: 1 });
    await app.database.db.execute(sql`update open_sessions set visibility = 'nearby' where id = ${next._id}::uuid`);
    // Anyone else still asks the host.
    expect((await sessions.write(newcomer, `${next._id}/join`)).body.session).toMatchObject({
      myState: 'requested',
      isInvited: false,
    });
    // Once in, the member's view still says they were invited (and «Mis entrenos» lists it so).
    const mine = (await api.get('/open-sessions/mine', member.token)).body.sessions as OpenSession[];
    expect(mine.find((found) => found._id === next._id)).toMatchObject({ myState: 'approved', isInvited: true });
  });

  it('an invitee of a repeat that others filled sees «Completo» and is not let in', async () => {
    const host = await api.userWithProfile({}, 'Rosa');
    const [first, second] = [await api.userWithProfile({}, 'Sara'), await api.userWithProfile({}, 'Teresa')];
    const newcomer = await api.userWithProfile({}, 'Úrsula');
    const session = await sessions.publish(host, { places: 2 });
    await sessions.admit(session, host, [first, second]);
    clock.set(new Date(endOf(session) + MINUTE));
    const repeated = await sessions.write(host, `${session._id}/repeat`);
    expect(repeated.status, JSON.stringify(repeated.body)).toBe(201);
    const next = repeated.body.session as OpenSession;
    // The host approves someone new; an invitee takes the other place.
    await sessions.admit(next, host, [newcomer]);
    expect((await sessions.write(first, `${next._id}/join`)).body.session).toMatchObject({
      myState: 'approved',
      isFull: true,
    });

    const seen = (await api.get(`/open-sessions/${next._id}`, second.token)).body.session as OpenSession;
    expect(seen).toMatchObject({ isInvited: true, isFull: true, myState: null });
    const late = await sessions.write(second, `${next._id}/join`);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(M.full);
  });

  it('answers any attendance, connect or repeat body with a Spanish 2xx/4xx, never a 5xx (QUALITY 12)', async () => {
    const host = await api.userWithProfile({}, 'Paula');
    const member = await api.userWithProfile({}, 'Quima');
    const session = await sessions.publish(host);
    await sessions.admit(session, host, [member]);
    clock.set(new Date(endOf(session) + MINUTE));
    const hostile = fc.oneof(fc.anything({ maxDepth: 2 }), fc.string({ maxLength: 100 }), fc.constant(null));
    const body = fc.oneof(
      fc.record(
        {
          clientId: fc.oneof(fc.uuid(), hostile),
          marks: fc.oneof(
            fc.array(fc.record({ userId: fc.oneof(fc.constant(host.userId), fc.uuid(), hostile), came: hostile })),
            hostile,
          ),
        },
        { requiredKeys: [] },
      ),
      hostile,
    );
    await fc.assert(
      fc.asyncProperty(body, fc.oneof(fc.constant(session._id), fc.string({ maxLength: 40 })), async (sent, id) => {
        for (const path of ['attendance', 'connect', 'repeat']) {
          for (const user of [host, member]) {
            const response = await api.post(`/open-sessions/${encodeURIComponent(id)}/${path}`, sent, user.token);
            const label = `${path} ${JSON.stringify(sent)?.slice(0, 200)}`;
            expect(response.status, label).toBeLessThan(500);
            if (response.status >= 400) expect(response.body.message, label).not.toMatch(/^Invalid /);
          }
        }
      }),
      { numRuns: 25 },
    );
  });
});
