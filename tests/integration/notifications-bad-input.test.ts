// @setup embedded
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, createApi } from '../helpers/auth-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const hostileValue = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  fc.string({ maxLength: 300 }),
  fc.constantFrom('', ' ', 'x'.repeat(5000), '\u0000', '__proto__', 'http://169.254.169.254/', 'true', '-1', '1e9'),
  fc.integer(),
  fc.double(),
  fc.constant(null),
);
const section = fc.oneof(fc.dictionary(fc.string({ maxLength: 20 }), hostileValue, { maxKeys: 4 }), hostileValue);
const hostileBody = fc.oneof(
  fc.record(
    {
      notifications: section,
      privacy: section,
      search: fc.oneof(
        fc.record({ maxDistance: hostileValue, preferredGender: hostileValue }, { requiredKeys: [] }),
        section,
      ),
      cookies: section,
      theme: hostileValue,
      twoFactor: hostileValue,
      endpoint: hostileValue,
      keys: fc.oneof(fc.record({ p256dh: hostileValue, auth: hostileValue }, { requiredKeys: [] }), hostileValue),
      expirationTime: hostileValue,
    },
    { requiredKeys: [] },
  ),
  fc.anything({ maxDepth: 2 }),
);
const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('0', '-1', '1', '20', '101', '1e3', 'true', 'false', 'match', '%00', '__proto__'),
);
const hostileQuery = fc.dictionary(
  fc.oneof(fc.constantFrom('page', 'limit', 'type', 'isRead'), fc.string({ maxLength: 10 })),
  queryValue,
  { maxKeys: 4 },
);

/** Notification, push and settings calls answer anything with a Spanish 2xx/4xx (QUALITY 12). */
describe('bad input on notifications, push and settings never reaches a 5xx', () => {
  let app: TestApp;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = createApi(app);
    const account = await api.registerUser();
    token = (await api.login(account.email)).token;
  });
  afterAll(async () => {
    await app?.close();
  });

  const expectSpanish4xx = (response: Awaited<ReturnType<Api['call']>>, label: string) => {
    expect(response.status, label).toBeLessThan(500);
    if (response.status >= 400) {
      expect(response.body.success, label).toBe(false);
      expect(response.body.message, label).not.toMatch(/^Invalid /);
    }
  };

  it('answers any JSON body', async () => {
    const routes = [
      ['PUT', '/settings'],
      ['POST', '/push/subscriptions'],
      ['DELETE', '/push/subscriptions'],
      ['POST', '/dev/notifications'],
    ] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), hostileBody, async ([method, path], body) => {
        const response = await api.call(method, path, { token, body });
        expectSpanish4xx(response, `${method} ${path} ${JSON.stringify(body)?.slice(0, 200)}`);
        // Only the known push services (none of which the generator can produce) are ever saved.
        if (path === '/push/subscriptions' && method === 'POST') expect(response.status).not.toBe(201);
      }),
      { numRuns: 300 },
    );
  });

  it('answers any query and any notification id', async () => {
    await fc.assert(
      fc.asyncProperty(hostileQuery, fc.string({ maxLength: 60 }), async (query, id) => {
        const list = await api.get(`/notifications?${new URLSearchParams(query)}`, token);
        expectSpanish4xx(list, `query ${JSON.stringify(query)}`);
        const path = `/notifications/${encodeURIComponent(id)}`;
        for (const [method, suffix] of [
          ['PATCH', '/read'],
          ['PATCH', '/unread'],
          ['DELETE', ''],
        ] as const) {
          expectSpanish4xx(await api.call(method, `${path}${suffix}`, { token }), `${method} ${path}${suffix}`);
        }
      }),
      { numRuns: 150 },
    );
  });
});
