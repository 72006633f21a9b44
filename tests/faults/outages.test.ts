import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_SEND_LIMIT, MESSAGE_SEND_WINDOW_MS } from '#shared/chat/chat-schemas';
import { createMatchedPair, eventually, type MatchedPair, nextEventMatching } from '../helpers/chat-api.ts';
import { createDiscoveryApi } from '../helpers/discovery-api.ts';
import { type PrivateService, startPrivatePostgres, startPrivateRedis } from '../helpers/private-services.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

type Ack = { ok: boolean; status?: number; data?: { id: string } };

/** A quarter under the account's send limit. */
const SEND_INTERVAL_MS = Math.ceil((MESSAGE_SEND_WINDOW_MS / MESSAGE_SEND_LIMIT) * 1.25);

/**
 * Issue #24 items 6-9, QUALITY 32: two scaled nodes on a PostgreSQL and a Redis of this test's own
 * (never the shared ones); each is stopped abruptly and started again while one user keeps sending.
 * No node crashes, readiness tells the truth, an outage answers 503 with Retry-After, sends are not
 * stalled by Redis, cross-node delivery resumes, and every acknowledged message is stored once.
 */
describe('dependency outages under traffic', () => {
  let postgres: PrivateService;
  let redis: PrivateService;
  let nodeA: TestApp;
  let nodeB: TestApp;
  let pair: MatchedPair;
  let sender: Socket;
  let receiver: Socket;
  const acked: string[] = [];
  const refused: number[] = [];
  let sending = true;
  let traffic: Promise<void> = Promise.resolve();

  const ready = async (node: TestApp) => {
    const response = await fetch(`${node.url}/api/ready`);
    return { status: response.status, body: (await response.json()) as { checks: Record<string, string> } };
  };

  /**
   * One message per SEND_INTERVAL_MS, each waiting for its ack (5 s at most): a fast person, still
   * under the account's send limit (MESSAGE_SEND_LIMIT per window, which counts refused sends too)
   * even when an outage makes every ack come back at once. Faster, a window's 31st send is a 429
   * and the outage checks below would read the limit instead of the outage.
   */
  const keepSending = async () => {
    for (let n = 0; sending; n += 1) {
      const clientId = `fault-${randomBytes(6).toString('hex')}`;
      const ack = (await sender
        .timeout(5000)
        .emitWithAck('sendMessage', { conversationId: pair.conversationId, text: `Mensaje ${n}`, clientId })
        .catch(() => ({ ok: false, status: 0 }))) as Ack;
      if (ack.ok) acked.push(clientId);
      else refused.push(ack.status ?? 0);
      await new Promise((resolve) => setTimeout(resolve, SEND_INTERVAL_MS));
    }
  };

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
    // One deployment: the same database, Redis and token secret on both nodes.
    const overrides = {
      databaseUrl: postgres.url,
      redisUrl: redis.url,
      redisKeyPrefix: 'entreno-faults:',
      tokenSecret: randomBytes(32).toString('hex'),
    };
    nodeA = await startTestApp(overrides);
    nodeB = await startTestApp(overrides);
    pair = await createMatchedPair(createDiscoveryApi(nodeA));
    sender = await connectSocket(nodeA, { token: pair.a.token });
    receiver = await connectSocket(nodeB, { token: pair.b.token });
    traffic = keepSending();
  }, 120_000);

  afterAll(async () => {
    sending = false;
    await traffic;
    sender?.close();
    receiver?.close();
    await Promise.allSettled([nodeA?.close(), nodeB?.close()]);
    await Promise.allSettled([postgres?.destroy(), redis?.destroy()]);
  }, 60_000);

  it('Redis killed: sends keep being acknowledged at once, readiness says so, then cross-node delivery resumes', async () => {
    await eventually(() => acked.length >= 5, 10_000);
    expect((await ready(nodeA)).status).toBe(200);
    await redis.stop();
    const ackedBefore = acked.length;
    const refusedBefore = refused.length;
    // While Redis is away: the node answers, counts limits locally and keeps storing messages.
    await eventually(async () => (await ready(nodeA)).body.checks.redis === 'failing', 10_000);
    expect((await ready(nodeA)).status).toBe(503);
    expect((await fetch(`${nodeA.url}/api/health`)).status).toBe(200);
    await eventually(() => acked.length >= ackedBefore + 20, 15_000);
    expect(refused.length).toBe(refusedBefore);
    await redis.start();
    await eventually(async () => (await ready(nodeA)).status === 200 && (await ready(nodeB)).status === 200, 20_000);
    // Node A's messages reach the socket on node B again (through Redis).
    await eventually(async () => {
      const arrived = nextEventMatching(receiver, 'newMessage', () => true, 2000).then(
        () => true,
        () => false,
      );
      return arrived;
    }, 20_000);
  }, 90_000);

  it('PostgreSQL stopped: nodes stay up, writes answer 503 with Retry-After, readiness says so, all resumes', async () => {
    const api = createDiscoveryApi(nodeA);
    const refusedBefore = refused.length;
    await postgres.stop();
    await eventually(async () => (await ready(nodeA)).body.checks.database === 'failing', 15_000);
    expect((await ready(nodeA)).status).toBe(503);
    expect((await fetch(`${nodeA.url}/api/health`)).status).toBe(200);
    const write = await api.call('PUT', '/settings', {
      token: pair.a.token,
      body: { notifications: { messages: false } },
    });
    expect(write.status, JSON.stringify(write.body)).toBe(503);
    expect(Number(write.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(write.body).toMatchObject({
      success: false,
      message: 'El servicio no está disponible. Inténtalo en unos segundos.',
    });
    // Sends meanwhile are refused as 503 (the outbox's cue to retry), never 500.
    await eventually(() => refused.length >= refusedBefore + 3, 15_000);
    expect(new Set(refused.slice(refusedBefore))).toEqual(new Set([503]));
    await postgres.start();
    await eventually(async () => (await ready(nodeA)).status === 200, 30_000);
    const ackedAfter = acked.length;
    await eventually(() => acked.length >= ackedAfter + 10, 20_000);
  }, 120_000);

  it('every acknowledged message is stored exactly once', async () => {
    sending = false;
    await traffic;
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ client_id: string; copies: number }>(
        'select client_id, count(*)::int as copies from messages where client_id = any($1) group by client_id',
        [acked],
      );
      expect(rows.length).toBe(acked.length);
      expect(rows.every((row) => row.copies === 1)).toBe(true);
    } finally {
      await client.end();
    }
    expect(acked.length).toBeGreaterThan(30);
  }, 60_000);
});
