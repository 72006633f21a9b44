// @setup embedded
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, createApi } from '../helpers/auth-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, HOUR } from '../helpers/test-clock.ts';

const POST_ROUTES = [
  '/auth/check-email',
  '/auth/send-code',
  '/auth/verify-code',
  '/auth/register',
  '/auth/complete-registration',
  '/auth/login',
  '/auth/forgot-password',
  '/auth/validate-reset-token',
  '/auth/reset-password',
  '/auth/update-streak',
  '/auth/logout',
];

/** Bodies shaped like ours but wrong in every way: types, sizes, extra and prototype keys. */
const hostileValue = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  fc.string({ maxLength: 300 }),
  fc.constantFrom('', ' ', 'x'.repeat(5000), '+34', '+34666666666', '000000', '\u0000', '<script>', '__proto__'),
  fc.integer(),
  fc.double(),
  fc.constant(null),
);
const hostileBody = fc.oneof(
  fc.record(
    {
      email: hostileValue,
      password: hostileValue,
      phone: hostileValue,
      code: hostileValue,
      name: hostileValue,
      lastName: hostileValue,
      token: hostileValue,
      newPassword: hostileValue,
      userId: hostileValue,
      rememberMe: hostileValue,
      latitude: hostileValue,
      longitude: hostileValue,
    },
    { requiredKeys: [] },
  ),
  fc.anything({ maxDepth: 2 }),
);

describe('bad input never reaches a 5xx (QUALITY 12)', () => {
  const clock = createTestClock();
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers any JSON body on every access route with a Spanish 2xx/4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POST_ROUTES), hostileBody, async (route, body) => {
        clock.advance(2 * HOUR);
        const response = await api.post(route, body);
        expect(response.status, `${route} ${JSON.stringify(body)}`).toBeLessThan(500);
        if (response.status >= 400) {
          expect(response.body.success).toBe(false);
          expect(response.body.message).toEqual(expect.any(String));
          expect(response.body.message).not.toMatch(/^Invalid /);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('answers broken JSON, prototype pollution and a wrong content type with a 4xx', async () => {
    const cases = [
      { body: '{"email": ', type: 'application/json' },
      { body: '{"__proto__": {"isAdmin": true}, "email": "a@b.es"}', type: 'application/json' },
      { body: '{"constructor": {"prototype": {"x": 1}}}', type: 'application/json' },
      { body: 'email=a@b.es', type: 'application/x-www-form-urlencoded' },
      { body: '[]', type: 'application/json' },
      { body: 'null', type: 'application/json' },
      { body: JSON.stringify({ email: 'a'.repeat(2 * 1024 * 1024) }), type: 'application/json' },
    ];
    for (const route of POST_ROUTES) {
      for (const { body, type } of cases) {
        const response = await api.call('POST', route, { body, headers: { 'content-type': type } });
        expect(response.status, `${route} ${body.slice(0, 40)}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${route} ${body.slice(0, 40)}`).toBeLessThan(500);
        expect(response.body.success).toBe(false);
      }
    }
  });

  it('answers odd outbox queries with a 4xx', async () => {
    const response = await api.call('GET', `/dev/outbox?to=${'x'.repeat(300)}`);
    expect(response.status).toBe(400);
    expect((await api.call('GET', '/dev/outbox?unknown=1')).status).toBe(400);
  });
});
