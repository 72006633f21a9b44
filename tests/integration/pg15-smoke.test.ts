// @setup scaled — every migration and the hot statements on DATABASE_URL's PostgreSQL (15 on CI) with Redis
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '#shared/chat/chat-schemas';
import { createMatchedPair, emitWithAck, eventually } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi } from '../helpers/discovery-api.ts';
import { proposalBody, quedadaCalls } from '../helpers/quedada-api.ts';
import { connectSocket, nextEvent } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The integration files run once each, most of them on the embedded PostgreSQL that `npm start`
 * runs (vitest.config.ts). This file is the PostgreSQL 15 side of that choice: every migration
 * applied (the template every test database is copied from), and one pass over the statements the
 * app runs most — the deck, swipes and their undo, the match, a message sent, delivered and read,
 * the conversation list, notifications, a quedada, settings, a block — on the shared server with
 * Redis, as the scaled deployment runs them. The statements' behaviour is tested in depth by the
 * feature files; here a statement that PostgreSQL 15 refuses (syntax or a function newer than 15)
 * fails the run.
 */
const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

type Journal = { entries: { tag: string }[] };

describe.runIf(isScaled)('PostgreSQL 15 smoke: every migration and the hot statements', () => {
  let app: TestApp;
  let api: DiscoveryApi;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await app?.close();
  });

  const rows = async <T>(query: ReturnType<typeof sql>) =>
    (await app.database.db.execute(query)) as unknown as { rows: T[] };

  it('runs on PostgreSQL 15 or newer with Redis, every migration applied', async () => {
    const [version] = (await rows<{ server_version_num: string }>(sql`show server_version_num`)).rows;
    expect(Number(version?.server_version_num)).toBeGreaterThanOrEqual(150_000);
    const journal = JSON.parse(
      readFileSync(new URL('../../src/server/db/migrations/meta/_journal.json', import.meta.url), 'utf8'),
    ) as Journal;
    const [applied] = (
      await rows<{ count: number }>(sql`select count(*)::int as count from drizzle.__drizzle_migrations`)
    ).rows;
    expect(applied?.count).toBe(journal.entries.length);
    const ready = await fetch(`${app.url}/api/ready`);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', redis: 'ok', accepting: 'ok' },
    });
  });

  it('the deck, a swipe and its undo, a superlike, the match', async () => {
    const viewer = await api.userWithProfile({}, 'Nerea');
    const other = await api.userWithProfile({}, 'Óscar');
    const deck = await api.get(`/profiles/${viewer.userId}/recommended?limit=20`, viewer.token);
    expect(deck.status, JSON.stringify(deck.body)).toBe(200);
    const deckIds = (deck.body.profiles as { userId: string }[]).map((profile) => profile.userId);
    expect(deckIds).toContain(other.userId);

    const swipe = (action: string, clientId: string) =>
      api.post(
        `/swipes/users/${viewer.userId}/swipe`,
        { target_user_id: other.userId, action, clientId },
        viewer.token,
      );
    expect((await swipe('dislike', 'smoke-1')).status).toBe(200);
    const undone = await api.post(
      `/swipes/users/${viewer.userId}/undo`,
      { target_user_id: other.userId, swipeClientId: 'smoke-1' },
      viewer.token,
    );
    expect(undone.body).toEqual({ success: true, undone: true });
    expect((await swipe('superlike', 'smoke-2')).status).toBe(200);
    const back = await api.post(
      `/swipes/users/${other.userId}/swipe`,
      { target_user_id: viewer.userId, action: 'like' },
      other.token,
    );
    expect(back.body.match, JSON.stringify(back.body)).toBe(true);
    const matches = await api.get(`/swipes/users/${viewer.userId}/matches`, viewer.token);
    expect(matches.status).toBe(200);
  });

  it('a message sent, delivered and read; the conversation list, the unread count, the sync feed', async () => {
    const pair = await createMatchedPair(api, { names: ['Paula', 'Quique'] });
    const sender = await connectSocket(app, { token: pair.a.token });
    const recipient = await connectSocket(app, { token: pair.b.token });
    sockets.push(sender, recipient);
    const received = nextEvent<ChatMessage>(recipient, 'newMessage');
    const ack = await emitWithAck<{ ok: boolean; data: ChatMessage }>(sender, 'sendMessage', {
      conversationId: pair.conversationId,
      text: 'Hola desde PostgreSQL 15',
      clientId: randomUUID(),
    });
    expect(ack.ok, JSON.stringify(ack)).toBe(true);
    expect((await received)._id).toBe(ack.data._id);
    const unread = async () => (await api.get('/messages/messages/unread/count', pair.b.token)).body.unreadCount;
    expect(await unread()).toBe(1);
    expect(await emitWithAck(recipient, 'markAsDelivered', { conversationId: pair.conversationId })).toMatchObject({
      ok: true,
    });
    expect(
      await emitWithAck(recipient, 'markMessagesRead', {
        conversationId: pair.conversationId,
        messageIds: [ack.data._id],
      }),
    ).toMatchObject({ ok: true });
    await eventually(async () => (await unread()) === 0);
    const thread = await api.get(`/messages/conversations/${pair.conversationId}/messages`, pair.b.token);
    expect(thread.status, JSON.stringify(thread.body)).toBe(200);
    const conversations = await api.get('/messages/conversations', pair.a.token);
    expect(conversations.status).toBe(200);
    expect(JSON.stringify(conversations.body)).toContain('Hola desde PostgreSQL 15');
    const sync = await api.get('/sync', pair.b.token);
    expect(sync.status, JSON.stringify(sync.body)).toBe(200);
  });

  it('notifications, a quedada, settings and a block', async () => {
    const pair = await createMatchedPair(api, { names: ['Rosa', 'Saúl'] });
    const listed = await api.get('/notifications', pair.a.token);
    expect(listed.status).toBe(200);
    const notifications = listed.body.notifications as { _id?: string; id?: string }[];
    expect(notifications.length).toBeGreaterThan(0);
    expect((await api.call('PATCH', '/notifications/read-all', { token: pair.a.token, body: {} })).status).toBe(200);

    const created = await quedadaCalls(api).propose(pair.a, proposalBody(pair.conversationId, new Date()));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await quedadaCalls(api).list(pair.b, pair.conversationId)).status).toBe(200);

    const settings = await api.get('/settings', pair.a.token);
    expect(settings.status).toBe(200);
    const saved = await api.put('/settings', { notifications: { matches: false } }, pair.a.token);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const blocked = await api.post('/safety/blocks', { userId: pair.b.userId, reason: 'harassment' }, pair.a.token);
    expect(blocked.status, JSON.stringify(blocked.body)).toBeLessThan(300);
    const deck = await api.get(`/profiles/${pair.a.userId}/recommended`, pair.a.token);
    expect((deck.body.profiles as { userId: string }[]).map((profile) => profile.userId)).not.toContain(pair.b.userId);
  });
});
