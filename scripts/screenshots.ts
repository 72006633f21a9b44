/**
 * The app's pictures, taken from the real built app (issue #22), never drawn by hand:
 * - public/screenshots/*.png — the manifest's `screenshots` (the browser's rich install sheet);
 * - docs/screenshots/install-*.png — the install card and the iPhone sheet, for the docs.
 *
 * `npm run build && npm run screenshots`: seeds a few demo people and the demo account into a
 * private embedded database, starts the built server on it, signs in as demo@demo.entreno.app in
 * Chromium on a 390 × 844 phone viewport and saves each screen.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { MANIFEST_SCREENSHOTS, SCREENSHOT_VIEWPORT } from '../manifest/manifest.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/helpers/chromium.ts';
import { startServerProcess } from '../tests/e2e/helpers/server.ts';
import { fakeInstallPrompt, IPHONE_SAFARI_USER_AGENT, markMomentOfValue } from '../tests/e2e/helpers/install.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DEMO = { email: 'demo@demo.entreno.app', password: 'Pesas&Batidos24' };

/** Signs in through the API and hands the remembered session to the page, as the login screen would. */
async function signIn(context: BrowserContext, baseUrl: string): Promise<void> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...DEMO, rememberMe: true }),
  });
  if (!response.ok) throw new Error(`demo sign-in: ${response.status} ${await response.text()}`);
  const { token, user } = (await response.json()) as { token: string; user: unknown };
  await context.addInitScript(
    ({ token, stored }) => {
      if (!window.localStorage.getItem('token')) {
        window.localStorage.setItem('token', token);
        window.localStorage.setItem('user', stored);
      }
    },
    { token, stored: JSON.stringify(user) },
  );
}

async function phone(baseUrl: string, userAgent?: string): Promise<{ context: BrowserContext; page: Page }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const context = await browser.newContext({
    viewport: { width: SCREENSHOT_VIEWPORT.width, height: SCREENSHOT_VIEWPORT.height },
    deviceScaleFactor: SCREENSHOT_VIEWPORT.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    reducedMotion: 'reduce',
    ...(userAgent ? { userAgent } : {}),
  });
  context.on('close', () => void browser.close());
  // tsx keeps function names with an `__name` helper that the functions handed to the page call.
  await context.addInitScript({ content: 'globalThis.__name ??= (target) => target;' });
  await signIn(context, baseUrl);
  return { context, page: await context.newPage() };
}

/** Waits until the photos on screen have loaded, so no screenshot shows a grey placeholder. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  await page.waitForTimeout(500);
}

async function manifestScreenshots(baseUrl: string): Promise<void> {
  const { context, page } = await phone(baseUrl);
  const dir = path.join(ROOT, 'public/screenshots');
  mkdirSync(dir, { recursive: true });
  for (const { file, path: route } of MANIFEST_SCREENSHOTS) {
    await page.goto(`${baseUrl}${route}`);
    await page.locator('main h1, main article').first().waitFor({ timeout: 20_000 });
    await settle(page);
    await page.screenshot({ path: path.join(dir, `${file}.png`) });
    console.log(`public/screenshots/${file}.png`);
  }
  await context.close();
}

async function installScreenshots(baseUrl: string): Promise<void> {
  const dir = path.join(ROOT, 'docs/screenshots');
  mkdirSync(dir, { recursive: true });

  // Chromium on Android: the card after the first match, with the browser's install prompt captured.
  const android = await phone(baseUrl);
  await markMomentOfValue(android.page);
  await fakeInstallPrompt(android.page);
  await android.page.goto(`${baseUrl}/messages`);
  await android.page.getByTestId('conversation-item').first().waitFor();
  await android.page.getByRole('region', { name: 'Instalar Entreno' }).waitFor();
  await settle(android.page);
  await android.page.screenshot({ path: path.join(dir, 'install-card.png') });
  console.log('docs/screenshots/install-card.png');
  await android.context.close();

  // Safari on an iPhone: the same entry opens the two steps.
  const iphone = await phone(baseUrl, IPHONE_SAFARI_USER_AGENT);
  await iphone.page.goto(`${baseUrl}/config`);
  await iphone.page.getByRole('button', { name: 'Instalar Entreno' }).click();
  await iphone.page.getByRole('list', { name: 'Pasos para instalar' }).waitFor();
  await settle(iphone.page);
  await iphone.page.screenshot({ path: path.join(dir, 'install-ios-sheet.png') });
  console.log('docs/screenshots/install-ios-sheet.png');
  await iphone.context.close();
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'entreno-screenshots-'));
// The embedded PostgreSQL runs as its own user when this runs as root: it must enter DATA_DIR.
chmodSync(dataDir, 0o711);
execFileSync(process.execPath, ['--import', 'tsx', 'src/server/tools/seed-cli.ts', '150'], {
  cwd: ROOT,
  env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const server = await startServerProcess({ dataDir });
try {
  const only = process.argv[2];
  if (only !== 'install') await manifestScreenshots(server.url);
  if (only !== 'manifest') await installScreenshots(server.url);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
