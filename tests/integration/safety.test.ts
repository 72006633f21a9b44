// @setup embedded
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SAFETY_MESSAGES } from '#shared/safety/safety-schemas';
import { GOOD_PASSWORD, uniqueEmail } from '../helpers/auth-api.ts';
import { createMatchedPair, emitWithAck, eventually, nextEventMatching, recordEvents } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { connectSocket, nextEvent, roundTrip } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, SECOND } from '../helpers/test-clock.ts';

describe('safety: blocks, reports, export, account deletion (docs/decisions/0012)', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;
  const sockets: Socket[] = [];
  const connect = async (user: TestUser) => {
    const socket = await connectSocket(app, { token: user.token });
    sockets.push(socket);
    return socket;
  };
  const count = async (query: ReturnType<typeof sql>) => {
    const result = (await app.database.db.execute(query)) as unknown as { rows: { n: number | string }[] };
    return Number(result.rows[0]?.n);
  };

  /** `POST /api/messages/messages` as the token's owner (the receiver is whoever else is in it). */
  const sendHttp = async (conversationId: string, text: string, token: string) => {
    const owner = [...users.values()].find((user) => user.token === token);
    const receiverId = [...users.values()].find(
      (user) => user.token !== token && user.conversations.has(conversationId),
    )?.userId;
    return api.post('/messages/messages', { conversationId, receiverId: receiverId ?? owner?.userId, text }, token);
  };
  const users = new Map<string, TestUser & { conversations: Set<string> }>();
  const remember = (conversationId: string, ...people: TestUser[]) => {
    for (const person of people) {
      const known = users.get(person.userId) ?? { ...person, conversations: new Set<string>() };
      known.conversations.add(conversationId);
      users.set(person.userId, known);
    }
  };

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createDiscoveryApi(app);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
    clock.advance(11 * SECOND);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a block works both ways everywhere: deck, matches, conversations, sending, sockets, profile', async () => {
    const pair = await createMatchedPair(api, { names: ['Ana', 'Bruno'] });
    const { a, b, conversationId } = pair;
    remember(conversationId, a, b);
    const socketA = await connect(a);
    const socketB = await connect(b);
    await emitWithAck(socketA, 'joinConversation', { conversationId });
    await emitWithAck(socketB, 'joinConversation', { conversationId });
    const sent = await emitWithAck<{ ok: boolean; data: { _id: string } }>(socketA, 'sendMessage', {
      conversationId,
      text: 'Hola',
    });
    expect(sent.ok).toBe(true);

    const endedA = nextEventMatching<{ conversationId: string; status?: string }>(
      socketA,
      'conversationUpdated',
      (event) => event.status === 'blocked',
    );
    const endedB = nextEventMatching<{ conversationId: string; status?: string }>(
      socketB,
      'conversationUpdated',
      (event) => event.status === 'blocked',
    );
    const blocked = await api.post('/safety/blocks', { userId: b.userId, reason: 'harassment' }, a.token);
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(201);
    expect(await endedA).toEqual({ conversationId, status: 'blocked' });
    expect(await endedB).toEqual({ conversationId, status: 'blocked' });

    for (const [me, other] of [
      [a, b],
      [b, a],
    ] as const) {
      expect((await api.get(`/profiles/${other.userId}`, me.token)).status).toBe(404);
      const matches = await api.get(`/swipes/users/${me.userId}/matches`, me.token);
      expect(JSON.stringify(matches.body)).not.toContain(other.userId);
      const deck = await api.get(`/profiles/${me.userId}/recommended`, me.token);
      expect(JSON.stringify(deck.body)).not.toContain(other.userId);
      const list = await api.get('/messages/conversations', me.token);
      expect(JSON.stringify(list.body)).not.toContain(other.userId);
      const refused = await sendHttp(conversationId, 'Oye', me.token);
      expect(refused.status).toBe(403);
    }

    // Sockets: nothing of one reaches the other any more (typing, receipts, messages).
    const heardByA = recordEvents(socketA);
    socketB.emit('typing', { conversationId, isTyping: true });
    await emitWithAck(socketB, 'markMessagesRead', { conversationId });
    await emitWithAck(socketB, 'messageReceived', { conversationId, messageId: sent.data._id });
    const refusedAck = await emitWithAck<{ ok: boolean; status: number }>(socketB, 'sendMessage', {
      conversationId,
      text: '¿Por qué?',
    });
    expect(refusedAck).toMatchObject({ ok: false, status: 403 });
    // Barrier: socketB's events were all handled (their acks came back); flush socketA's connection.
    await roundTrip(socketA);
    expect(heardByA.map((event) => event.name)).toEqual([]);

    // The block list shows it; unblocking leaves the conversation ended.
    const listed = await api.get('/safety/blocks', a.token);
    expect(listed.body.blocks).toEqual([expect.objectContaining({ userId: b.userId, name: 'Bruno' })]);
    expect((await api.get('/safety/blocks', b.token)).body.blocks).toEqual([]);
    const unblocked = await api.call('DELETE', `/safety/blocks/${b.userId}`, { token: a.token });
    expect(unblocked.status).toBe(200);
    expect((await api.call('DELETE', `/safety/blocks/${b.userId}`, { token: a.token })).status).toBe(404);
    const after = await sendHttp(conversationId, 'Hola', a.token);
    expect(after.status).toBe(403);
  });

  it('no new notifications or matches between a blocked pair', async () => {
    const a = await api.userWithProfile({}, 'Carla');
    const b = await api.userWithProfile({}, 'Diego');
    expect((await api.post('/safety/blocks', { userId: a.userId }, b.token)).status).toBe(201);
    const like = await api.post(
      `/swipes/users/${a.userId}/swipe`,
      { target_user_id: b.userId, action: 'like' },
      a.token,
    );
    expect(like.status).toBe(404);
    const notifications = await api.get('/notifications', b.token);
    expect(JSON.stringify(notifications.body)).not.toContain('match');
  });

  it('refuses blocking oneself, unknown users and bad input, in Spanish', async () => {
    const a = await api.userWithProfile({}, 'Elena');
    const self = await api.post('/safety/blocks', { userId: a.userId }, a.token);
    expect(self).toMatchObject({ status: 400, body: { success: false, message: SAFETY_MESSAGES.cannotBlockSelf } });
    const unknown = await api.post('/safety/blocks', { userId: '00000000-0000-4000-8000-000000000000' }, a.token);
    expect(unknown.status).toBe(404);
    const bad = await api.post('/safety/blocks', { userId: 12 }, a.token);
    expect(bad).toMatchObject({ status: 400, body: { success: false, message: SAFETY_MESSAGES.invalidUser } });
    expect((await api.post('/safety/blocks', { userId: a.userId })).status).toBe(401);
  });

  it('stores a report for moderation, optionally blocking too; reports are rate-limited', async () => {
    const a = await api.userWithProfile({}, 'Fran');
    const b = await api.userWithProfile({}, 'Gema');
    const report = await api.post(
      '/safety/reports',
      { userId: b.userId, reason: 'fake_profile', details: 'Usa fotos de otra persona', block: true },
      a.token,
    );
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    const stored = (await app.database.db.execute(
      sql`select reporter_id, reported_id, reason, details, status from reports where id = ${report.body.reportId as string}::uuid`,
    )) as unknown as { rows: Record<string, unknown>[] };
    expect(stored.rows[0]).toEqual({
      reporter_id: a.userId,
      reported_id: b.userId,
      reason: 'fake_profile',
      details: 'Usa fotos de otra persona',
      status: 'open',
    });
    expect((await api.get(`/profiles/${a.userId}`, b.token)).status).toBe(404);
    const long = await api.post(
      '/safety/reports',
      { userId: b.userId, reason: 'spam', details: 'x'.repeat(1001) },
      a.token,
    );
    expect(long).toMatchObject({ status: 400, body: { message: SAFETY_MESSAGES.detailsTooLong } });
    const wrongReason = await api.post('/safety/reports', { userId: b.userId, reason: 'boring' }, a.token);
    expect(wrongReason).toMatchObject({ status: 400, body: { message: SAFETY_MESSAGES.invalidReason } });
    let last = 0;
    for (let index = 0; index < 12; index += 1) {
      last = (await api.post('/safety/reports', { userId: b.userId, reason: 'spam' }, a.token)).status;
    }
    expect(last).toBe(429);
  });

  it('exports everything about the caller and nothing private of others', async () => {
    const { a, b, conversationId } = await createMatchedPair(api, { names: ['Hugo', 'Irene'] });
    remember(conversationId, a, b);
    await sendHttp(conversationId, 'Mensaje de Hugo', a.token);
    await sendHttp(conversationId, 'Respuesta de Irene', b.token);
    await api.put('/settings', { notifications: { matches: false } }, a.token);
    const response = await fetch(`${app.url}/api/account/export`, { headers: { authorization: `Bearer ${a.token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="entreno-datos.json"');
    expect(response.headers.get('cache-control')).toContain('no-store');
    const text = await response.text();
    const data = JSON.parse(text);
    expect(data.user).toMatchObject({ id: a.userId, email: a.email });
    expect(data.user.passwordHash).toBeUndefined();
    expect(text).not.toMatch(/argon2/);
    expect(data.profile).toMatchObject({ userId: a.userId, name: 'Hugo' });
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.swipes).toEqual([expect.objectContaining({ targetUserId: b.userId, action: 'like' })]);
    expect(data.matches).toEqual([expect.objectContaining({ otherUserId: b.userId })]);
    expect(data.conversations).toEqual([expect.objectContaining({ id: conversationId, otherUserId: b.userId })]);
    expect(data.messages.map((message: { text: string }) => message.text)).toEqual([
      'Mensaje de Hugo',
      'Respuesta de Irene',
    ]);
    expect(data.notifications.length).toBeGreaterThan(0);
    expect(Object.keys(data)).toEqual(
      expect.arrayContaining(['settings', 'pushSubscriptions', 'blocks', 'reports', 'photos']),
    );
    // Nothing of the other user's private data: e-mail, sessions, profile coordinates beyond own.
    expect(text).not.toContain(b.email);
    expect(text).not.toContain(b.token);
    expect((await api.get('/account/export')).status).toBe(401);
  });

  it('deleting an account removes its data, ends the other side and kills its sessions and sockets', async () => {
    const email = uniqueEmail('borrar');
    const created = await app.auth.users.createUser({
      name: 'Julia',
      lastName: 'Prueba',
      email,
      phone: null,
      password: GOOD_PASSWORD,
    });
    const { token } = await app.auth.sessions.issueSession(created.id, { rememberMe: true });
    const julia: TestUser = { userId: created.id, token, email };
    const profile = await api.post(
      '/profiles',
      { ...(await import('../helpers/discovery-api.ts')).profileBody(julia.userId, { name: 'Julia' }) },
      token,
    );
    expect(profile.status).toBe(201);
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c33' } })
      .jpeg()
      .toBuffer();
    const uploaded = await api.upload(julia.userId, [{ data: jpeg }], token);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBeLessThan(300);
    const photoKey = ((await api.get(`/profiles/${julia.userId}`, token)).body.profile as { photos: string[] })
      .photos[0] as string;
    expect((await fetch(`${app.url}/${photoKey}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    const other = await api.userWithProfile({}, 'Karim');
    const { conversationId } = await createMatchedPair(api, { a: julia, b: other });
    remember(conversationId, julia, other);
    await sendHttp(conversationId, 'Soy Julia', token);
    await sendHttp(conversationId, 'Soy Karim', other.token);
    await api.post(
      '/push/subscriptions',
      {
        endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
        keys: {
          p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
          auth: 'tBHItJI5svbpez7KI4CCXg',
        },
      },
      token,
    );
    await api.post('/safety/reports', { userId: other.userId, reason: 'other' }, token);

    const socketJulia = await connect(julia);
    const socketOther = await connect(other);
    const invalidated = nextEvent<{ reason: string }>(socketJulia, 'token_invalidated');
    const ended = nextEventMatching<{ conversationId: string; status?: string }>(
      socketOther,
      'conversationUpdated',
      (event) => event.conversationId === conversationId && event.status === 'unmatched',
    );

    const withoutPassword = await api.call('DELETE', '/account', { body: { confirmation: 'ELIMINAR' }, token });
    expect(withoutPassword).toMatchObject({ status: 400, body: { message: SAFETY_MESSAGES.passwordRequired } });
    const wrong = await api.call('DELETE', '/account', { body: { password: 'Otra&Clave99' }, token });
    expect(wrong.status).toBe(403);
    const deleted = await api.call('DELETE', '/account', { body: { password: GOOD_PASSWORD }, token });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await invalidated).toMatchObject({ reason: 'revoked' });
    await ended;

    expect((await api.get('/settings', token)).status).toBe(401);
    expect((await api.post('/auth/login', { email, password: GOOD_PASSWORD })).status).toBe(401);
    expect(
      (await fetch(`${app.url}/${photoKey}`, { headers: { authorization: `Bearer ${other.token}` } })).status,
    ).toBe(404);
    expect(await app.database.db.execute(sql`select 1`)).toBeTruthy();
    const id = julia.userId;
    expect(await count(sql`select count(*) as n from profiles where user_id = ${id}::uuid`)).toBe(0);
    expect(await count(sql`select count(*) as n from messages where sender_id = ${id}::uuid`)).toBe(0);
    expect(await count(sql`select count(*) as n from sessions where user_id = ${id}::uuid`)).toBe(0);
    expect(await count(sql`select count(*) as n from push_subscriptions where user_id = ${id}::uuid`)).toBe(0);
    expect(await count(sql`select count(*) as n from notifications where user_id = ${id}::uuid`)).toBe(0);
    expect(await count(sql`select count(*) as n from user_settings where user_id = ${id}::uuid`)).toBe(0);
    expect(
      await count(
        sql`select count(*) as n from users where id = ${id}::uuid and (email = ${email} or password_hash is not null)`,
      ),
    ).toBe(0);
    // The report stays for moderation, anonymised.
    expect(
      await count(
        sql`select count(*) as n from reports where reported_id = ${other.userId}::uuid and reporter_id is null`,
      ),
    ).toBe(1);

    // The other side: the conversation is ended, with only their own messages.
    await eventually(async () => {
      const list = await api.get('/messages/conversations', other.token);
      const found = (list.body.conversations as { conversationId: string; status: string }[]).find(
        (conversation) => conversation.conversationId === conversationId,
      );
      return found?.status === 'unmatched';
    });
    const thread = await api.get(`/messages/conversations/${conversationId}/messages`, other.token);
    expect((thread.body.messages as { text: string }[]).map((message) => message.text)).toEqual(['Soy Karim']);
    expect((await sendHttp(conversationId, '¿Hola?', other.token)).status).toBe(403);
    expect((await api.get(`/profiles/${id}`, other.token)).status).toBe(404);
  });

  it('tells the client how a deletion is confirmed: the password, or ELIMINAR for Google-only accounts', async () => {
    const clara = await app.auth.users.createUser({
      name: 'Clara',
      lastName: 'Prueba',
      email: uniqueEmail('clave'),
      phone: null,
      password: GOOD_PASSWORD,
    });
    const withPassword = await app.auth.sessions.issueSession(clara.id, { rememberMe: true });
    expect(await api.get('/account/deletion', withPassword.token)).toMatchObject({
      status: 200,
      body: { success: true, method: 'password' },
    });
    const email = uniqueEmail('google');
    const created = await app.auth.users.createUser({
      name: 'Gala',
      lastName: 'Google',
      email,
      phone: null,
      password: null,
    });
    const { token } = await app.auth.sessions.issueSession(created.id, { rememberMe: true });
    expect(await api.get('/account/deletion', token)).toMatchObject({
      status: 200,
      body: { success: true, method: 'confirmation' },
    });
    expect((await api.get('/account/deletion')).status).toBe(401);
    const wrongWord = await api.call('DELETE', '/account', { body: { confirmation: 'eliminar' }, token });
    expect(wrongWord).toMatchObject({ status: 400, body: { message: SAFETY_MESSAGES.deleteConfirmation } });
    const deleted = await api.call('DELETE', '/account', { body: { confirmation: 'ELIMINAR' }, token });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect((await api.get('/account/deletion', token)).status).toBe(401);
  });
});
