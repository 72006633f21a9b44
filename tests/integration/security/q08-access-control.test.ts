// @setup embedded
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMatchedPair, emitWithAck, recordEvents } from '../../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, profileBody, type TestUser } from '../../helpers/discovery-api.ts';
import { connectSocket, nextEvent, roundTrip } from '../../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';

/** QUALITY 8: a third user, a revoked session and an anonymous client get nothing of a pair's data. */
describe('Q08 access-control matrix', () => {
  let app: TestApp;
  let api: DiscoveryApi;
  let a: TestUser;
  let b: TestUser;
  let conversationId: string;
  let messageId: string;
  let notificationId: string;
  const victimPhone = '+34612345678';
  const sockets: Socket[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
    ({ a, b, conversationId } = await createMatchedPair(api, { names: ['Ana', 'Bruno'] }));
    await app.database.db.execute(
      (await import('drizzle-orm')).sql`update users set phone = ${victimPhone} where id = ${a.userId}::uuid`,
    );
    const sent = await api.post(
      '/messages/messages',
      { conversationId, receiverId: b.userId, text: 'secreto' },
      a.token,
    );
    messageId = (sent.body.data as { _id: string })._id;
    const notes = await api.get('/notifications', a.token);
    notificationId = (notes.body.notifications as { id: string }[])[0]?.id as string;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await app?.close();
  });

  const attackers = async () => {
    const third = await api.userWithProfile({}, 'Mallory');
    const revoked = await app.auth.sessions.issueSession(a.userId, { rememberMe: true });
    await app.auth.sessions.revokeSession(
      {
        userId: a.userId,
        sessionId: (
          JSON.parse(Buffer.from(revoked.token.split('.')[1] as string, 'base64url').toString()) as { sid: string }
        ).sid,
      },
      'logout',
    );
    return [
      { name: 'third user', token: third.token as string | undefined },
      { name: 'revoked session of the victim', token: revoked.token },
      { name: 'anonymous', token: undefined },
    ];
  };

  it('HTTP: every call on the victim’s data is refused', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', `/messages/conversations/${conversationId}/messages`],
      ['PATCH', `/messages/conversations/${conversationId}/pin`, { isPinned: true }],
      ['PATCH', `/messages/conversations/${conversationId}/mute`, { isMuted: true }],
      ['PATCH', `/messages/conversations/${conversationId}/archive`, { archived: true }],
      ['PATCH', `/messages/conversations/${conversationId}/read`, {}],
      ['POST', `/messages/conversations/${conversationId}/unmatch`, {}],
      ['POST', '/messages/messages', { conversationId, receiverId: a.userId, text: 'hola' }],
      ['PATCH', `/notifications/${notificationId}/read`, {}],
      ['PATCH', `/notifications/${notificationId}/unread`, {}],
      ['DELETE', `/notifications/${notificationId}`],
      ['PUT', `/profiles/${a.userId}`, profileBody(a.userId, { bio: 'hackeado hackeado hackeado' })],
      ['PUT', `/profiles/${a.userId}/location`, { location: { latitude: 1, longitude: 1, city: 'X' } }],
      ['PUT', `/profiles/${a.userId}/photos/order`, { photos: [] }],
      ['DELETE', `/profiles/${a.userId}/photos/photos/${a.userId}/AAAAAAAAAAAAAAAAAAAAAA.webp`],
      ['GET', `/swipes/users/${a.userId}/matches`],
      ['POST', `/swipes/users/${a.userId}/swipe`, { target_user_id: b.userId, action: 'dislike' }],
      ['GET', `/profiles/${a.userId}/recommended`],
    ];
    for (const attacker of await attackers()) {
      for (const [method, path, body] of calls) {
        const answer = await api.call(method, path, { body, token: attacker.token });
        expect([401, 403, 404], `${attacker.name}: ${method} ${path} → ${answer.status}`).toContain(answer.status);
        expect(JSON.stringify(answer.body)).not.toContain('secreto');
      }
      const upload = await api.upload(a.userId, [{ data: Buffer.from('x') }], attacker.token);
      expect([401, 403, 404], `${attacker.name}: upload`).toContain(upload.status);
    }
    // The victim's own view is unchanged by all of the above.
    const own = await api.get(`/messages/conversations/${conversationId}/messages`, a.token);
    expect((own.body.messages as { text: string }[]).map((message) => message.text)).toEqual(['secreto']);
    expect(((await api.get('/notifications', a.token)).body.notifications as unknown[]).length).toBeGreaterThan(0);
  });

  it('sockets: a third user cannot join, send, type, mark read or receive the pair’s events', async () => {
    const third = await api.userWithProfile({}, 'Eve');
    const eve = await connectSocket(app, { token: third.token });
    const victim = await connectSocket(app, { token: a.token });
    sockets.push(eve, victim);
    const heardByEve = recordEvents(eve);
    const heardByVictim = recordEvents(victim);
    for (const [event, payload] of [
      ['joinConversation', { conversationId }],
      ['sendMessage', { conversationId, text: 'intruso' }],
      ['markMessagesRead', { conversationId }],
      ['markAsDelivered', { conversationId, messageIds: [messageId] }],
      ['messageReceived', { conversationId, messageId }],
    ] as const) {
      const ack = await emitWithAck<{ ok: boolean; status: number }>(eve, event, payload);
      expect(ack, event).toMatchObject({ ok: false });
      expect([400, 404], event).toContain(ack.status);
    }
    eve.emit('typing', { conversationId, isTyping: true });
    const heard = nextEvent(victim, 'newMessage');
    await api.post('/messages/messages', { conversationId, receiverId: a.userId, text: 'para Ana' }, b.token);
    // Barrier: the later message reached the victim; then both connections are flushed.
    await heard;
    for (const socket of [eve, victim]) await roundTrip(socket);
    expect(heardByEve.map((event) => event.name)).toEqual([]);
    expect(heardByVictim.map((event) => event.name)).not.toContain('typing');
    expect(heardByVictim.map((event) => event.name)).toContain('newMessage');
  });

  it('no public-facing answer carries the victim’s e-mail, phone, exact coordinates or hash', async () => {
    const viewer = b;
    const exact = { latitude: 40.41234567, longitude: -3.70198765 };
    await api.put(`/profiles/${a.userId}/location`, { location: { ...exact, city: 'Madrid' } }, a.token);
    const paths = [
      `/profiles/${a.userId}`,
      `/messages/conversations/profile/${a.userId}`,
      `/profiles/${viewer.userId}/recommended`,
      `/swipes/users/${viewer.userId}/matches`,
      '/messages/conversations',
      `/messages/conversations/${conversationId}/messages`,
      '/sync',
      '/notifications',
    ];
    for (const path of paths) {
      const answer = await api.get(path, viewer.token);
      const text = JSON.stringify(answer.body);
      for (const secret of [
        a.email,
        victimPhone,
        '612345678',
        '40.41234567',
        '-3.70198765',
        '40.4123',
        '-3.7019',
        'argon2',
        'passwordHash',
      ]) {
        expect(text, `${path} leaks ${secret}`).not.toContain(secret);
      }
    }
  });
});
