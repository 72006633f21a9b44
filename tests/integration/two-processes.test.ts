// @setup scaled — two server processes on one PostgreSQL and Redis
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '#shared/chat/chat-schemas';
import { type Api, createApi, GOOD_PASSWORD } from '../helpers/auth-api.ts';
import { emitWithAck, eventually, nextEventMatching } from '../helpers/chat-api.ts';
import { createDiscoveryApi, profileBody } from '../helpers/discovery-api.ts';
import { connectSocket, nextEvent, resendUntil } from '../helpers/sockets.ts';
import {
  asTestApp,
  type NodeProcess,
  scaledNodeEnv,
  startNodeProcess,
  stopNodeProcess,
} from '../helpers/node-process.ts';
import { createScratchDatabase } from '../helpers/test-app.ts';

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

type Node = NodeProcess;
const asApp = asTestApp;
const kill = stopNodeProcess;

/** A user registered through the wizard on `api`, with a profile (a 30-year-old in Madrid). */
async function userWithProfile(api: Api, name: string) {
  const account = await api.registerUser({ name });
  const { token } = await api.login(account.email);
  const created = await api.post('/profiles', profileBody(account.userId, { name }), token);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { ...account, token };
}

/** QUALITY 16 with real processes: two servers on one PostgreSQL database and one Redis. */
describe.runIf(isScaled)('two server processes on PostgreSQL and Redis', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let node1: Node | undefined;
  let node2: Node | undefined;
  // One DATA_DIR each: nothing the nodes share may live there (secrets and photos are in the database).
  const dataDirs = [1, 2].map((n) => `/tmp/entreno-two-processes-${randomBytes(4).toString('hex')}-${n}`);

  beforeAll(async () => {
    database = await createScratchDatabase(process.env.DATABASE_URL as string);
    const env = scaledNodeEnv(database.url);
    // Both start at once: the migrations' advisory lock lets one migrate while the other waits, and
    // both race to generate the token secret and the VAPID keys (the first insert wins).
    const [first, second] = await Promise.allSettled([
      startNodeProcess({ ...env, DATA_DIR: dataDirs[0] as string }),
      startNodeProcess({ ...env, DATA_DIR: dataDirs[1] as string }),
    ]);
    node1 = first.status === 'fulfilled' ? first.value : undefined;
    node2 = second.status === 'fulfilled' ? second.value : undefined;
    for (const outcome of [first, second]) if (outcome.status === 'rejected') throw outcome.reason;
  }, 60_000);

  afterAll(async () => {
    await Promise.all([kill(node1), kill(node2)]);
    await database?.drop();
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('with only DATABASE_URL and REDIS_URL, both sign alike and publish one VAPID key, generated once', async () => {
    const api1 = createApi(asApp(node1 as Node));
    const api2 = createApi(asApp(node2 as Node));
    const account = await api1.registerUser();
    const { token } = await api1.login(account.email);
    expect((await api2.get('/auth/validate-session', token)).status).toBe(200);
    const other = await api2.login(account.email);
    expect((await api1.get('/auth/validate-session', other.token)).status).toBe(200);

    const key1 = (await api1.get('/push/public-key')).body.publicKey;
    const key2 = (await api2.get('/push/public-key')).body.publicKey;
    expect(key1).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(key2).toBe(key1);

    const client = new pg.Client({ connectionString: database?.url });
    await client.connect();
    try {
      const { rows } = await client.query('select name from server_secrets order by name');
      expect(rows.map((row) => row.name)).toEqual(['token-secret', 'vapid-keys']);
    } finally {
      await client.end();
    }
    for (const dataDir of dataDirs) {
      expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(false);
      expect(existsSync(path.join(dataDir, 'vapid.json'))).toBe(false);
    }
  });

  it('a photo uploaded through one node is served by the other; deletions remove the bytes everywhere', async () => {
    const api1 = createDiscoveryApi(asApp(node1 as Node));
    const api2 = createDiscoveryApi(asApp(node2 as Node));
    const user = await userWithProfile(api1, 'Paula');
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#884422' } })
      .png()
      .toBuffer();
    const upload = await api1.upload(user.userId, [{ data: photo }, { data: photo }], user.token);
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const [first, second] = upload.body.photoKeys as string[];
    const served = await fetch(`${(node2 as Node).url}/${first}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format).toBe('webp');

    const deleted = await api2.call(
      'DELETE',
      `/profiles/${user.userId}/photos/${encodeURIComponent(first as string)}`,
      {
        token: user.token,
      },
    );
    expect(deleted.body).toEqual({ success: true, photoKeys: [second] });
    for (const key of [first as string, (first as string).replace('.webp', '.thumb.webp')]) {
      expect((await fetch(`${(node1 as Node).url}/${key}`)).status).toBe(404);
    }
    expect((await fetch(`${(node1 as Node).url}/${second}`)).status).toBe(200);

    // Deleting the account through node 2 removes the remaining bytes for node 1 too.
    const gone = await api2.call('DELETE', '/account', { body: { password: GOOD_PASSWORD }, token: user.token });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    await eventually(async () => (await fetch(`${(node1 as Node).url}/${second}`)).status === 404);
    const client = new pg.Client({ connectionString: database?.url });
    await client.connect();
    try {
      const { rows } = await client.query('select count(*)::int as n from photo_blobs where key like $1', [
        `photos/${user.userId}/%`,
      ]);
      expect(rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  });

  it('a message, typing, receipts, a notification and unread counts cross processes', async () => {
    const api1 = createApi(asApp(node1 as Node));
    const api2 = createApi(asApp(node2 as Node));
    const a = await userWithProfile(api1, 'Ana');
    const b = await userWithProfile(api2, 'Bruno');
    expect(
      (await api1.post(`/swipes/users/${a.userId}/swipe`, { target_user_id: b.userId, action: 'like' }, a.token))
        .status,
    ).toBe(200);
    const matched = await api2.post(
      `/swipes/users/${b.userId}/swipe`,
      { target_user_id: a.userId, action: 'like' },
      b.token,
    );
    expect(matched.body.match, JSON.stringify(matched.body)).toBe(true);
    const { conversationId } = matched.body.matchData as { conversationId: string };

    const socketA = await connectSocket(asApp(node1 as Node), { token: a.token });
    const socketB = await connectSocket(asApp(node2 as Node), { token: b.token });
    try {
      const received = nextEvent<ChatMessage>(socketB, 'newMessage');
      const notified = nextEventMatching<{ type?: string }>(socketB, 'notification', () => true);
      const unread = nextEvent<{ unreadCount?: number; totalUnread?: number }>(socketB, 'unreadCountUpdated');
      const ack = await emitWithAck<{ ok: boolean; data: ChatMessage }>(socketA, 'sendMessage', {
        conversationId,
        text: 'Hola desde el proceso 1',
        clientId: 'two-processes-1',
      });
      expect(ack).toMatchObject({ ok: true, data: { seq: 1 } });
      expect(await received).toEqual(ack.data);
      expect(await unread).toBeTruthy();
      expect(await notified).toBeTruthy();
      await eventually(async () => {
        const count = await api2.get('/messages/messages/unread/count', b.token);
        return count.body.unreadCount === 1;
      });

      const typing = resendUntil(nextEvent(socketA, 'userTyping'), () =>
        socketB.emit('typing', { conversationId, isTyping: true }),
      );
      expect(await typing).toEqual({ userId: b.userId, conversationId, isTyping: true });

      const read = nextEvent(socketA, 'messagesRead');
      await emitWithAck(socketB, 'markMessagesRead', { conversationId, messageIds: [ack.data._id] });
      expect(await read).toMatchObject({ messageIds: [ack.data._id], status: 'read' });
      expect((await api1.get('/messages/messages/unread/count', b.token)).body.unreadCount).toBe(0);
    } finally {
      socketA.close();
      socketB.close();
    }
  });

  it('a session revoked on one process is refused on the other, whose socket is told and dropped', async () => {
    const api1 = createApi(asApp(node1 as Node));
    const api2 = createApi(asApp(node2 as Node));
    const account = await api1.registerUser();
    const { token } = await api2.login(account.email);
    const socket = await connectSocket(asApp(node2 as Node), { token });
    try {
      const invalidated = nextEvent<{ reason: string }>(socket, 'token_invalidated');
      const disconnected = nextEvent<string>(socket, 'disconnect');
      expect((await api1.post('/auth/logout', {}, token)).status).toBe(200);
      expect(await invalidated).toMatchObject({ reason: 'logout' });
      expect(await disconnected).toBe('io server disconnect');
      expect((await api2.get('/auth/validate-session', token)).status).toBe(401);
    } finally {
      socket.close();
    }
  });

  it('counts login failures across processes', async () => {
    const api1 = createApi(asApp(node1 as Node));
    const api2 = createApi(asApp(node2 as Node));
    const { email } = await api1.registerUser();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await (attempt % 2 ? api1 : api2).post('/auth/login', { email, password: 'Otra&Clave99' });
    }
    expect((await api2.post('/auth/login', { email, password: GOOD_PASSWORD })).status).toBe(429);
    expect((await api1.post('/auth/login', { email, password: GOOD_PASSWORD })).status).toBe(429);
  });

  it('after kill -9 of process 1, process 2 still serves', async () => {
    const api2 = createApi(asApp(node2 as Node));
    const account = await api2.registerUser();
    const { token } = await api2.login(account.email);
    const socket = await connectSocket(asApp(node2 as Node), { token });
    try {
      await kill(node1, 'SIGKILL');
      expect(node1?.child.signalCode).toBe('SIGKILL');
      expect((await api2.get('/health')).status).toBe(200);
      expect((await api2.get('/auth/validate-session', token)).status).toBe(200);
      expect(socket.connected).toBe(true);
      const again = await api2.login(account.email);
      expect(again.token).toBeTruthy();
    } finally {
      socket.close();
    }
  });
});
