// @setup embedded
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_SESSION_MESSAGES as M } from '#shared/open-sessions/open-session-schemas';
import { endOf } from '#shared/quedadas/quedada-state';
import { type QuedadaShare, SHARE_MESSAGES as S, type SharedSession } from '#shared/quedadas/share-schemas';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { createOpenSessionApi, type OpenSessionApi } from '../helpers/open-session-api.ts';
import { startSecondNode, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, DAY, HOUR, MINUTE } from '../helpers/test-clock.ts';

/**
 * «Compartir con alguien de confianza» for an open session (issue #35, docs/decisions/0054,
 * amendment of session 17): who may share, who is told, what the page shows, the check-in once
 * across two nodes on one database, revoke, expiry, and the outbox's replay of the create.
 */
describe('sharing an open session with someone you trust', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let second: TestApp;
  let api: DiscoveryApi;
  let sessions: OpenSessionApi;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    second = await startSecondNode(app, { dependencies: { clock } });
    api = createDiscoveryApi(app);
    sessions = createOpenSessionApi(api, () => clock.now(), { places: 4, approval: 'host' });
  });
  afterAll(async () => {
    await second?.close();
    await app?.close();
  });

  const token = () => randomBytes(32).toString('base64url');
  const share = (user: TestUser | undefined, sessionId: string, body: Record<string, unknown> = {}) =>
    api.post(
      `/open-sessions/${sessionId}/shares`,
      { clientId: randomUUID(), token: token(), checkInAt: null, ...body },
      user?.token,
    );
  const page = (secret: string) => api.get(`/shared/${secret}`);
  const shownOf = async (secret: string) => {
    const shown = await page(secret);
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    return shown.body.shared as Extract<SharedSession, { kind: 'openSession' }>;
  };
  const notificationsOf = async (user: TestUser, title: string) => {
    const listed = await api.get('/notifications', user.token);
    return ((listed.body.notifications ?? []) as { title: string; body: string; referenceId: string }[]).filter(
      (n) => n.title === title,
    );
  };
  /** A session of `host` with `members` approved (host approval), plus one person still waiting. */
  const heldSession = async (names: [string, ...string[]]) => {
    const [host, ...members] = await Promise.all(names.map((name) => api.userWithProfile({}, name)));
    const session = await sessions.publish(host as TestUser);
    await sessions.admit(session, host as TestUser, members);
    const requester = await api.userWithProfile({}, 'Rita');
    expect((await sessions.write(requester, `${session._id}/join`)).status).toBe(200);
    return { session, host: host as TestUser, members, requester };
  };
  const laterThanAll = () => clock.set(new Date(clock.now().getTime() + 10 * DAY));

  it('an approved member shares: the page shows host and members besides them; the others are told, never the link; a replay is the same share', async () => {
    const { session, host, members, requester } = await heldSession(['Gema Ruiz', 'Ana', 'Bea López']);
    const [ana, bea] = members as [TestUser, TestUser];
    const secret = token();
    const body = { clientId: randomUUID(), token: secret, checkInAt: null };
    const created = await api.post(`/open-sessions/${session._id}/shares`, body, ana.token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const made = created.body.share as QuedadaShare;
    expect(made).toMatchObject({ sessionId: session._id, quedadaId: null, revokedAt: null, checkIn: null });
    expect(Date.parse(made.expiresAt)).toBe(endOf(session) + 3 * HOUR);
    expect(JSON.stringify(created.body)).not.toContain(secret);

    // The outbox's replay: the same share, 200, nobody told twice.
    const replay = await api.post(`/open-sessions/${session._id}/shares`, body, ana.token);
    expect(replay.status).toBe(200);
    expect((replay.body.share as QuedadaShare)._id).toBe(made._id);

    const shared = await shownOf(secret);
    expect(shared).toMatchObject({
      kind: 'openSession',
      sharedBy: 'Ana',
      people: [
        { firstName: 'Gema', isHost: true, isVerified: false },
        { firstName: 'Bea', isHost: false, isVerified: false },
      ],
      gymName: session.gymName,
      gymAddress: session.gymAddress,
      startsAt: session.startsAt,
      durationMin: session.durationMin,
      activity: session.activity,
      isCancelled: false,
      checkIn: null,
    });
    // The requester is nobody's business (yet); no ids, no conversation, no position.
    const text = JSON.stringify(shared);
    for (const secretThing of [host.userId, ana.userId, bea.userId, requester.userId, session._id, 'latitude'])
      expect(text).not.toContain(secretThing);
    expect(text).not.toContain('Rita');

    for (const told of [host, bea]) {
      await expect.poll(async () => (await notificationsOf(told, 'Entreno compartido')).length).toBe(1);
      const [notice] = await notificationsOf(told, 'Entreno compartido');
      expect(notice?.body).toMatch(/^Ana ha compartido el entreno \(Pierna, .+\) con un contacto de confianza\.$/);
      expect(notice?.referenceId).toBe(session._id);
      expect(JSON.stringify(notice)).not.toContain(secret);
    }
    for (const untold of [ana, requester]) expect(await notificationsOf(untold, 'Entreno compartido')).toHaveLength(0);

    // The host shares too: their page shows the two members.
    const hostSecret = token();
    expect((await share(host, session._id, { token: hostSecret })).status).toBe(201);
    expect((await shownOf(hostSecret)).people.map((person) => [person.firstName, person.isHost])).toEqual([
      ['Ana', false],
      ['Bea', false],
    ]);

    // Rita, approved now, shows on both pages: each sharer's notice reaches her too, once.
    const approved = await sessions.write(host, `${session._id}/requests/${requester.userId}`, { decision: 'approve' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect((await shownOf(secret)).people.map((person) => person.firstName)).toEqual(['Gema', 'Bea', 'Rita']);
    await expect.poll(async () => (await notificationsOf(requester, 'Entreno compartido')).length).toBe(2);
    const bodies = (await notificationsOf(requester, 'Entreno compartido')).map((notice) => notice.body.split(' ')[0]);
    expect(bodies.sort()).toEqual(['Ana', 'Gema']);
    expect(await notificationsOf(bea, 'Entreno compartido')).toHaveLength(2);
  });

  it('only the host and approved members share; only the sharer lists, revokes or answers; a Spanish 4xx otherwise', async () => {
    const { session, host, members, requester } = await heldSession(['Nerea', 'Olga']);
    const [olga] = members as [TestUser];
    const onlooker = await api.userWithProfile({}, 'Paula'); // sees the session nearby, is not in it
    expect((await api.get(`/open-sessions/${session._id}`, onlooker.token)).status).toBe(200);
    const made = (await share(olga, session._id, { checkInAt: new Date(clock.now().getTime() + HOUR).toISOString() }))
      .body.share as QuedadaShare;

    for (const outsider of [onlooker]) {
      const refused = await share(outsider, session._id);
      expect(refused.status).toBe(404);
      expect(refused.body.message).toBe(M.notFound);
      expect((await api.get(`/open-sessions/${session._id}/shares`, outsider.token)).status).toBe(404);
    }
    const waiting = await share(requester, session._id);
    expect(waiting.status).toBe(403);
    expect(waiting.body.message).toBe(M.notJoined);
    expect((await share(olga, 'nope')).status).toBe(404);
    expect((await share(olga, randomUUID())).status).toBe(404);
    expect((await share(undefined, session._id)).status).toBe(401);

    // Each sees only their own links.
    expect((await api.get(`/open-sessions/${session._id}/shares`, host.token)).body.shares).toEqual([]);
    const listed = (await api.get(`/open-sessions/${session._id}/shares`, olga.token)).body.shares as QuedadaShare[];
    expect(listed.map((one) => one._id)).toEqual([made._id]);
    for (const other of [host, requester, onlooker]) {
      const revoke = await api.post(`/quedadas/shares/${made._id}/revoke`, { clientId: randomUUID() }, other.token);
      expect(revoke.status).toBe(404);
      const answer = await api.post(
        `/quedadas/shares/${made._id}/check-in`,
        { clientId: randomUUID(), answer: 'ok' },
        other.token,
      );
      expect(answer.status).toBe(404);
    }

    const bad = [
      { token: 'short' },
      { checkInAt: 'mañana' },
      { checkInAt: new Date(clock.now().getTime() - HOUR).toISOString() },
      { checkInAt: new Date(endOf(session) + 4 * HOUR).toISOString() },
      { extra: true },
    ];
    for (const overrides of bad) {
      const refused = await share(olga, session._id, overrides);
      expect(refused.status, JSON.stringify(overrides)).toBe(400);
      expect(refused.body.message).toMatch(/[áéíóúñ¿«]|no es válido|entre/);
    }
    // A token already in use is refused, not a second link.
    const secret = token();
    expect((await share(host, session._id, { token: secret })).status).toBe(201);
    const taken = await share(olga, session._id, { token: secret });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(S.invalidToken);

    // Cancelled: no new link; an existing one says so.
    expect((await sessions.write(host, `${session._id}/cancel`)).status).toBe(200);
    const late = await share(olga, session._id);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(M.notOpen);
    expect((await shownOf(secret)).isCancelled).toBe(true);
  });

  it('a session that ended cannot be shared; a link of someone who left stops; links expire 3 h after the end', async () => {
    const { session, host, members } = await heldSession(['Lara', 'Marta', 'Sara']);
    const [marta, sara] = members as [TestUser, TestUser];
    const [martaSecret, saraSecret] = [token(), token()];
    expect((await share(marta, session._id, { token: martaSecret })).status).toBe(201);
    expect((await share(sara, session._id, { token: saraSecret })).status).toBe(201);
    expect((await sessions.write(sara, `${session._id}/leave`)).status).toBe(200);
    const gone = await page(saraSecret);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(S.publicNotFound);
    // Sara left: Marta's page no longer shows her.
    expect((await shownOf(martaSecret)).people.map((person) => person.firstName)).toEqual(['Lara']);

    clock.set(new Date(endOf(session) + MINUTE));
    const ended = await share(host, session._id);
    expect(ended.status).toBe(409);
    expect(ended.body.message).toBe(M.ended);
    expect((await page(martaSecret)).status).toBe(200);
    clock.set(new Date(endOf(session) + 3 * HOUR + MINUTE));
    expect((await page(martaSecret)).status).toBe(404);
    laterThanAll();
  });

  it('«¿Todo bien?» goes out once at the chosen time across two nodes; the page shows the answer, or that none came', async () => {
    const { session, host, members } = await heldSession(['Irene', 'Julia', 'Karen']);
    const [julia, karen] = members as [TestUser, TestUser];
    const checkInAt = new Date(Date.parse(session.startsAt) + 30 * MINUTE).toISOString();
    const [juliaSecret, hostSecret] = [token(), token()];
    const mine = (await share(julia, session._id, { token: juliaSecret, checkInAt })).body.share as QuedadaShare;
    expect(mine.checkIn).toMatchObject({ at: checkInAt, answer: null, state: 'pending' });
    expect((await share(host, session._id, { token: hostSecret, checkInAt })).status).toBe(201);
    // Karen's link is revoked before its time, and Karen's check-in with it.
    const karens = (await share(karen, session._id, { checkInAt })).body.share as QuedadaShare;
    expect(
      (await api.post(`/quedadas/shares/${karens._id}/revoke`, { clientId: randomUUID() }, karen.token)).status,
    ).toBe(200);

    const racing = async () =>
      (await Promise.all([app, second, app, second].map((node) => node.openSessionShares.runDueCheckIns()))).reduce(
        (sum, sent) => sum + sent,
        0,
      );
    expect(await racing()).toBe(0);
    clock.set(new Date(Date.parse(checkInAt) + MINUTE));
    expect(await racing()).toBe(2);
    expect(await racing()).toBe(0);
    for (const user of [julia, host]) {
      const asked = await notificationsOf(user, '¿Todo bien?');
      expect(asked).toHaveLength(1);
      expect(asked[0]?.body).toBe(
        'Tu contacto de confianza verá tu respuesta sobre el entreno de Pierna en Altafit Argüelles.',
      );
    }
    expect(await notificationsOf(karen, '¿Todo bien?')).toHaveLength(0);

    // Julia answers through the outbox's call (a share is a share); a replay keeps the first answer.
    const answerBody = { clientId: randomUUID(), answer: 'ok' };
    const answered = await api.post(`/quedadas/shares/${mine._id}/check-in`, answerBody, julia.token);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect((answered.body.share as QuedadaShare).checkIn).toMatchObject({ answer: 'ok', state: 'answered' });
    expect((await api.post(`/quedadas/shares/${mine._id}/check-in`, answerBody, julia.token)).status).toBe(200);
    const later = await api.post(
      `/quedadas/shares/${mine._id}/check-in`,
      { clientId: randomUUID(), answer: 'help' },
      julia.token,
    );
    expect((later.body.share as QuedadaShare).checkIn?.answer).toBe('ok');
    expect((await shownOf(juliaSecret)).checkIn).toMatchObject({ answer: 'ok', state: 'answered' });

    // The host never answers: half an hour after the time, the page says none came.
    expect((await shownOf(hostSecret)).checkIn?.state).toBe('pending');
    clock.advance(31 * MINUTE);
    expect((await shownOf(hostSecret)).checkIn).toMatchObject({ answer: null, state: 'missed' });
    laterThanAll();
  });

  it("the development rewind moves a session's links with it: the check-in at its end is due, the page lives 3 h more", async () => {
    const { session, host, members } = await heldSession(['Noa', 'Pilar']);
    const [pilar] = members as [TestUser];
    const checkInAt = new Date(endOf(session)).toISOString();
    const made = (await share(pilar, session._id, { checkInAt })).body.share as QuedadaShare;
    const rewound = await api.post(`/dev/open-sessions/${session._id}/rewind`, {}, host.token);
    expect(rewound.status, JSON.stringify(rewound.body)).toBe(200);
    const moved = (
      (await api.get(`/open-sessions/${session._id}/shares`, pilar.token)).body.shares as QuedadaShare[]
    )[0];
    expect(moved?._id).toBe(made._id);
    expect(Date.parse(moved?.checkIn?.at ?? '')).toBe(clock.now().getTime() - MINUTE);
    expect(Date.parse(moved?.expiresAt ?? '')).toBe(clock.now().getTime() - MINUTE + 3 * HOUR);
    await expect.poll(async () => (await notificationsOf(pilar, '¿Todo bien?')).length).toBe(1);
    laterThanAll();
  });

  it('a cancelled session asks nobody «¿Todo bien?»', async () => {
    const { session, host, members } = await heldSession(['Eva', 'Flor']);
    const checkInAt = new Date(Date.parse(session.startsAt) + 10 * MINUTE).toISOString();
    expect((await share(members[0], session._id, { checkInAt })).status).toBe(201);
    expect((await sessions.write(host, `${session._id}/cancel`)).status).toBe(200);
    clock.set(new Date(Date.parse(checkInAt) + MINUTE));
    expect(await app.openSessionShares.runDueCheckIns()).toBe(0);
    expect(await notificationsOf(members[0] as TestUser, '¿Todo bien?')).toHaveLength(0);
    laterThanAll();
  });
});
