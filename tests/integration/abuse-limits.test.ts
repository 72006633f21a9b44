// @setup embedded
import { io as connect, Manager, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages';
import { createMatchedPair, emitWithAck, eventually } from '../helpers/chat-api.ts';
import { createDiscoveryApi, createSignedInUser, type DiscoveryApi } from '../helpers/discovery-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock } from '../helpers/test-clock.ts';

const RATE_LIMITED = {
  ok: false,
  status: 429,
  errorType: 'RATE_LIMITED',
  message: SERVER_MESSAGES.tooManyRequests,
};

/** Rejects when `promise` has not settled within `ms`: "still answers within a few seconds". */
const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)),
  ]);

/** A socket.io-client connection attempt: 'connected', or the refusal's message. */
function tryConnect(app: TestApp, token: string | undefined): Promise<{ socket: Socket; outcome: string }> {
  const socket = connect(app.url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    auth: token ? { token } : {},
  });
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ socket, outcome: 'connected' }));
    socket.once('connect_error', (error) => resolve({ socket, outcome: error.message }));
  });
}

/**
 * Issue #24 items 1-2, QUALITY 31: no user can slow another. Every socket event has a budget per
 * socket and per user, enforced in memory before any I/O; sockets are capped per user and per
 * address; a connection that never authenticates is closed.
 */
describe('socket budgets and the swipe limit', () => {
  // Limit windows follow the app's clock: a still one, so a slow machine cannot split a burst in two.
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;
  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers acknowledged events over budget with RATE_LIMITED, without running them', async () => {
    const { a, conversationId } = await createMatchedPair(api);
    const socket = await connectSocket(app, { token: a.token });
    try {
      const acks = await Promise.all(
        Array.from({ length: 60 }, () => emitWithAck(socket, 'joinConversation', { conversationId })),
      );
      expect(acks.filter((ack) => ack.ok === true).length).toBe(40);
      expect(acks.slice(40)).toEqual(Array.from({ length: 20 }, () => RATE_LIMITED));
    } finally {
      socket.close();
    }
  });

  it("one user's flood of typing and joins leaves another user answered within seconds, and is disconnected", async () => {
    const { a, conversationId } = await createMatchedPair(api, { names: ['Flor', 'Gael'] });
    const bystander = await createSignedInUser(app, 'Irene');
    const flooder = await connectSocket(app, { token: a.token });
    const dropped = new Promise<string>((resolve) => flooder.once('disconnect', resolve));
    for (let event = 0; event < 20_000; event += 1) flooder.emit('typing', { conversationId, isTyping: true });
    for (let event = 0; event < 10_000; event += 1) flooder.emit('joinConversation', { conversationId });
    const answer = await within(
      fetch(`${app.url}/api/auth/validate-session`, { headers: { authorization: `Bearer ${bystander.token}` } }),
      10_000,
      'validate-session during the flood',
    );
    expect(answer.status).toBe(200);
    expect(await within(dropped, 5000, 'the flooder disconnected')).toBe('io server disconnect');
  });

  it('counts per user across sockets: opening another socket does not buy a fresh budget', async () => {
    const { a, conversationId } = await createMatchedPair(api, { names: ['Hugo', 'Inés'] });
    const sockets = [1, 2, 3].map(() => connectSocket(app, { token: a.token }));
    const [one, two, three] = (await Promise.all(sockets)) as [Socket, Socket, Socket];
    const joins = (socket: Socket, count: number) =>
      Promise.all(Array.from({ length: count }, () => emitWithAck(socket, 'joinConversation', { conversationId })));
    try {
      // 40 per socket and 80 per user in a window: two sockets use the user's budget up...
      expect((await joins(one, 40)).every((ack) => ack.ok === true)).toBe(true);
      expect((await joins(two, 40)).every((ack) => ack.ok === true)).toBe(true);
      // ...and a third, with its own per-socket budget untouched, is refused all the same.
      expect(await joins(three, 5)).toEqual(Array.from({ length: 5 }, () => RATE_LIMITED));
    } finally {
      for (const socket of [one, two, three]) socket.close();
    }
  });

  it('lets a person swipe and stops a script: 30 per 10 s, then 429 like the message flood limit', async () => {
    const [swiper, target, other] = await Promise.all([
      api.userWithProfile({}, 'Karen'),
      api.userWithProfile({}, 'Luis'),
      api.userWithProfile({}, 'Marta'),
    ]);
    const swipe = (user: typeof swiper, action: string) =>
      api.post(`/swipes/users/${user.userId}/swipe`, { target_user_id: target.userId, action }, user.token);
    const answers = await Promise.all(Array.from({ length: 31 }, () => swipe(swiper, 'dislike')));
    const limited = answers.filter((answer) => answer.status === 429);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(30);
    expect(limited).toHaveLength(1);
    expect(limited[0]?.body).toEqual({
      success: false,
      message: 'Estás deslizando demasiado rápido. Espera un momento.',
      errorType: 'RATE_LIMIT',
    });
    const retryAfter = Number(limited[0]?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(10);
    // Someone else swipes on.
    expect((await swipe(other, 'like')).status).toBe(200);
  });
});

describe('socket caps', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ socketsPerUser: 3, socketsPerAddress: 6 });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('caps one user’s sockets on a node, and frees the slot when one closes', async () => {
    const user = await createSignedInUser(app, 'Julia');
    const sockets = await Promise.all([1, 2, 3].map(() => connectSocket(app, { token: user.token })));
    const refused = await tryConnect(app, user.token);
    refused.socket.close();
    expect(refused.outcome).toBe(SERVER_MESSAGES.tooManyConnections);
    sockets[0]?.close();
    await eventually(async () => {
      const retry = await tryConnect(app, user.token);
      retry.socket.close();
      return retry.outcome === 'connected';
    });
    for (const socket of sockets) socket.close();
  });

  it('caps connections per address, authenticated or not, before any work', async () => {
    const users = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => createSignedInUser(app, `Persona${n}`)));
    const held: Socket[] = [];
    await eventually(() => app.realtime.io.engine.clientsCount === 0);
    for (const user of users) held.push(await connectSocket(app, { token: user.token }));
    const seventh = await tryConnect(app, users[0]?.token);
    seventh.socket.close();
    expect(seventh.outcome).not.toBe('connected');
    expect(app.realtime.io.engine.clientsCount).toBe(6);
    for (const socket of held) socket.close();
    await eventually(() => app.realtime.io.engine.clientsCount === 0);
    const later = await tryConnect(app, users[0]?.token);
    later.socket.close();
    expect(later.outcome).toBe('connected');
  });

  it('closes a connection that does not authenticate within a few seconds', async () => {
    // The engine connection opens, but no namespace CONNECT (with its token) ever follows.
    const manager = new Manager(app.url, { path: '/socket.io', transports: ['websocket'], reconnection: false });
    const closed = new Promise<string>((resolve) => manager.once('close', (reason) => resolve(String(reason))));
    manager.open();
    expect(await within(closed, 15_000, 'the silent connection closed')).toBeTruthy();
    expect(app.realtime.io.engine.clientsCount).toBe(0);
  });
});
