// @setup scaled — the moderator on one node, the people involved on another
import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, GOOD_PASSWORD } from '../helpers/auth-api.ts';
import { createMatchedPair, emitWithAck, eventually, nextEventMatching } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { createMember, createModerationClient, createModerator, report } from '../helpers/moderation-api.ts';
import { connectSocket, nextEvent } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock } from '../helpers/test-clock.ts';

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL && !!process.env.REDIS_URL;
const DAY_MS = 86_400_000;

/**
 * Each console action and its effects. Scaled (PostgreSQL + Redis), the moderator acts on node A
 * while the people involved are connected to node B; embedded, both are the same node.
 */
describe(isScaled ? 'moderation actions across two nodes' : 'moderation actions', () => {
  const clock = createTestClock(new Date());
  let nodeA: TestApp;
  let nodeB: TestApp;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    nodeA = await startTestApp({}, { dependencies: { clock } });
    nodeB = isScaled
      ? await startTestApp(
          {
            databaseUrl: nodeA.config.databaseUrl,
            tokenSecret: nodeA.config.tokenSecret,
            redisKeyPrefix: nodeA.config.redisKeyPrefix,
          },
          { dependencies: { clock } },
        )
      : nodeA;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    if (nodeB !== nodeA) await nodeB?.close();
    await nodeA?.close();
  });

  const socketOn = async (node: TestApp, user: TestUser) => {
    const socket = await connectSocket(node, { token: user.token });
    sockets.push(socket);
    return socket;
  };
  const deckIds = async (node: TestApp, viewer: TestUser) => {
    const answer = await createApi(node).get(`/profiles/${viewer.userId}/recommended?limit=50`, viewer.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return (answer.body as { profiles: { userId: string }[] }).profiles.map((profile) => profile.userId);
  };
  const notificationsOf = async (node: TestApp, user: TestUser) => {
    const answer = await createApi(node).get('/notifications', user.token);
    return (answer.body as { notifications: { title: string; body: string }[] }).notifications;
  };

  it('suspends: sessions end on every node, the profile leaves decks, the chat closes for the other side, push stops; the reporter is told; one appeal, granted, lifts it all', async () => {
    const discoveryA = createDiscoveryApi(nodeA);
    const offender = await createMember(nodeA, 'Óscar');
    const reporter = await createMember(nodeA, 'Rocío');
    const viewer = await createMember(nodeA, 'Vera');
    const { conversationId } = await createMatchedPair(discoveryA, { a: offender, b: reporter });
    const offenderSocket = await socketOn(nodeB, offender);
    const reporterSocket = await socketOn(nodeB, reporter);
    const sent = await emitWithAck<{ ok: boolean }>(offenderSocket, 'sendMessage', {
      conversationId,
      text: 'Mensaje que motivó la denuncia',
    });
    expect(sent.ok).toBe(true);
    await nodeA.database.db.execute(sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth)
      values (${offender.userId}::uuid, ${`https://push.example/${offender.userId}`}, 'k', 'a')`);
    expect(await deckIds(nodeB, viewer)).toContain(offender.userId);

    const reportId = await report(nodeA, reporter, offender, { conversationId, details: 'Insultos por el chat' });
    const moderator = await createModerator(nodeA);
    const console = createModerationClient(nodeA, moderator);
    const queue = await console.queue();
    expect(queue.status).toBe(200);
    expect((queue.body.reports as { id: string }[]).map((item) => item.id)).toContain(reportId);
    const detail = await console.report(reportId);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      report: { id: reportId, reason: 'harassment', details: 'Insultos por el chat', conversationId },
      reported: { userId: offender.userId, isInDecks: true },
    });
    expect((detail.body.messages as { text: string }[]).map((message) => message.text)).toContain(
      'Mensaje que motivó la denuncia',
    );

    const invalidated = nextEvent<{ reason: string }>(offenderSocket, 'token_invalidated');
    const closedForReporter = nextEventMatching<{ conversationId: string; status: string }>(
      reporterSocket,
      'conversationUpdated',
      (event) => event.conversationId === conversationId,
    );
    const resolved = await console.resolve(reportId, {
      action: 'suspend',
      reason: 'harassment',
      note: 'Insultos',
      days: 7,
    });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    const restrictionId = resolved.body.restrictionId as string;

    // Every session, on every node: the socket on node B is told and cut, HTTP refuses at once.
    expect(await invalidated).toMatchObject({ reason: 'revoked' });
    expect((await createApi(nodeB).post('/auth/logout', {}, offender.token)).status).toBe(401);
    await expect(connectSocket(nodeA, { token: offender.token })).rejects.toThrow();
    await eventually(async () => (await createApi(nodeB).get('/auth/validate-session', offender.token)).status === 401);
    // The other side's chat closes (the neutral "ended" state), on the node they are connected to.
    expect(await closedForReporter).toMatchObject({ status: 'blocked' });
    const refused = await emitWithAck<{ ok: boolean }>(reporterSocket, 'sendMessage', { conversationId, text: 'Hola' });
    expect(refused.ok).toBe(false);
    // Out of every deck, push subscriptions gone, the reporter told without the detail.
    await eventually(async () => !(await deckIds(nodeB, viewer)).includes(offender.userId));
    const subscriptions = await nodeA.database.db.execute(
      sql`select count(*)::int as n from push_subscriptions where user_id = ${offender.userId}::uuid`,
    );
    expect((subscriptions as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
    await eventually(async () =>
      (await notificationsOf(nodeB, reporter)).some(
        (notification) => notification.title === 'Hemos revisado tu denuncia',
      ),
    );
    const told = (await notificationsOf(nodeB, reporter)).find((n) => n.title === 'Hemos revisado tu denuncia');
    expect(told?.body).not.toMatch(/suspend|Insultos|Óscar/i);

    // Signing in again is refused with the reason and a way to appeal, once.
    const login = await createApi(nodeB).post('/auth/login', { email: offender.email, password: GOOD_PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({
      errorType: 'ACCOUNT_RESTRICTED',
      restriction: { kind: 'suspension', reason: 'Acoso', canAppeal: true },
    });
    expect(login.body.message).toMatch(/^Tu cuenta está suspendida hasta el /);
    const appealToken = (login.body.restriction as { appealToken: string }).appealToken;
    const appeal = await createApi(nodeB).post('/appeals', { appealToken, text: 'Fue un malentendido' });
    expect(appeal.status, JSON.stringify(appeal.body)).toBe(201);
    const again = await createApi(nodeB).post('/appeals', { appealToken, text: 'Otra vez' });
    expect(again.status).toBe(409);
    const loginAfterAppeal = await createApi(nodeB).post('/auth/login', {
      email: offender.email,
      password: GOOD_PASSWORD,
    });
    expect(loginAfterAppeal.body).toMatchObject({ restriction: { canAppeal: false, appealToken: null } });

    // The appeal lands in the queue; granting it lifts the suspension.
    const withAppeal = await console.queue();
    const appeals = withAppeal.body.appeals as { id: string; text: string; restriction: { id: string } }[];
    const queued = appeals.find((item) => item.restriction.id === restrictionId);
    expect(queued?.text).toBe('Fue un malentendido');
    expect((await console.decide(queued?.id as string, 'grant')).status).toBe(200);
    expect((await console.decide(queued?.id as string, 'grant')).status).toBe(409);
    const back = await createApi(nodeB).login(offender.email);
    expect(back.token).toBeTruthy();
    await eventually(async () => (await deckIds(nodeB, viewer)).includes(offender.userId));
    const conversation = await nodeA.database.db.execute(
      sql`select status from conversations where id = ${conversationId}::uuid`,
    );
    expect((conversation as unknown as { rows: { status: string }[] }).rows[0]?.status).toBe('active');

    const audit = await console.audit();
    const actions = (audit.body.entries as { action: string; reason: string; moderator: string }[]).map(
      (e) => e.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['suspend', 'appeal_granted']));
    expect((audit.body.entries as { moderator: string }[])[0]?.moderator).toBe(moderator.email);
  });

  it('bans for good: refused sign-in says so; a moderator can lift it', async () => {
    const offender = await createMember(nodeA, 'Bea');
    const reporter = await createMember(nodeA, 'Carla');
    const reportId = await report(nodeA, reporter, offender, { reason: 'spam' });
    const console = createModerationClient(nodeA, await createModerator(nodeA));
    const banned = await console.resolve(reportId, { action: 'ban', reason: 'spam', note: 'Vende suplementos' });
    expect(banned.status).toBe(200);
    expect((await createApi(nodeB).get('/auth/validate-session', offender.token)).status).toBe(401);
    clock.advance(400 * DAY_MS);
    expect(await nodeA.moderation.sweep()).toBe(0);
    const login = await createApi(nodeB).post('/auth/login', { email: offender.email, password: GOOD_PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({ restriction: { kind: 'ban', endsAt: null } });
    // The first moderator's session ran out meanwhile: a colleague lifts it.
    const colleague = createModerationClient(nodeA, await createModerator(nodeA));
    expect((await colleague.lift(banned.body.restrictionId as string)).status).toBe(200);
    expect((await colleague.lift(banned.body.restrictionId as string)).status).toBe(409);
    expect(
      (await createApi(nodeB).post('/auth/login', { email: offender.email, password: GOOD_PASSWORD })).status,
    ).toBe(200);
  });

  it('ends a suspension at its end (the sweep), and a report already resolved cannot be acted on twice', async () => {
    const offender = await createMember(nodeA, 'Diego');
    const reporter = await createMember(nodeA, 'Elena');
    const viewer = await createMember(nodeA, 'Fermín');
    const reportId = await report(nodeA, reporter, offender);
    const console = createModerationClient(nodeA, await createModerator(nodeA));
    expect(
      (await console.resolve(reportId, { action: 'suspend', reason: 'harassment', note: 'Un día', days: 1 })).status,
    ).toBe(200);
    expect((await console.resolve(reportId, { action: 'dismiss', note: 'Otra vez' })).status).toBe(409);
    await eventually(async () => !(await deckIds(nodeB, viewer)).includes(offender.userId));
    clock.advance(DAY_MS + 1000);
    expect(await nodeA.moderation.sweep()).toBe(1);
    expect(
      (await createApi(nodeB).post('/auth/login', { email: offender.email, password: GOOD_PASSWORD })).status,
    ).toBe(200);
    await eventually(async () => (await deckIds(nodeB, viewer)).includes(offender.userId));
  });

  it('warns: the person gets a notice once, may appeal it once; the session stays', async () => {
    const offender = await createMember(nodeA, 'Gema');
    const reporter = await createMember(nodeA, 'Hugo');
    const reportId = await report(nodeA, reporter, offender, { reason: 'inappropriate' });
    const console = createModerationClient(nodeA, await createModerator(nodeA));
    expect((await console.resolve(reportId, { action: 'warn', reason: 'inappropriate', note: 'Fotos' })).status).toBe(
      200,
    );
    const api = createApi(nodeB);
    expect((await api.get('/auth/validate-session', offender.token)).status).toBe(200);
    const notice = await api.get('/appeals/notice', offender.token);
    expect(notice.body).toMatchObject({ notice: { reason: 'Contenido inapropiado', canAppeal: true } });
    const restrictionId = (notice.body.notice as { restrictionId: string }).restrictionId;
    expect((await api.post('/appeals', { restrictionId, text: 'No lo sabía' }, offender.token)).status).toBe(201);
    expect((await api.post('/appeals', { restrictionId, text: 'Otra' }, offender.token)).status).toBe(409);
    // Someone else cannot appeal it, nor mark it seen.
    expect((await api.post('/appeals', { restrictionId, text: 'Yo' }, reporter.token)).status).toBe(404);
    expect((await api.post('/appeals/notice/seen', { restrictionId }, reporter.token)).status).toBe(404);
    expect((await api.post('/appeals/notice/seen', { restrictionId }, offender.token)).status).toBe(200);
    // Their data export says what they were told and what they wrote; never the moderator's note.
    const exported = await api.get('/account/export', offender.token);
    expect(exported.body.moderation).toEqual([
      expect.objectContaining({
        kind: 'warning',
        reason: 'inappropriate',
        appealText: 'No lo sabía',
        appealStatus: 'open',
      }),
    ]);
    expect(JSON.stringify(exported.body)).not.toContain('Fotos');
    expect((await api.get('/appeals/notice', offender.token)).body).toMatchObject({ notice: null });
  });

  it('takes a profile out of decks when three different people report it within 24 hours, until a moderator reviews it', async () => {
    const reported = await createMember(nodeA, 'Iker');
    const viewer = await createMember(nodeA, 'Julia');
    const [first, second, third] = [
      await createMember(nodeA, 'Kike'),
      await createMember(nodeA, 'Laura'),
      await createMember(nodeA, 'Mario'),
    ];
    await report(nodeA, first, reported);
    await report(nodeA, first, reported, { reason: 'spam' });
    await report(nodeA, second, reported);
    expect(await deckIds(nodeB, viewer)).toContain(reported.userId);
    const thirdId = await report(nodeA, third, reported);
    await eventually(async () => !(await deckIds(nodeB, viewer)).includes(reported.userId));
    const console = createModerationClient(nodeA, await createModerator(nodeA));
    const queued = (await console.queue()).body.reports as {
      id: string;
      isHeld: boolean;
      openReportsAboutPerson: number;
    }[];
    expect(queued.find((item) => item.id === thirdId)).toMatchObject({ isHeld: true, openReportsAboutPerson: 4 });
    expect((await console.resolve(thirdId, { action: 'dismiss', note: 'Denuncias coordinadas' })).status).toBe(200);
    await eventually(async () => (await deckIds(nodeB, viewer)).includes(reported.userId));
    expect((await console.queue()).body.reports as { reported: { userId: string } }[]).not.toContainEqual(
      expect.objectContaining({ reported: expect.objectContaining({ userId: reported.userId }) }),
    );
  });

  it('does not hold a profile for reports spread over more than 24 hours', async () => {
    const reported = await createMember(nodeA, 'Nuria');
    const viewer = await createMember(nodeA, 'Olga');
    await report(nodeA, await createMember(nodeA, 'Paco'), reported);
    clock.advance(13 * 3_600_000);
    await report(nodeA, await createMember(nodeA, 'Quique'), reported);
    clock.advance(13 * 3_600_000);
    await report(nodeA, await createMember(nodeA, 'Raúl'), reported);
    expect(await deckIds(nodeB, viewer)).toContain(reported.userId);
  });

  it('answers bad input with a Spanish 400', async () => {
    const reported = await createMember(nodeA, 'Sara');
    const reportId = await report(nodeA, await createMember(nodeA, 'Tomás'), reported);
    const console = createModerationClient(nodeA, await createModerator(nodeA));
    for (const body of [
      { action: 'suspend', reason: 'spam', note: 'x' },
      { action: 'ban', note: 'x' },
      { action: 'dismiss', note: '   ' },
      { action: 'explode', note: 'x' },
      { action: 'suspend', reason: 'spam', note: 'x', days: 0 },
      { action: 'warn', reason: 'spam', note: 'x', __proto__: { admin: true }, extra: 1 },
    ]) {
      const answer = await console.resolve(reportId, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toMatch(/[áéíóúñ]|Elige|Explica|suspensión/);
    }
    expect((await console.report('no-es-un-id')).status).toBe(400);
    expect((await createApi(nodeA).post('/appeals', { appealToken: 'x.y.z', text: 'Hola' })).status).toBe(400);
    expect((await createApi(nodeA).post('/appeals', { text: 'Hola' })).status).toBe(400);
  });
});
