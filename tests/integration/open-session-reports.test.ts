// @setup embedded
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MESSAGES } from '#shared/chat/chat-messages';
import type { ChatMessage, GroupSummary } from '#shared/chat/chat-schemas';
import type { ReportDetail, ReportQueueItem } from '#shared/moderation/moderation-schemas';
import { OPEN_SESSION_MESSAGES as M, type OpenSession } from '#shared/open-sessions/open-session-schemas';
import { SAFETY_MESSAGES as S } from '#shared/safety/safety-schemas';
import { rowsOf } from '../../src/server/db/rows.ts';
import { eventually, nextEventMatching, recordEvents } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { createModerationClient, createModerator } from '../helpers/moderation-api.ts';
import { createOpenSessionApi, type OpenSessionApi } from '../helpers/open-session-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, DAY, MINUTE } from '../helpers/test-clock.ts';

/**
 * Reports of an open session and of a group chat's message or member, what moderators see and do
 * with them, and blocks between a session's host and its members (docs/decisions/0056, amendment
 * of session 17).
 */
describe('reports and blocks in open sessions and their group chats', () => {
  const clock = createTestClock('2026-04-14T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;
  let sessions: OpenSessionApi;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createDiscoveryApi(app);
    sessions = createOpenSessionApi(api, () => clock.now(), { places: 4 });
  });
  afterAll(async () => {
    await app?.close();
  });

  const report = (user: TestUser, body: Record<string, unknown>) =>
    api.post('/safety/reports', { reason: 'harassment', clientId: randomUUID(), ...body }, user.token);
  const say = async (user: TestUser, conversationId: string, text: string): Promise<ChatMessage> => {
    const sent = await api.post('/messages/messages', { conversationId, text, clientId: randomUUID() }, user.token);
    expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
    return sent.body.data as ChatMessage;
  };
  const reportRows = async (reporterId: string) =>
    rowsOf<{ id: string; reported_id: string; open_session_id: string | null; message_text: string | null }>(
      await app.database.db.execute(sql`select id, reported_id, open_session_id, message_text from reports
        where reporter_id = ${reporterId}::uuid`),
    );
  const stateOf = async (sessionId: string, userId: string) =>
    rowsOf<{ state: string }>(
      await app.database.db.execute(sql`select state from open_session_members
        where session_id = ${sessionId}::uuid and user_id = ${userId}::uuid`),
    )[0]?.state;
  /** A session with `members` in it, and its group chat's id. */
  const sessionWith = async (host: TestUser, members: TestUser[], overrides: Record<string, unknown> = {}) => {
    const session = await sessions.publish(host, overrides);
    for (const member of members) expect((await sessions.write(member, `${session._id}/join`)).status).toBe(200);
    const seen = (await api.get(`/open-sessions/${session._id}`, host.token)).body.session as OpenSession;
    expect(seen.conversationId).toBeTruthy();
    return { session, conversationId: seen.conversationId as string };
  };

  it('reports a session only to those who see it, once per clientId, and its host is the person reported', async () => {
    const host = await api.userWithProfile({}, 'Ana');
    const viewer = await api.userWithProfile({}, 'Bea');
    const blocked = await api.userWithProfile({}, 'Ciro');
    const far = await api.userWithProfile(
      { location: { latitude: 41.3874, longitude: 2.1686, city: 'Barcelona' } },
      'Dani',
    );
    const session = await sessions.publish(host);
    expect((await api.post('/safety/blocks', { userId: blocked.userId }, host.token)).status).toBe(201);

    for (const outsider of [blocked, far]) {
      const refused = await report(outsider, { openSessionId: session._id });
      expect(refused.status, JSON.stringify(refused.body)).toBe(404);
      expect(refused.body.message).toBe(M.notFound);
    }
    const unknown = await report(viewer, { openSessionId: randomUUID() });
    expect(unknown.status).toBe(404);
    const own = await report(host, { openSessionId: session._id });
    expect(own.status).toBe(400);
    expect(own.body.message).toBe(S.cannotReportSelf);
    const someoneElse = await report(viewer, { openSessionId: session._id, userId: far.userId });
    expect(someoneElse.status).toBe(400);
    const junk = await report(viewer, { openSessionId: 'not-an-id' });
    expect(junk.status).toBe(400);
    expect(junk.body.message).toBe(S.invalidSession);
    expect((await report(viewer, {})).body.message).toBe(S.reportTargetRequired);
    expect((await api.post('/safety/reports', { openSessionId: session._id, reason: 'spam' })).status).toBe(401);

    const body = { openSessionId: session._id, reason: 'spam', details: 'Vende suplementos', clientId: randomUUID() };
    const first = await api.post('/safety/reports', body, viewer.token);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.message).toBe(S.reported);
    const replay = await api.post('/safety/reports', body, viewer.token);
    expect(replay.status).toBe(200);
    expect(replay.body.reportId).toBe(first.body.reportId);
    const rows = await reportRows(viewer.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reported_id: host.userId, open_session_id: session._id });
  });

  it('reports a group message or member only from inside the group, keeping the text as it read', async () => {
    const host = await api.userWithProfile({}, 'Elena');
    const bea = await api.userWithProfile({}, 'Fina');
    const carlos = await api.userWithProfile({}, 'Gus');
    const outsider = await api.userWithProfile({}, 'Hilda');
    const { conversationId } = await sessionWith(host, [bea, carlos]);
    const other = await sessionWith(outsider, []);
    const rude = await say(carlos, conversationId, 'Sois todos unos lentos');
    const elsewhere = await say(outsider, other.conversationId, 'Hola');

    // Outside the group: the 404 of an unknown conversation, whatever is named.
    for (const body of [{ messageId: rude._id }, { userId: carlos.userId }]) {
      const refused = await report(outsider, { conversationId, ...body });
      expect(refused.status).toBe(404);
      expect(refused.body.message).toBe(CHAT_MESSAGES.conversationNotFound);
    }
    const wrongGroup = await report(bea, { conversationId, messageId: elsewhere._id });
    expect(wrongGroup.status).toBe(404);
    expect(wrongGroup.body.message).toBe(S.messageNotFound);
    const notMember = await report(bea, { conversationId, userId: outsider.userId });
    expect(notMember.status).toBe(400);
    expect(notMember.body.message).toBe(S.notInGroup);
    const mismatch = await report(bea, { conversationId, messageId: rude._id, userId: host.userId });
    expect(mismatch.status).toBe(400);
    const ownMessage = await say(bea, conversationId, 'Yo llego a las 7');
    expect((await report(bea, { conversationId, messageId: ownMessage._id })).body.message).toBe(S.cannotReportSelf);
    const noGroup = await report(bea, { messageId: rude._id });
    expect(noGroup.status).toBe(400);
    expect(noGroup.body.message).toBe(S.messageNeedsGroup);

    const byMessage = await report(bea, { conversationId, messageId: rude._id, details: 'Insulta' });
    expect(byMessage.status, JSON.stringify(byMessage.body)).toBe(201);
    const byMember = await report(host, { conversationId, userId: carlos.userId, reason: 'spam' });
    expect(byMember.status).toBe(201);
    expect((await reportRows(bea.userId))[0]).toMatchObject({
      reported_id: carlos.userId,
      message_text: 'Sois todos unos lentos',
    });

    // What moderators see: the subject, the message as it read, the group's messages up to then.
    const moderator = await createModerator(app);
    const desk = createModerationClient(app, moderator);
    const queue = (await desk.queue()).body.reports as ReportQueueItem[];
    expect(queue.find((item) => item.id === byMessage.body.reportId)).toMatchObject({
      subject: 'groupMessage',
      message: { id: rude._id, text: 'Sois todos unos lentos' },
    });
    expect(queue.find((item) => item.id === byMember.body.reportId)).toMatchObject({ subject: 'groupMember' });
    const detail = (await desk.report(byMessage.body.reportId as string)).body as ReportDetail;
    expect(detail.messages.map((message) => message.text)).toContain('Sois todos unos lentos');
    expect(detail.openSession).toBeNull();

    // Someone who left the group no longer reports in it; the one who wrote and left stays reportable.
    expect((await api.post(`/groups/${conversationId}/leave`, {}, carlos.token)).status).toBe(200);
    expect((await report(carlos, { conversationId, userId: bea.userId })).status).toBe(404);
    expect((await report(bea, { conversationId, userId: carlos.userId })).status).toBe(201);
  });

  it('puts a session report in the queue with the session, which a moderator removes or whose host they restrict', async () => {
    const host = await api.userWithProfile({}, 'Ines');
    const viewer = await api.userWithProfile({}, 'Juan');
    const session = await sessions.publish(host, { note: 'Solo chicas guapas' });
    const filed = await report(viewer, { openSessionId: session._id, reason: 'inappropriate' });
    expect(filed.status).toBe(201);

    const moderator = await createModerator(app);
    const desk = createModerationClient(app, moderator);
    const item = ((await desk.queue()).body.reports as ReportQueueItem[]).find((r) => r.id === filed.body.reportId);
    expect(item).toMatchObject({
      subject: 'openSession',
      openSessionId: session._id,
      reported: { userId: host.userId },
    });
    const detail = (await desk.report(filed.body.reportId as string)).body as ReportDetail;
    expect(detail.openSession).toMatchObject({ id: session._id, note: 'Solo chicas guapas', status: 'open' });

    const removed = await sessions.write(moderator, `${session._id}/moderation/remove`);
    expect(removed.status).toBe(200);
    const after = (await desk.report(filed.body.reportId as string)).body as ReportDetail;
    expect(after.openSession?.status).toBe('removed');
    expect(after.audit.map((entry) => entry.action)).toContain('open_session_removed');

    const resolved = await desk.resolve(filed.body.reportId as string, {
      action: 'suspend',
      reason: 'inappropriate',
      days: 7,
      note: 'Entreno con texto ofensivo',
    });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect((await api.get('/open-sessions/mine', host.token)).status).toBe(401);
  });

  it('a block between host and member ends their shared session: the host removes, the member leaves', async () => {
    const host = await api.userWithProfile({}, 'Kira');
    const bea = await api.userWithProfile({}, 'Lola');
    const carlos = await api.userWithProfile({}, 'Mario');
    const dora = await api.userWithProfile({}, 'Nuria');
    const { session, conversationId } = await sessionWith(host, [bea, carlos, dora]);

    // The host blocks Bea: out of the session and its group, told as after «Quitar del entreno».
    expect((await api.post('/safety/blocks', { userId: bea.userId }, host.token)).status).toBe(201);
    expect(await stateOf(session._id, bea.userId)).toBe('removed');
    expect((await api.get(`/groups/${conversationId}`, bea.token)).status).toBe(404);
    // Removed and blocked: the session is gone for her, as any session across a block.
    expect((await api.get(`/open-sessions/${session._id}`, bea.token)).status).toBe(404);
    const beaNotices = (await api.get('/notifications', bea.token)).body.notifications as { title: string }[];
    expect(beaNotices.map((n) => n.title)).toContain('Ya no estás en el entreno');

    // Carlos blocks the host (through a report with «Bloquear también»): he leaves, the host is told.
    expect((await report(carlos, { conversationId, userId: host.userId, block: true })).status).toBe(201);
    expect(await stateOf(session._id, carlos.userId)).toBe('left');
    expect((await api.get(`/groups/${conversationId}`, carlos.token)).status).toBe(404);
    const hostNotices = (await api.get('/notifications', host.token)).body.notifications as { body: string }[];
    expect(hostNotices.some((n) => n.body.startsWith('Mario ha dejado tu entreno'))).toBe(true);

    // Two members: nobody is taken out (neither may remove the other); the places stay.
    const eva = await api.userWithProfile({}, 'Olga');
    expect((await sessions.write(eva, `${session._id}/join`)).status).toBe(200);
    expect((await api.post('/safety/blocks', { userId: eva.userId }, dora.token)).status).toBe(201);
    expect(await stateOf(session._id, dora.userId)).toBe('approved');
    expect(await stateOf(session._id, eva.userId)).toBe('approved');
  });

  it("two members: both stay, and the blocker gets the other one's messages without their text", async () => {
    const host = await api.userWithProfile({}, 'Alba');
    const bea = await api.userWithProfile({}, 'Berta');
    const carlos = await api.userWithProfile({}, 'Cosme');
    const { conversationId } = await sessionWith(host, [bea, carlos]);
    expect((await api.post('/safety/blocks', { userId: carlos.userId }, bea.token)).status).toBe(201);
    const [beaSocket, hostSocket] = await Promise.all([
      connectSocket(app, { token: bea.token }),
      connectSocket(app, { token: host.token }),
    ]);
    try {
      const atBea = nextEventMatching<ChatMessage>(beaSocket, 'newMessage', (m) => m.conversationId === conversationId);
      const atHost = nextEventMatching<ChatMessage>(
        hostSocket,
        'newMessage',
        (m) => m.conversationId === conversationId,
      );
      const sent = await say(carlos, conversationId, 'Bea, contesta ya');
      expect(await atBea).toMatchObject({ _id: sent._id, text: '', isHidden: true });
      expect(await atHost).toMatchObject({ _id: sent._id, text: 'Bea, contesta ya' });
      expect((await atHost).isHidden).toBeUndefined();
    } finally {
      beaSocket.close();
      hostSocket.close();
    }
    const page = async (user: TestUser) =>
      (await api.get(`/messages/conversations/${conversationId}/messages`, user.token)).body.messages as ChatMessage[];
    expect((await page(bea)).at(-1)).toMatchObject({ text: '', isHidden: true });
    expect((await page(host)).at(-1)).toMatchObject({ text: 'Bea, contesta ya' });
    const group = async (user: TestUser) =>
      (await api.get(`/groups/${conversationId}`, user.token)).body.group as GroupSummary;
    expect((await group(bea)).lastMessage?.text).toBe('');
    expect((await group(host)).lastMessage?.text).toBe('Bea, contesta ya');
    // Nor is it news to count: Bea's unread leaves it out, in the group and in «Mensajes»; the host's counts it.
    expect((await group(bea)).unreadCount).toBe(0);
    expect((await api.get('/groups/unread-count', bea.token)).body.unreadCount).toBe(0);
    expect((await group(host)).unreadCount).toBe(1);
    expect((await api.get('/groups/unread-count', host.token)).body.unreadCount).toBe(1);
    // Bea is owed no notification of it (the host, away, is); both stay in the session and the group.
    await app.chat.whenDelivered();
    await eventually(async () => {
      const owed = rowsOf<{ n: number }>(
        await app.database.db.execute(sql`select count(*)::int as n from conversation_participants p
          join conversations c on c.id = p.conversation_id
          where c.id = ${conversationId}::uuid and p.left_at is null and p.notified_seq < c.last_seq`),
      );
      return owed[0]?.n === 0;
    });
    await app.chat.whenDelivered();
    const notified = rowsOf<{ user_id: string }>(
      await app.database.db.execute(
        sql`select user_id from notifications where collapse_key = ${`conversation:${conversationId}`}`,
      ),
    ).map((row) => row.user_id);
    expect(notified).toContain(host.userId);
    expect(notified).not.toContain(bea.userId);
    expect((await group(bea)).members).toHaveLength(3);
  });

  it('a member no longer hears the typing of someone they blocked, from the block on', async () => {
    const host = await api.userWithProfile({}, 'Dalia');
    const bea = await api.userWithProfile({}, 'Enma');
    const carlos = await api.userWithProfile({}, 'Fede');
    const { conversationId } = await sessionWith(host, [bea, carlos]);
    const [beaSocket, hostSocket, carlosSocket] = await Promise.all([
      connectSocket(app, { token: bea.token }),
      connectSocket(app, { token: host.token }),
      connectSocket(app, { token: carlos.token }),
    ]);
    type Typing = { userId: string; conversationId: string; isTyping: boolean };
    const typingAtBea = (from: TestUser) =>
      nextEventMatching<Typing>(beaSocket, 'userTyping', (event) => event.userId === from.userId);
    try {
      // Before the block Bea hears Carlos (the group's membership is now known on this node).
      const before = typingAtBea(carlos);
      carlosSocket.emit('typing', { conversationId, isTyping: true });
      expect((await before).conversationId).toBe(conversationId);

      expect((await api.post('/safety/blocks', { userId: carlos.userId }, bea.token)).status).toBe(201);
      const heard = recordEvents(beaSocket);
      carlosSocket.emit('typing', { conversationId, isTyping: true });
      // The host's typing, sent after Carlos's on the same node, is the barrier.
      const barrier = typingAtBea(host);
      hostSocket.emit('typing', { conversationId, isTyping: true });
      await barrier;
      const fromCarlos = heard.filter(
        (event) => event.name === 'userTyping' && (event.payload as Typing).userId === carlos.userId,
      );
      expect(fromCarlos).toEqual([]);
    } finally {
      for (const socket of [beaSocket, hostSocket, carlosSocket]) socket.close();
    }
  });

  it('after the end the record stays and only the group chat follows the block', async () => {
    const host = await api.userWithProfile({}, 'Paula');
    const bea = await api.userWithProfile({}, 'Quique');
    const { session, conversationId } = await sessionWith(host, [bea], {
      startsAt: new Date(clock.now().getTime() + DAY).toISOString(),
    });
    clock.advance(DAY + 90 * MINUTE);
    expect((await api.post('/safety/blocks', { userId: host.userId }, bea.token)).status).toBe(201);
    expect(await stateOf(session._id, bea.userId)).toBe('approved');
    expect((await api.get(`/groups/${conversationId}`, bea.token)).status).toBe(404);
    expect((await api.get(`/groups/${conversationId}`, host.token)).status).toBe(200);
  });

  it('answers any report body about a session or a group with a Spanish 2xx/4xx, never a 5xx (QUALITY 12)', async () => {
    const host = await api.userWithProfile({}, 'Rita');
    // Four reporters in turn: each may report ten times an hour (a 429 is a 4xx too, but says less).
    const reporters = await Promise.all(
      ['Sara', 'Tere', 'Ursula', 'Vera'].map((name) => api.userWithProfile({}, name)),
    );
    const [member] = reporters as [TestUser];
    const { session, conversationId } = await sessionWith(host, reporters);
    let turn = 0;
    const id = fc.oneof(
      fc.constantFrom(session._id, conversationId, host.userId, member.userId, randomUUID()),
      fc.string({ maxLength: 40 }),
      fc.integer(),
      fc.constant(null),
    );
    const body = fc.record(
      {
        userId: id,
        openSessionId: id,
        conversationId: id,
        messageId: id,
        clientId: id,
        reason: fc.oneof(fc.constantFrom('spam', 'harassment'), fc.string({ maxLength: 12 })),
        block: fc.oneof(fc.boolean(), fc.string({ maxLength: 4 })),
        details: fc.string({ maxLength: 20 }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (sent) => {
        const reporter = reporters[turn++ % reporters.length] as TestUser;
        const answer = await api.post('/safety/reports', { block: false, ...sent }, reporter.token);
        expect(answer.status, JSON.stringify({ sent, body: answer.body })).toBeLessThan(500);
        if (answer.status >= 400) expect(answer.body.message).toMatch(/[a-záéíóúñ]/i);
      }),
      { numRuns: 40 },
    );
  });
});
