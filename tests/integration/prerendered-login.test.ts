// @setup embedded
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const SHELL = '<!doctype html><title>Entreno</title><div id="root"></div>';
// Over compress-client's 1 KB threshold, like the real page.
const LOGIN = `<!doctype html><title>Entreno</title><div id="root"><main><h1>Iniciar sesión</h1>${'<p>Entreno</p>'.repeat(100)}</main></div>`;

/** The login screen rendered at build time (#19 §4, docs/decisions/0031): served for /login only. */
describe('prerendered /login', () => {
  let app: TestApp;
  let withoutPage: TestApp;

  beforeAll(async () => {
    const clientDir = await mkdtemp(path.join(os.tmpdir(), 'entreno-prerender-'));
    await mkdir(path.join(clientDir, 'assets'));
    await writeFile(path.join(clientDir, 'index.html'), SHELL);
    await writeFile(path.join(clientDir, 'login.html'), LOGIN);
    await writeFile(path.join(clientDir, 'login.html.br'), brotliCompressSync(LOGIN));
    const bareDir = await mkdtemp(path.join(os.tmpdir(), 'entreno-prerender-bare-'));
    await writeFile(path.join(bareDir, 'index.html'), SHELL);
    [app, withoutPage] = await Promise.all([startTestApp({ clientDir }), startTestApp({ clientDir: bareDir })]);
  });
  afterAll(async () => {
    await Promise.all([app?.close(), withoutPage?.close()]);
  });

  it('answers /login, with or without a query, with the rendered page: 200, HTML, no-cache, the CSP', async () => {
    for (const address of ['/login', '/login?error=token_missing']) {
      const response = await fetch(`${app.url}${address}`, { headers: { 'accept-encoding': 'identity' } });
      expect(response.status, address).toBe(200);
      expect(response.headers.get('content-type'), address).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control'), address).toBe('no-cache');
      expect(response.headers.get('content-security-policy'), address).toContain("script-src 'self'");
      expect(await response.text(), address).toBe(LOGIN);
    }
  });

  it('sends the precompressed page to a browser that accepts brotli', async () => {
    const response = await fetch(`${app.url}/login`, { headers: { 'accept-encoding': 'br' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    // fetch decodes it: the same page.
    expect(await response.text()).toBe(LOGIN);
  });

  it('keeps the empty shell for every other page, / included (signed-in people land there too)', async () => {
    for (const address of ['/', '/home', '/register', '/login/otra-cosa']) {
      const response = await fetch(`${app.url}${address}`);
      expect(await response.text(), address).toBe(SHELL);
    }
    const unknown = await fetch(`${app.url}/esto-no-existe`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe(SHELL);
  });

  it('answers /login with the shell when the build has no rendered page', async () => {
    const response = await fetch(`${withoutPage.url}/login`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(SHELL);
  });
});
