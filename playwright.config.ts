import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/e2e/helpers/chromium.ts';

/** A free loopback port, chosen once by the runner; workers inherit it through the environment. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

process.env.E2E_PORT ??= String(await freePort());
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'entreno-e2e-'));
  // The embedded PostgreSQL runs as its own user when the tests run as root: it must enter DATA_DIR.
  chmodSync(process.env.E2E_DATA_DIR, 0o711);
}
const port = Number(process.env.E2E_PORT);

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  // One retry on CI: a journey that fails twice fails the run; one that passes on retry is reported
  // as flaky in the list output and must be fixed, not ignored.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    browserName: 'chromium',
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    serviceWorkers: 'allow',
    // Recording a trace costs CPU in the browser (DOM snapshots, a screencast) and in the worker on
    // every action of every journey. On CI a journey that fails is retried once with its trace on,
    // which is the failure it leaves to look at; locally (no retry) the trace of a failure is kept.
    // With the journeys' own contexts closed at their end (helpers/test.ts), a same-run A/B of
    // offline, accessibility and chat (20 journeys side by side, load 20–34): 150 → 78 CPU seconds.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer: {
    command: 'node dist/server/main.js',
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // The app drains, then stops its embedded PostgreSQL (which would also stop by itself).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      // The journeys run on the server's own embedded database, never on the shared PostgreSQL and
      // Redis that CI exports for the integration suite: state left there by an earlier run (or an
      // older migration order) must not decide whether this one starts. Empty counts as unset.
      DATABASE_URL: '',
      REDIS_URL: '',
      PUBLIC_ORIGIN: `http://localhost:${port}`,
      LOG_LEVEL: 'warn',
      DEMO_DATA: '0',
      // Every test comes from 127.0.0.1; per-account and per-phone limits still apply as in production.
      RATE_LIMIT_IP_FACTOR: '50',
    },
  },
});
