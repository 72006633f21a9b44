// @setup embedded
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMatchedPair, emitWithAck } from '../helpers/chat-api.ts';
import { createDiscoveryApi } from '../helpers/discovery-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/** The value of one sample line (`name{labels} value`), or undefined. */
function sample(text: string, pattern: RegExp): number | undefined {
  const line = text.split('\n').find((candidate) => pattern.test(candidate));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics (Prometheus)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('reports request latency by route, sockets, acknowledged messages, queues, event-loop delay', async () => {
    const api = createDiscoveryApi(app);
    const { a, conversationId } = await createMatchedPair(api);
    await fetch(`${app.url}/api/health`);
    const socket = await connectSocket(app, { token: a.token });
    try {
      const ack = await emitWithAck<{ ok: boolean }>(socket, 'sendMessage', {
        conversationId,
        text: 'Contado',
        clientId: 'metrics-1',
      });
      expect(ack.ok).toBe(true);
      const response = await fetch(`${app.url}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/plain');
      const text = await response.text();
      expect(
        sample(text, /^entreno_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\}/),
      ).toBe(1);
      expect(sample(text, /^entreno_http_request_duration_seconds_count\{method="POST",route="\/api\/swipes/)).toBe(2);
      expect(sample(text, /^entreno_sockets_connected /)).toBe(1);
      expect(sample(text, /^entreno_messages_acknowledged_total\{via="socket"\}/)).toBe(1);
      expect(sample(text, /^entreno_push_queue_depth /)).toBe(0);
      expect(sample(text, /^nodejs_eventloop_lag_p99_seconds /)).toBeGreaterThanOrEqual(0);
      if (app.database.kind === 'postgres') {
        expect(sample(text, /^entreno_db_pool_connections\{state="total"\}/)).toBeGreaterThan(0);
      }
    } finally {
      socket.close();
    }
  });

  it('answers only direct loopback connections when no token is configured', async () => {
    const relayed = await fetch(`${app.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(relayed.status).toBe(403);
    expect((await relayed.json()).success).toBe(false);
  });

  it('with METRICS_TOKEN, answers the bearer of the token only', async () => {
    const guarded = await startTestApp({ metricsToken: 'scrape-token-0123456789' });
    try {
      expect((await fetch(`${guarded.url}/metrics`)).status).toBe(403);
      const wrong = await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer scrape-token-x' } });
      expect(wrong.status).toBe(403);
      const right = await fetch(`${guarded.url}/metrics`, {
        headers: { authorization: 'Bearer scrape-token-0123456789', 'x-forwarded-for': '203.0.113.9' },
      });
      expect(right.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
