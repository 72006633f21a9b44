// @setup embedded
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { devSurfacePlugin, isLoopbackAddress } from '../../src/server/features/dev/dev-surface.ts';
import { createApi, uniquePhone } from '../helpers/auth-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

describe('dev outbox (GET /api/dev/outbox)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists what would have been sent, newest first, filtered by recipient in any spelling', async () => {
    const api = createApi(app);
    const [first, second] = [uniquePhone(), uniquePhone()];
    await api.post('/auth/send-code', { phone: first });
    await api.post('/auth/send-code', { phone: second });
    const all = await api.outbox();
    expect(all.map((entry) => entry.to).slice(0, 2)).toEqual([second, first]);
    expect(all[0]).toMatchObject({
      id: expect.any(Number),
      channel: 'sms',
      subject: null,
      html: null,
      link: null,
      code: expect.stringMatching(/^\d{6}$/),
      createdAt: expect.any(String),
    });
    const spaced = `${first.slice(3, 6)} ${first.slice(6, 9)} ${first.slice(9)}`;
    expect((await api.outbox(spaced)).map((entry) => entry.to)).toEqual([first]);
    expect(await api.outbox('nadie@example.com')).toEqual([]);
  });
});

describe('dev outbox when turned off (production)', () => {
  it('is not there: a JSON 404', async () => {
    const texts: string[] = [];
    const app = await startTestApp(
      { isOutboxEnabled: false },
      {
        dependencies: {
          smsChannel: { kind: 'twilio', send: async (message) => void texts.push(message.text) },
          emailChannel: { kind: 'smtp', send: async () => {} },
        },
      },
    );
    try {
      const api = createApi(app);
      const response = await api.get('/dev/outbox');
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, message: 'La ruta solicitada no existe' });
      expect((await api.post('/auth/send-code', { phone: uniquePhone() })).status).toBe(200);
      expect(texts).toHaveLength(1);
      expect(app.outbox).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});

/**
 * Issue #24 item 4: the development surfaces answer the machine itself only. The server trusts one
 * proxy hop here, so a request can honestly come "from" another address (X-Forwarded-For set by
 * that trusted proxy) — the same way a request through a local reverse proxy would.
 */
describe('development surfaces from the network', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ trustProxy: 1 });
  });
  afterAll(async () => {
    await app?.close();
  });
  const from = (address: string, path: string) =>
    createApi(app).call('GET', path, { headers: { 'x-forwarded-for': address } });

  it('tells loopback addresses from others', () => {
    for (const address of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1']) {
      expect(isLoopbackAddress(address), address).toBe(true);
    }
    for (const address of ['10.0.0.1', '192.168.1.20', '::ffff:10.0.0.1', 'fe80::1', '2001:db8::1', '', undefined]) {
      expect(isLoopbackAddress(address), String(address)).toBe(false);
    }
  });

  it('/api/dev/* is a 404 to another machine, and answers this one', async () => {
    for (const path of ['/dev/outbox', '/dev/outbox?to=ana%40example.com', '/dev/google/certs']) {
      const refused = await from('192.168.1.20', path);
      expect(refused.status, path).toBe(404);
      expect(refused.body).toEqual({ success: false, message: 'La ruta solicitada no existe' });
    }
    expect((await from('127.0.0.1', '/dev/outbox')).status).toBe(200);
    expect((await createApi(app).get('/dev/outbox')).status).toBe(200);
  });

  it('DEV_ROUTES_FROM_NETWORK=1 opens them (the plugin alone, over a bare Fastify and injected addresses)', async () => {
    for (const isOpenToNetwork of [false, true]) {
      const bare = Fastify();
      await bare.register(devSurfacePlugin, { isOpenToNetwork });
      bare.get('/api/dev/outbox', async () => ({ success: true }));
      const answer = await bare.inject({ url: '/api/dev/outbox', remoteAddress: '192.168.1.20' });
      expect(answer.statusCode, `open: ${isOpenToNetwork}`).toBe(isOpenToNetwork ? 200 : 404);
      expect((await bare.inject({ url: '/api/dev/outbox', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
      await bare.close();
    }
  });
});
