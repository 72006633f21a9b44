import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '#shared/chat/chat-schemas';
import { type Api, createApi, GOOD_PASSWORD } from '../helpers/auth-api.ts';
import { emitWithAck, eventually, nextEventMatching } from '../helpers/chat-api.ts';
import { profileBody } from '../helpers/discovery-api.ts';
import { connectSocket, nextEvent, resendUntil } from '../helpers/sockets.ts';
import { createScratchDatabase, type TestApp } from '../helpers/test-app.ts';

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

type Node = { url: string; child: ChildProcess; output: string[] };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** `node --import tsx src/server/main.ts` (no build), ready once /api/health answers. */
async function startNode(env: Record<string, string>): Promise<Node> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node exited (${child.exitCode}):\n${output.join('')}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`node did not start:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, child, output };
}

function kill(node: Node | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (!node || node.child.exitCode !== null || node.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    node.child.once('exit', () => resolve());
    node.child.kill(signal);
  });
}

const asApp = (node: Node) => ({ url: node.url }) as TestApp;

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
  // Shared by both processes, as a shared photo volume would be (VAPID keys are generated here too).
  const dataDir = `/tmp/entreno-two-processes-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await createScratchDatabase(process.env.DATABASE_URL as string);
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL as string,
      REDIS_KEY_PREFIX: `entreno-test:${randomBytes(6).toString('hex')}:`,
      TOKEN_SECRET: randomBytes(32).toString('hex'),
      DEMO_DATA: '0',
      DATA_DIR: dataDir,
    };
    // Both start at once: the migrations' advisory lock lets one migrate while the other waits.
    const started = await Promise.allSettled([startNode(env), startNode(env)]);
    node1 = started[0].status === 'fulfilled' ? started[0].value : undefined;
    node2 = started[1].status === 'fulfilled' ? started[1].value : undefined;
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
  }, 60_000);

  afterAll(async () => {
    await Promise.all([kill(node1), kill(node2)]);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

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
