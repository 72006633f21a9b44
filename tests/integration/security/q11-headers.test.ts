// @setup embedded
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscoveryApi } from '../../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';

/** QUALITY 11: CSP, nosniff, no-store on the API, HSTS in production — on every kind of answer. */
describe('Q11 headers', () => {
  let app: TestApp;
  let production: TestApp;
  let photoPath = '';

  beforeAll(async () => {
    const clientDir = await mkdtemp(path.join(os.tmpdir(), 'entreno-q11-'));
    await mkdir(path.join(clientDir, 'assets'));
    await writeFile(
      path.join(clientDir, 'index.html'),
      '<!doctype html><title>Entreno</title><script type="module" src="/assets/app.js"></script>',
    );
    await writeFile(path.join(clientDir, 'assets', 'app.js'), 'console.log(1);');
    app = await startTestApp({ clientDir });
    production = await startTestApp({ clientDir, env: 'production', publicOrigin: 'https://entreno.example' });
    const api = createDiscoveryApi(app);
    const user = await api.userWithProfile();
    const jpeg = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#3a3' } })
      .jpeg()
      .toBuffer();
    await api.upload(user.userId, [{ data: jpeg }], user.token);
    const profile = await api.get(`/profiles/${user.userId}`, user.token);
    photoPath = `/${(profile.body.profile as { photos: string[] }).photos[0]}`;
  });
  afterAll(async () => {
    await Promise.all([app?.close(), production?.close()]);
  });

  const kinds = () => [
    { name: 'API JSON', path: '/api/health', isApi: true },
    { name: 'API error', path: '/api/settings', isApi: true },
    { name: 'API 404', path: '/api/no-such-route', isApi: true },
    { name: 'static file', path: '/assets/app.js', isApi: false },
    { name: 'SPA fallback', path: '/messages/123', isApi: false },
    { name: 'photo', path: photoPath, isApi: false },
  ];

  it('every answer carries the CSP and nosniff; API answers are no-store', async () => {
    for (const kind of kinds()) {
      const response = await fetch(`${app.url}${kind.path}`);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, kind.name).toContain("object-src 'none'");
      expect(csp, kind.name).toContain("frame-ancestors 'none'");
      // The socket's own origin only, never any host (issue #24 item 5).
      expect(/connect-src ([^;]*)/.exec(csp)?.[1], kind.name).toBe(
        `'self' ${app.config.publicOrigin.replace('http:', 'ws:')}`,
      );
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? /default-src ([^;]*)/.exec(csp)?.[1] ?? '';
      expect(scriptSrc, kind.name).not.toContain("'unsafe-inline'");
      expect(scriptSrc, kind.name).not.toContain("'unsafe-eval'");
      expect(response.headers.get('x-content-type-options'), kind.name).toBe('nosniff');
      if (kind.isApi) expect(response.headers.get('cache-control'), kind.name).toContain('no-store');
      expect(response.headers.get('strict-transport-security'), kind.name).toBeNull();
    }
  });

  it('production adds HSTS on every kind of answer', async () => {
    for (const kind of kinds().filter((entry) => entry.name !== 'photo')) {
      const response = await fetch(`${production.url}${kind.path}`);
      expect(response.headers.get('strict-transport-security'), kind.name).toMatch(/max-age=\d{7,}/);
      expect(response.headers.get('content-security-policy'), kind.name).toContain("object-src 'none'");
      expect(response.headers.get('content-security-policy'), kind.name).toContain(
        "connect-src 'self' wss://entreno.example;",
      );
    }
  });
});
