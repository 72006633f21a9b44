// @setup scaled — sessions and revocations across two nodes over Redis
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, GOOD_PASSWORD } from '../helpers/auth-api.ts';
import { eventually } from '../helpers/chat-api.ts';
import { connectSocket, nextEvent } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock } from '../helpers/test-clock.ts';

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

/** Two nodes on one PostgreSQL database and one Redis, as when running scaled (QUALITY 16). */
describe.runIf(isScaled)('two nodes behave as one', () => {
  const clock = createTestClock();
  let nodeA: TestApp;
  let nodeB: TestApp;

  beforeAll(async () => {
    nodeA = await startTestApp({}, { dependencies: { clock } });
    nodeB = await startTestApp(
      {
        databaseUrl: nodeA.config.databaseUrl,
        tokenSecret: nodeA.config.tokenSecret,
        redisKeyPrefix: nodeA.config.redisKeyPrefix,
      },
      { dependencies: { clock } },
    );
  });
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
  });

  it('runs on PostgreSQL and Redis', async () => {
    expect((await createApi(nodeB).get('/health')).body).toMatchObject({ database: 'postgres', realtime: 'redis' });
  });

  it('accepts a token from one node on the other, and a logout on one cuts sockets held by the other', async () => {
    const a = createApi(nodeA);
    const b = createApi(nodeB);
    const account = await a.registerUser();
    const { token } = await b.login(account.email);
    expect((await a.get('/auth/validate-session', token)).status).toBe(200);

    const socket = await connectSocket(nodeB, { token });
    try {
      const invalidated = nextEvent<{ reason: string }>(socket, 'token_invalidated');
      const disconnected = nextEvent<string>(socket, 'disconnect');
      expect((await a.post('/auth/logout', {}, token)).status).toBe(200);
      expect(await invalidated).toMatchObject({ reason: 'logout' });
      expect(await disconnected).toBe('io server disconnect');
      expect((await b.get('/auth/validate-session', token)).status).toBe(401);
    } finally {
      socket.close();
    }
  });

  it("drops a session from every node's cache on logout: the next write is refused at once, reads follow the bus", async () => {
    const a = createApi(nodeA);
    const b = createApi(nodeB);
    const account = await a.registerUser();
    const { token } = await a.login(account.email);
    // Node B caches the live session (a GET trusts the per-node cache, docs/decisions/0018 §2).
    expect((await b.get('/auth/validate-session', token)).status).toBe(200);
    expect((await a.post('/auth/logout', {}, token)).status).toBe(200);
    // A write reads the row: refused on B with no help from the bus.
    expect((await b.post('/auth/logout', {}, token)).status).toBe(401);
    // A read on B converges through the invalidation bus (Redis pub/sub), not the 60 s TTL.
    await eventually(async () => (await b.get('/auth/validate-session', token)).status === 401);
  });

  it('counts rate limits and SMS rules across nodes', async () => {
    const a = createApi(nodeA);
    const b = createApi(nodeB);
    const { email, phone } = await a.registerUser();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await (attempt % 2 ? a : b).post('/auth/login', { email, password: 'Otra&Clave99' });
    }
    expect((await b.post('/auth/login', { email, password: GOOD_PASSWORD })).status).toBe(429);
    // The resend cooldown set by node A's send holds on node B.
    expect((await b.post('/auth/send-code', { phone })).status).toBe(429);
    // The code sent through node A is in the outbox node B lists.
    expect(await b.outbox(phone)).toHaveLength(1);
  });
});
