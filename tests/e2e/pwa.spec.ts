import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type APIRequestContext, chromium, expect, type Page, test, SERVICE_WORKER } from './helpers/test.ts';
import { matchedPair, pageFor } from './helpers/chat-setup.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './helpers/chromium.ts';

/** The PWA contract (QUALITY 18): manifest, icons, installability, offline shell. */

type ManifestIcon = { src: string; sizes: string; type?: string; purpose?: string };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** PNG colour types with an alpha channel (grey + alpha, RGBA). */
const PNG_ALPHA_COLOUR_TYPES = new Set([4, 6]);

/** Width, height and colour type from a PNG's IHDR chunk, which always comes first. */
function readPngHeader(bytes: Buffer): { width: number; height: number; hasAlpha: boolean } {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature').toBe(true);
  expect(bytes.toString('ascii', 12, 16)).toBe('IHDR');
  return {
    width: bytes.readUInt32BE(16),
    height: bytes.readUInt32BE(20),
    hasAlpha: PNG_ALPHA_COLOUR_TYPES.has(bytes.readUInt8(25)),
  };
}

async function fetchPng(request: APIRequestContext, url: string) {
  const response = await request.get(url);
  expect(response.status(), url).toBe(200);
  expect(response.headers()['content-type'], url).toBe('image/png');
  return readPngHeader(await response.body());
}

/**
 * Waits until the service worker is active and controls the page. The app registers /sw.js on
 * its own (the last test checks that); registering the same script again here is a no-op, and
 * keeps the worker's own tests independent of when the app gets round to it.
 */
async function waitForControllingWorker(page: Page): Promise<void> {
  const scriptUrl = await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.scriptURL ?? '';
  });
  expect(new URL(scriptUrl).pathname).toBe('/sw.js');
  // clientsClaim() takes over on activation; a reload covers a claim that raced the page load.
  const isControlled = () => page.evaluate(() => navigator.serviceWorker.controller !== null);
  if (!(await isControlled())) await page.reload();
  await expect.poll(isControlled).toBe(true);
}

test('the manifest is linked, served and complete', async ({ page, request }) => {
  await page.goto('/login');
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(manifestHref).toBe('/manifest.webmanifest');
  const themeMeta = await page.locator('meta[name="theme-color"]').getAttribute('content');

  const response = await request.get('/manifest.webmanifest');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/manifest+json');
  const manifest = (await response.json()) as Record<string, unknown>;
  expect(manifest.name).toMatch(/^Entreno/);
  expect(manifest.short_name).toBe('Entreno');
  expect(manifest.lang).toBe('es');
  expect(manifest.start_url).toBe('/');
  expect(manifest.scope).toBe('/');
  expect(manifest.display).toBe('standalone');
  expect(manifest.theme_color).toBe('#f97316');
  expect(manifest.theme_color).toBe(themeMeta);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);

  const icons = manifest.icons as ManifestIcon[];
  const iconFor = (sizes: string, purpose: string) =>
    icons.find((icon) => icon.sizes === sizes && (icon.purpose ?? 'any').split(' ').includes(purpose));
  const required = [
    { sizes: '192x192', purpose: 'any' },
    { sizes: '512x512', purpose: 'any' },
    { sizes: '512x512', purpose: 'maskable' },
  ];
  for (const { sizes, purpose } of required) {
    const icon = iconFor(sizes, purpose);
    expect(icon, `${purpose} icon ${sizes}`).toBeDefined();
    if (!icon) continue;
    expect(icon.type).toBe('image/png');
    const png = await fetchPng(request, icon.src);
    expect(`${png.width}x${png.height}`, icon.src).toBe(sizes);
    // A maskable icon is cut to any shape by the launcher: it must be full-bleed.
    if (purpose === 'maskable') expect(png.hasAlpha, `${icon.src} is opaque`).toBe(false);
  }
});

test('the manifest has Spanish shortcuts with icons, phone screenshots of the real app and focus-existing launches', async ({
  request,
}) => {
  const manifest = (await (await request.get('/manifest.webmanifest')).json()) as {
    shortcuts: Array<{ name: string; short_name: string; description: string; url: string; icons: ManifestIcon[] }>;
    screenshots: Array<{ src: string; sizes: string; type: string; form_factor: string; label: string }>;
    launch_handler: { client_mode: string[] | string };
    display_override: string[];
    description: string;
  };
  expect(manifest.shortcuts.map((shortcut) => [shortcut.name, shortcut.url])).toEqual([
    ['Conectar', '/home'],
    ['Mensajes', '/messages'],
    ['Notificaciones', '/notifications'],
  ]);
  for (const shortcut of manifest.shortcuts) {
    const [icon] = shortcut.icons;
    expect(icon, `${shortcut.name} icon`).toBeDefined();
    const png = await fetchPng(request, icon?.src ?? '');
    expect(`${png.width}x${png.height}`).toBe(icon?.sizes);
    expect(png.width).toBeGreaterThanOrEqual(96);
  }
  expect(manifest.screenshots.length).toBeGreaterThanOrEqual(1);
  for (const screenshot of manifest.screenshots) {
    expect(screenshot.form_factor).toBe('narrow');
    expect(screenshot.type).toBe('image/png');
    const png = await fetchPng(request, screenshot.src);
    expect(`${png.width}x${png.height}`, screenshot.src).toBe(screenshot.sizes);
    // Chromium's rules for the rich install sheet: a phone's proportions, no side over 2.3× the other.
    expect(png.height).toBeGreaterThan(png.width);
    expect(png.height / png.width).toBeLessThanOrEqual(2.3);
  }
  // Every text the install sheet reads is Spanish (no English left from a template).
  const texts = [
    manifest.description,
    ...manifest.shortcuts.flatMap((shortcut) => [shortcut.name, shortcut.short_name, shortcut.description]),
    ...manifest.screenshots.map((screenshot) => screenshot.label),
  ];
  for (const text of texts) expect(text).not.toMatch(/\b(the|your|and|with|open|home|screen)\b/i);
  expect([manifest.launch_handler.client_mode].flat()[0]).toBe('focus-existing');
  expect(manifest.display_override).toContain('standalone');
});

test('each shortcut opens its screen for a signed-in person', async ({ browser, request }) => {
  const manifest = (await (await request.get('/manifest.webmanifest')).json()) as {
    shortcuts: Array<{ name: string; url: string }>;
  };
  const { a } = await matchedPair(request);
  const page = await pageFor(browser, a);
  const landmarks: Record<string, RegExp> = {
    Conectar: /^Conectar$/,
    Mensajes: /^Mensajes \(\d+\)$/,
    Notificaciones: /^Notificaciones$/,
  };
  for (const shortcut of manifest.shortcuts) {
    await page.goto(shortcut.url);
    await expect(page).toHaveURL(new RegExp(`${shortcut.url}$`));
    await expect(page.getByRole('heading', { level: 1, name: landmarks[shortcut.name] })).toBeVisible();
  }
  await page.context().close();
});

test('the page links a favicon and a 180 × 180 touch icon', async ({ page, request }) => {
  await page.goto('/login');
  const touchIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
  expect(touchIcon).not.toBeNull();
  const png = await fetchPng(request, touchIcon ?? '');
  expect([png.width, png.height]).toEqual([180, 180]);

  const favicon = await page.locator('link[rel="icon"]').getAttribute('href');
  const faviconResponse = await request.get(favicon ?? '');
  expect(faviconResponse.status()).toBe(200);
  expect(faviconResponse.headers()['content-type']).toContain('image/svg+xml');
  expect(await faviconResponse.text()).toContain('<svg');
});

test('Chromium finds the app installable once the worker is active', async ({ baseURL }) => {
  // Test contexts are off the record, which Chromium never offers to install ("in-incognito"),
  // so this test opens a regular profile of its own.
  const profileDir = mkdtempSync(path.join(tmpdir(), 'entreno-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    baseURL,
    serviceWorkers: 'allow',
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/login');
    await waitForControllingWorker(page);
    const cdp = await context.newCDPSession(page);

    const { errors } = await cdp.send('Page.getAppManifest');
    expect(errors).toEqual([]);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    // What the browser parsed (not only what the server sent): the install sheet reads these.
    const { manifest } = (await cdp.send('Page.getAppManifest')) as unknown as {
      manifest?: {
        shortcuts?: Array<{ name: string; url: string }>;
        screenshots?: Array<{ url: string; formFactor?: string; label?: string }>;
        launchHandler?: { clientMode?: string };
      };
    };
    if (manifest) {
      expect(manifest.shortcuts?.map((shortcut) => shortcut.name)).toEqual(['Conectar', 'Mensajes', 'Notificaciones']);
      expect(manifest.screenshots?.length).toBeGreaterThan(0);
      // CDP spells the enum as Chromium does internally ("kNarrow").
      for (const screenshot of manifest.screenshots ?? []) expect(screenshot.formFactor).toMatch(/^k?narrow$/i);
    }
  } finally {
    await context.close();
    // Chromium's helpers may still be writing the profile (its code cache) just after the
    // close under load: retry instead of failing the journey on ENOTEMPTY.
    rmSync(profileDir, { recursive: true, force: true, maxRetries: 5 });
  }
});

test('the shell loads offline once the worker controls the page', { tag: SERVICE_WORKER }, async ({
  page,
  context,
}) => {
  await page.goto('/login');
  await waitForControllingWorker(page);

  // Online, the API goes to the network: the worker neither answers nor caches it.
  const onlineHealth = page.waitForResponse((response) => response.url().endsWith('/api/health'));
  expect(await page.evaluate(() => fetch('/api/health').then((response) => response.status))).toBe(200);
  expect((await onlineHealth).fromServiceWorker()).toBe(false);
  // Online, a path that is not an app route reaches the server, which answers 404.
  expect((await page.goto('/esto-no-existe'))?.status()).toBe(404);

  await context.setOffline(true);
  for (const path of ['/login', '/home', '/messages/abc', '/login?error=token_missing']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    expect(response?.fromServiceWorker(), `${path} answered by the worker`).toBe(true);
    await expect(page).toHaveTitle(/Entreno/);
    await expect(page.locator('#root'), path).not.toBeEmpty();
  }

  // Offline, an unknown path falls back to the shell, whose router shows the 404 page.
  const unknown = await page.goto('/esto-no-existe');
  expect(unknown?.fromServiceWorker()).toBe(true);
  await expect(page.locator('#root')).not.toBeEmpty();

  // The API is never served from the worker, so offline it fails like any network call.
  const offlineHealth = await page.evaluate(() =>
    fetch('/api/health').then(
      (response) => `status ${response.status}`,
      () => 'network error',
    ),
  );
  expect(offlineHealth).toBe('network error');
  await expect(page.goto('/api/health')).rejects.toThrow(/ERR_INTERNET_DISCONNECTED|ERR_FAILED/);

  await context.setOffline(false);
  await page.goto('/login');
  expect(await page.evaluate(() => fetch('/api/health').then((response) => response.status))).toBe(200);
});

test('a new version waits until the page asks for it, then takes control', { tag: SERVICE_WORKER }, async ({
  page,
}) => {
  await page.goto('/login');
  await waitForControllingWorker(page);
  // Registering the worker under another script URL installs a second worker for the same
  // scope, as a deploy would.
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js?next-version', { scope: '/' });
  });
  const waitingState = () =>
    page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.waiting?.state ?? null);
  await expect.poll(waitingState).toBe('installed');
  // Never activated behind the user's back (QUALITY 21): still waiting once offered, and after a
  // reload, which offers it again.
  await expect(page.getByText('Nueva versión disponible')).toBeVisible();
  expect(await waitingState()).toBe('installed');
  await page.reload();
  await expect(page.getByText('Nueva versión disponible')).toBeVisible();
  expect(await waitingState()).toBe('installed');

  const isTakenOver = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration('/');
    const waiting = registration?.waiting;
    if (!waiting) return false;
    const controllerChanged = new Promise<boolean>((resolve) => {
      navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true), { once: true });
      setTimeout(() => resolve(false), 10_000);
    });
    waiting.postMessage({ type: 'SKIP_WAITING' });
    return (await controllerChanged) && navigator.serviceWorker.controller === waiting;
  });
  expect(isTakenOver).toBe(true);
  expect(await waitingState()).toBeNull();
});

test('the app registers /sw.js by itself', { tag: SERVICE_WORKER }, async ({ page }) => {
  await page.goto('/login');
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration('/');
        return (registration?.active ?? registration?.installing ?? registration?.waiting)?.scriptURL ?? null;
      }),
    )
    .toMatch(/\/sw\.js$/);
});

test('the built files go out precompressed, and the worker script is revalidated', async ({ request }) => {
  const html = await (await request.get('/login')).text();
  // The entry and the chunks the page preloads; the build leaves files under 1 KB uncompressed.
  const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1] as string);
  expect(scripts.length, 'the entry script and its preloaded chunks in login.html').toBeGreaterThan(1);
  let compressed = 0;
  for (const url of scripts) {
    const plain = await request.get(url, { headers: { 'accept-encoding': 'identity' } });
    const script = await request.get(url, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(script.status(), url).toBe(200);
    expect(script.headers()['cache-control'], url).toContain('immutable');
    if ((await plain.body()).length < 1024) continue;
    expect(script.headers()['content-encoding'], url).toBe('br');
    expect(script.headers()['vary'], url).toContain('accept-encoding');
    compressed += 1;
  }
  expect(compressed, 'scripts of 1 KB or more, served as Brotli').toBeGreaterThan(0);
  const worker = await request.get('/sw.js', { headers: { 'accept-encoding': 'gzip' } });
  expect(worker.headers()['content-encoding']).toBe('gzip');
  expect(worker.headers()['cache-control']).toBe('no-cache');
});
