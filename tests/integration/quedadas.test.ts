// @setup embedded
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import ICAL from 'ical.js';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PushPayload } from '#shared/notifications/push-schemas';
import { QUEDADA_MESSAGES } from '#shared/quedadas/quedada-messages';
import { resolvePushConfig } from '../../src/server/features/push/push-config.ts';
import type { PairSummary, Quedada, QuedadaUpdatedEvent } from '#shared/quedadas/quedada-schemas';
import { createMatchedPair, eventually, type MatchedPair, nextEventMatching } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { type PushServiceStandIn, startPushServiceStandIn } from '../helpers/push-service-stand-in.ts';
import { proposalBody, quedadaCalls } from '../helpers/quedada-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, HOUR, MINUTE } from '../helpers/test-clock.ts';

describe('quedadas (issue #21)', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;
  let calls: ReturnType<typeof quedadaCalls>;
  let outsider: TestUser;
  let standIn: PushServiceStandIn;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    standIn = await startPushServiceStandIn();
    const push = resolvePushConfig(
      { PUSH_ENDPOINT_ALLOWLIST: standIn.origin, VAPID_SUBJECT: 'mailto:push@entreno.example' },
      { isProduction: false, publicOrigin: 'http://localhost' },
    );
    app = await startTestApp({ push: push.config }, { dependencies: { clock } });
    api = createDiscoveryApi(app);
    calls = quedadaCalls(api);
    outsider = await api.userWithProfile({}, 'Olga');
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
    clock.advance(2 * MINUTE);
  });
  afterAll(async () => {
    await app?.close();
    await standIn?.close();
  });

  const connect = async (user: TestUser) => {
    const socket = await connectSocket(app, { token: user.token });
    sockets.push(socket);
    return socket;
  };
  const remindersOf = async (user: TestUser, title: string) => {
    const listed = await api.get('/notifications?type=reminder', user.token);
    return ((listed.body.notifications ?? []) as { title: string; body: string }[]).filter((n) => n.title === title);
  };
  const accepted = async (pair: MatchedPair, overrides: Record<string, unknown> = {}) => {
    const proposed = calls.quedadaOf(
      await calls.propose(pair.a, proposalBody(pair.conversationId, clock.now(), overrides)),
    );
    const answer = await calls.act(pair.b, proposed._id, { action: 'accept' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return calls.quedadaOf(answer);
  };

  it('proposes, counters and accepts live: both members hear every change, the history keeps the first time', async () => {
    const pair = await createMatchedPair(api);
    const [socketA, socketB] = [await connect(pair.a), await connect(pair.b)];
    const heardByB = nextEventMatching<QuedadaUpdatedEvent>(
      socketB,
      'quedadaUpdated',
      (e) => e.quedada.status === 'proposed',
    );
    const body = proposalBody(pair.conversationId, clock.now());
    const created = await calls.propose(pair.a, body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const quedada = calls.quedadaOf(created);
    expect(quedada).toMatchObject({
      status: 'proposed',
      proposerId: pair.a.userId,
      gymName: 'McFit Madrid Centro',
      durationMin: 90,
    });
    expect((await heardByB).quedada._id).toBe(quedada._id);

    // The same clientId again (an outbox replay) stores nothing new and answers 200.
    const replay = await calls.propose(pair.a, body);
    expect(replay.status).toBe(200);
    expect(calls.quedadaOf(replay)._id).toBe(quedada._id);

    const laterStart = new Date(clock.now().getTime() + 50 * HOUR).toISOString();
    const heardByA = nextEventMatching<QuedadaUpdatedEvent>(
      socketA,
      'quedadaUpdated',
      (e) => e.quedada.status === 'countered',
    );
    const countered = await calls.act(pair.b, quedada._id, {
      action: 'counter',
      startsAt: laterStart,
      durationMin: 60,
    });
    expect(countered.status, JSON.stringify(countered.body)).toBe(200);
    expect(calls.quedadaOf(countered)).toMatchObject({
      status: 'countered',
      proposedBy: pair.b.userId,
      startsAt: laterStart,
    });
    expect(calls.quedadaOf(countered).history).toEqual([
      expect.objectContaining({ by: pair.a.userId, startsAt: body.startsAt, durationMin: 90 }),
    ]);
    expect((await heardByA).quedada.version).toBe(2);

    // Now it is b's proposal: b cannot accept it, a can.
    expect((await calls.act(pair.b, quedada._id, { action: 'accept' })).body.message).toBe(
      QUEDADA_MESSAGES.ownProposal,
    );
    const acceptBody = { clientId: randomUUID(), action: 'accept' };
    const accept = await api.post(`/quedadas/${quedada._id}/actions`, acceptBody, pair.a.token);
    expect(calls.quedadaOf(accept).status).toBe('accepted');
    const again = await api.post(`/quedadas/${quedada._id}/actions`, acceptBody, pair.a.token);
    expect(again.status).toBe(200);
    expect(calls.quedadaOf(again).version).toBe(3);

    const history = await calls.list(pair.b, pair.conversationId);
    expect((history.body.quedadas as Quedada[]).map((q) => q.status)).toEqual(['accepted']);
    const upcoming = await api.get('/quedadas?upcoming=1', pair.a.token);
    expect((upcoming.body.quedadas as Quedada[]).map((q) => q._id)).toEqual([quedada._id]);
    const pairs = await api.get('/quedadas/pairs', pair.b.token);
    expect((pairs.body.pairs as PairSummary[]).find((p) => p.conversationId === pair.conversationId)?.next?._id).toBe(
      quedada._id,
    );
    // A second proposal while one is in play is refused.
    const second = await calls.propose(pair.b, proposalBody(pair.conversationId, clock.now()));
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(QUEDADA_MESSAGES.alreadyActive);
  });

  it('only the two members see or act: 404 for anyone else on every route, and no event reaches them', async () => {
    const pair = await createMatchedPair(api);
    const outsiderSocket = await connect(outsider);
    const heard: unknown[] = [];
    outsiderSocket.on('quedadaUpdated', (event) => heard.push(event));
    const quedada = await accepted(pair);
    const routes = [
      () => api.get(`/quedadas/${quedada._id}`, outsider.token),
      () => api.get(`/quedadas/${quedada._id}/calendar`, outsider.token),
      () => calls.list(outsider, pair.conversationId),
      () => api.get(`/quedadas/conversations/${pair.conversationId}/suggestions`, outsider.token),
      () => api.get(`/quedadas/reliability/${pair.a.userId}`, outsider.token),
      () => calls.act(outsider, quedada._id, { action: 'cancel' }),
      () => calls.propose(outsider, proposalBody(pair.conversationId, clock.now())),
    ];
    for (const route of routes) {
      const response = await route();
      expect(response.status, JSON.stringify(response.body)).toBe(404);
    }
    const pairs = await api.get('/quedadas/pairs', outsider.token);
    expect(pairs.body.pairs).toEqual([]);
    // Without a token: 401 everywhere.
    expect((await api.get(`/quedadas/${quedada._id}`)).status).toBe(401);
    expect((await api.post('/quedadas', proposalBody(pair.conversationId, clock.now()))).status).toBe(401);
    // The members' own change still reaches them, and never the outsider.
    const [socketA] = [await connect(pair.a)];
    const heardByA = nextEventMatching<QuedadaUpdatedEvent>(
      socketA,
      'quedadaUpdated',
      (e) => e.quedada.status === 'cancelled',
    );
    await calls.act(pair.b, quedada._id, { action: 'cancel' });
    await heardByA;
    expect(heard).toEqual([]);
  });

  it('refuses bad input with a Spanish 4xx: past time, over 6 h, long gym name, answering a cancelled one', async () => {
    const pair = await createMatchedPair(api);
    const now = clock.now();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ startsAt: new Date(now.getTime() - HOUR).toISOString() }, 400, QUEDADA_MESSAGES.startsInPast],
      [{ durationMin: 361 }, 400, QUEDADA_MESSAGES.duration],
      [{ gymName: 'G'.repeat(51) }, 400, QUEDADA_MESSAGES.gymName],
      [{ gymName: 'G'.repeat(100_000) }, 400, QUEDADA_MESSAGES.gymName],
      [{ activity: '' }, 400, QUEDADA_MESSAGES.activity],
      [{ startsAt: 'mañana' }, 400, QUEDADA_MESSAGES.startsAt],
      [{ conversationId: 'nope' }, 400, QUEDADA_MESSAGES.invalidConversation],
      [{ extra: true }, 400, QUEDADA_MESSAGES.invalidQuedada],
      [{ conversationId: randomUUID() }, 404, QUEDADA_MESSAGES.conversationNotFound],
    ];
    for (const [overrides, status, message] of cases) {
      const response = await calls.propose(pair.a, proposalBody(pair.conversationId, now, overrides));
      expect(response.status, JSON.stringify(overrides).slice(0, 80)).toBe(status);
      expect(response.body).toMatchObject({ success: false, message });
    }
    const broken = await api.call('POST', '/quedadas', { token: pair.a.token, body: '{"clientId":' });
    expect(broken.status).toBeGreaterThanOrEqual(400);
    expect(broken.status).toBeLessThan(500);

    // Null is "no note", "no address" (issue #34: it was refused as a note over 200 characters).
    const proposed = calls.quedadaOf(
      await calls.propose(pair.a, proposalBody(pair.conversationId, now, { note: null, gymAddress: null })),
    );
    expect(proposed.note).toBeNull();
    expect((await calls.act(pair.b, proposed._id, { action: 'dance' })).status).toBe(400);
    expect(
      (await calls.act(pair.b, proposed._id, { action: 'counter', startsAt: now.toISOString(), durationMin: 60 })).body
        .message,
    ).toBe(QUEDADA_MESSAGES.startsInPast);
    expect((await calls.act(pair.b, proposed._id, { action: 'cancel' })).body.message).toBe(
      QUEDADA_MESSAGES.cannotCancel,
    );
    expect((await calls.act(pair.a, proposed._id, { action: 'cancel' })).status).toBe(200);
    const late = await calls.act(pair.b, proposed._id, { action: 'accept' });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(QUEDADA_MESSAGES.cancelled);
    expect((await api.get('/quedadas/not-an-id', pair.a.token)).status).toBe(404);
  });

  it('downloads an .ics with the gym address, a reminder and the right instant', async () => {
    const pair = await createMatchedPair(api, { names: ['Carla', 'Dani'] });
    const quedada = await accepted(pair);
    const response = await fetch(`${app.url}/api/quedadas/${quedada._id}/calendar`, {
      headers: { authorization: `Bearer ${pair.b.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/calendar');
    const event = new ICAL.Event(
      new ICAL.Component(ICAL.parse(await response.text())).getFirstSubcomponent('vevent') ?? undefined,
    );
    expect(event.startDate.toJSDate().toISOString()).toBe(quedada.startsAt);
    expect(event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime()).toBe(90 * MINUTE);
    expect(event.location).toBe('McFit Madrid Centro, Calle de Alcalá 21, Madrid');
    expect(event.summary).toBe('Entreno con Carla · Pierna');
    expect(event.description).toContain('hora de Madrid');
    const alarm = event.component.getFirstSubcomponent('valarm');
    const trigger = alarm?.getFirstPropertyValue('trigger') as ICAL.Duration;
    expect(trigger.toSeconds()).toBe(-2 * 3600);
  });

  it('sends each reminder exactly once however many runners race, then asks "¿Entrenasteis juntos?"; both Sí make a streak', async () => {
    const pair = await createMatchedPair(api, { names: ['Elena', 'Fran'] });
    const put = await api.call('PUT', '/settings', {
      token: pair.b.token,
      body: { quedadas: { reminderMinutes: 30 } },
    });
    expect(put.status).toBe(200);
    const subscription = standIn.createSubscription();
    const subscribed = await api.post(
      '/push/subscriptions',
      { endpoint: subscription.endpoint, keys: subscription.keys },
      pair.a.token,
    );
    expect(subscribed.status).toBe(201);
    const quedada = await accepted(pair);
    const start = new Date(quedada.startsAt).getTime();
    clock.set(new Date(start - 2 * HOUR + MINUTE));
    await Promise.all(Array.from({ length: 6 }, () => app.quedadas.runDueJobs()));
    expect(await remindersOf(pair.a, 'Entreno con Fran')).toHaveLength(1);
    // The web push too, once, and a tap opens the conversation.
    await app.notifications.push.whenIdle();
    const reminderPushes = standIn.received
      .filter((received) => received.subscriptionId === subscription.id)
      .map((received) => received.payload as PushPayload)
      .filter((payload) => payload.title === 'Entreno con Fran');
    expect(reminderPushes).toHaveLength(1);
    expect(reminderPushes[0]).toMatchObject({
      url: `/messages/${pair.conversationId}`,
      tag: `quedada:${quedada._id}:reminder`,
    });
    expect(await remindersOf(pair.b, 'Entreno con Elena')).toHaveLength(0);
    clock.set(new Date(start - 29 * MINUTE));
    await Promise.all(Array.from({ length: 6 }, () => app.quedadas.runDueJobs()));
    expect(await remindersOf(pair.a, 'Entreno con Fran')).toHaveLength(1);
    expect(await remindersOf(pair.b, 'Entreno con Elena')).toHaveLength(1);

    // Too early to confirm.
    expect((await calls.act(pair.a, quedada._id, { action: 'confirm', trained: true })).body.message).toBe(
      QUEDADA_MESSAGES.notEnded,
    );
    clock.set(new Date(start + 91 * MINUTE));
    await Promise.all([app.quedadas.runDueJobs(), app.quedadas.runDueJobs()]);
    expect(await remindersOf(pair.a, '¿Entrenasteis juntos?')).toHaveLength(1);
    expect(await remindersOf(pair.b, '¿Entrenasteis juntos?')).toHaveLength(1);
    expect(calls.quedadaOf(await calls.act(pair.a, quedada._id, { action: 'confirm', trained: true })).status).toBe(
      'accepted',
    );
    const done = calls.quedadaOf(await calls.act(pair.b, quedada._id, { action: 'confirm', trained: true }));
    expect(done.status).toBe('done');
    const pairs = await api.get('/quedadas/pairs', pair.a.token);
    expect((pairs.body.pairs as PairSummary[]).find((p) => p.conversationId === pair.conversationId)?.streakWeeks).toBe(
      1,
    );
    const reliability = await api.get(`/quedadas/reliability/${pair.b.userId}`, pair.a.token);
    expect(reliability.body.reliability).toEqual({ kept: 1, counted: 1 });
    const jobs = await app.quedadas.runDueJobs();
    expect(jobs).toBe(0);
  });

  it('both members confirming at the same moment both succeed, and the quedada ends done', async () => {
    const pair = await createMatchedPair(api, { names: ['Iker', 'Julia'] });
    const quedada = await accepted(pair);
    clock.set(new Date(new Date(quedada.startsAt).getTime() + 2 * HOUR));
    const answers = await Promise.all(
      [pair.a, pair.b].map((member) => calls.act(member, quedada._id, { action: 'confirm', trained: true })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const listed = await api.get(`/quedadas?conversationId=${pair.conversationId}`, pair.a.token);
    const [stored] = listed.body.quedadas as Quedada[];
    expect(stored?.status).toBe('done');
    expect(stored?.confirmations).toEqual({ [pair.a.userId]: true, [pair.b.userId]: true });
  });

  it('a "No" counts against the other; a late cancel against who cancels; the line can be hidden', async () => {
    const pair = await createMatchedPair(api, { names: ['Gema', 'Hugo'] });
    const first = await accepted(pair);
    clock.set(new Date(new Date(first.startsAt).getTime() + 2 * HOUR));
    // Once a session has ended the pair may plan the next one before confirming the last.
    const second = await accepted(pair);
    expect((await calls.act(pair.a, first._id, { action: 'confirm', trained: false })).status).toBe(200);
    clock.set(new Date(new Date(second.startsAt).getTime() - HOUR));
    const cancelled = calls.quedadaOf(await calls.act(pair.a, second._id, { action: 'cancel' }));
    expect(cancelled).toMatchObject({ status: 'cancelled', isLateCancel: true, cancelledBy: pair.a.userId });
    expect((await api.get(`/quedadas/reliability/${pair.b.userId}`, pair.a.token)).body.reliability).toEqual({
      kept: 0,
      counted: 1,
    });
    expect((await api.get(`/quedadas/reliability/${pair.a.userId}`, pair.b.token)).body.reliability).toEqual({
      kept: 0,
      counted: 1,
    });
    await api.call('PUT', '/settings', { token: pair.b.token, body: { quedadas: { showReliability: false } } });
    expect((await api.get(`/quedadas/reliability/${pair.b.userId}`, pair.a.token)).body.reliability).toBeNull();
  });

  it('blocking cancels the quedada in play and its reminders; nothing is sent afterwards', async () => {
    const pair = await createMatchedPair(api, { names: ['Irene', 'Javi'] });
    const quedada = await accepted(pair);
    const blocked = await api.post('/safety/blocks', { userId: pair.b.userId, reason: 'other' }, pair.a.token);
    expect(blocked.status, JSON.stringify(blocked.body)).toBeLessThan(300);
    // A write after the block is refused: by its own guard (403), or, when the block's pair-ended
    // event on the bus (docs/decisions/0020) already swept the quedada, as no longer answerable (409).
    const answer = await calls.act(pair.b, quedada._id, { action: 'cancel' });
    expect([403, 409]).toContain(answer.status);
    clock.set(new Date(new Date(quedada.startsAt).getTime() - HOUR));
    await app.quedadas.runDueJobs();
    expect(await remindersOf(pair.a, 'Entreno con Javi')).toHaveLength(0);
    await eventually(async () => (await app.quedadas.get(pair.a.userId, quedada._id)).status === 'cancelled');
  });

  it('an unmatch announced on the bus (pair-ended) cancels the quedada in play at once', async () => {
    const pair = await createMatchedPair(api, { names: ['Kike', 'Laura'] });
    const quedada = await accepted(pair);
    const unmatched = await api.post(`/messages/conversations/${pair.conversationId}/unmatch`, {}, pair.a.token);
    expect(unmatched.status).toBe(200);
    await app.bus.publish({
      type: 'pair-ended',
      userIds: [pair.a.userId, pair.b.userId],
      conversationIds: [pair.conversationId],
    });
    await eventually(async () => (await app.quedadas.get(pair.b.userId, quedada._id)).status === 'cancelled');
    const jobs = await app.quedadas.jobsOf(quedada._id);
    expect(jobs.every((job) => job.done_at !== null)).toBe(true);
  });

  it('never answers bad quedada input with a 5xx: bodies, ids and queries (fast-check)', async () => {
    const pair = await createMatchedPair(api, { names: ['Mar', 'Nico'] });
    const quedada = calls.quedadaOf(await calls.propose(pair.a, proposalBody(pair.conversationId, clock.now())));
    const valid = proposalBody(pair.conversationId, clock.now());
    const body = fc.oneof(
      fc.anything(),
      fc
        .record({
          key: fc.constantFrom(...Object.keys(valid), 'action', 'trained', '__proto__', 'constructor', 'extra'),
          value: fc.anything(),
        })
        .map(({ key, value }) => ({ ...valid, [key]: value })),
      fc.record({ clientId: fc.string(), action: fc.string(), startsAt: fc.string(), durationMin: fc.anything() }),
    );
    const paths = [
      '/quedadas',
      `/quedadas/${quedada._id}/actions`,
      `/quedadas/${randomUUID()}/actions`,
      '/quedadas/x/actions',
    ];
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(...paths), async (value, path) => {
        clock.advance(3 * 1000);
        const response = await api.call('POST', path, {
          body: JSON.stringify(value ?? null) ?? 'null',
          token: pair.b.token,
        });
        expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
        expect(response.status).toBeGreaterThanOrEqual(200);
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.constantFrom(
          '/quedadas?conversationId=',
          '/quedadas/',
          '/quedadas/reliability/',
          '/quedadas/conversations/',
        ),
        async (id, prefix) => {
          const response = await api.get(`${prefix}${encodeURIComponent(id)}`, pair.a.token);
          expect(response.status, `${prefix}${id} ${JSON.stringify(response.body)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 40 },
    );
  });
});
