import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
