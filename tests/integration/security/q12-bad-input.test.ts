// @setup embedded
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscoveryApi, type TestUser } from '../../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';

/** QUALITY 12: whatever arrives, a 4xx `{ success:false, message }` in Spanish — never a 5xx. */
describe('Q12 bad input (fast-check over every route)', () => {
  let app: TestApp;
  let user: TestUser;
  let routes: { method: string; path: string }[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    user = await createDiscoveryApi(app).userWithProfile();
    // Every /api route the server has, from its own routing tree.
    const printed = app.http.printRoutes({ commonPrefix: false, includeHooks: false, method: undefined });
    routes = parseRoutes(printed).filter(
      (route) => route.path.startsWith('/api/') && !route.path.startsWith('/api/dev/'),
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  const fill = (path: string, value: string) =>
    path.replace(/:userId|:id|:file/g, () => encodeURIComponent(value)).replace('*', encodeURIComponent(value));

  const checkAnswer = (label: string, status: number, text: string) => {
    expect(status, label).toBeLessThan(500);
    if (status < 400) return;
    const body = JSON.parse(text) as { success?: unknown; message?: unknown };
    expect(body.success, label).toBe(false);
    expect(typeof body.message, label).toBe('string');
    expect(body.message as string, label).not.toMatch(/^Invalid|^Body|^body\/|must be|Unexpected token/);
  };

  const send = async (method: string, path: string, body: string | undefined, contentType: string, token?: string) => {
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': contentType } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: method === 'GET' || method === 'HEAD' ? undefined : body,
    });
    return { status: response.status, text: await response.text() };
  };

  it('finds the routes', () => {
    expect(routes.length).toBeGreaterThan(40);
  });

  const hostile = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.dictionary(
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'userId', 'email', 'text', 'password'),
      fc.anything({ maxDepth: 2 }),
    ),
    fc.string({ maxLength: 40 }).map((value) => ({ [value]: value })),
    fc.constant({ __proto__: { isAdmin: true } }),
  );

  it('random and hostile JSON bodies, params and queries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 10_000 }),
        hostile,
        fc.oneof(fc.string({ maxLength: 30 }), fc.constant('../../etc/passwd'), fc.constant('%00'), fc.uuid()),
        fc.string({ maxLength: 30 }),
        fc.boolean(),
        async (index, body, param, query, isSignedIn) => {
          const route = routes[index % routes.length] as { method: string; path: string };
          const path = `${fill(route.path, param)}?q=${encodeURIComponent(query)}&page=${encodeURIComponent(query)}&limit[]=x`;
          const text = JSON.stringify(body) ?? 'null';
          const answer = await send(
            route.method,
            path,
            text.replace('"__proto__x"', '"__proto__"'),
            'application/json',
            isSignedIn ? user.token : undefined,
          );
          checkAnswer(`${route.method} ${path} ${text.slice(0, 200)}`, answer.status, answer.text);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('broken JSON, huge strings, wrong content types and broken multipart on every route', async () => {
    const bodies: [string, string][] = [
      ['{"a":', 'application/json'],
      ['{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}', 'application/json'],
      [JSON.stringify({ text: 'x'.repeat(900_000), email: 'a'.repeat(100_000) }), 'application/json'],
      ['x'.repeat(1_100_000), 'application/json'],
      ['a=1&b=2', 'application/x-www-form-urlencoded'],
      ['<xml/>', 'text/xml'],
      [
        '--x\r\nContent-Disposition: form-data; name="photos"; filename="a.jpg"\r\n\r\nabc',
        'multipart/form-data; boundary=x',
      ],
      ['garbage', 'multipart/form-data'],
    ];
    for (const route of routes) {
      for (const [body, type] of bodies) {
        const path = fill(route.path, user.userId);
        const answer = await send(route.method, path, body, type, user.token);
        checkAnswer(`${route.method} ${path} ${type} ${body.slice(0, 40)}`, answer.status, answer.text);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

/** Turns `printRoutes` output into method + full path pairs. */
function parseRoutes(printed: string): { method: string; path: string }[] {
  const routes: { method: string; path: string }[] = [];
  const stack: { depth: number; segment: string }[] = [];
  for (const line of printed.split('\n')) {
    const match =
      /^([│ ]*)(?:├──|└──)\s?(.*?)\s*\(([A-Z, ]+)\)\s*$/.exec(line) ?? /^([│ ]*)(?:├──|└──)\s?(.*?)\s*$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length;
    const segment = match[2] ?? '';
    while (stack.length > 0 && (stack.at(-1) as { depth: number }).depth >= depth) stack.pop();
    stack.push({ depth, segment });
    if (match[3]) {
      const path = stack.map((entry) => entry.segment).join('');
      for (const method of match[3].split(',').map((value) => value.trim())) {
        if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, path });
      }
    }
  }
  return routes;
}
