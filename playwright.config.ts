import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, HEADLESS_SHELL_PATH } from './tests/e2e/helpers/chromium.ts';

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
// The remote spots' claims (tests/e2e/helpers/spots.ts): one directory per run, shared by the workers.
process.env.E2E_SPOTS_DIR ??= mkdtempSync(path.join(tmpdir(), 'entreno-e2e-spots-'));
const port = Number(process.env.E2E_PORT);

/**
 * The seeded demo server: `npm run seed` on a fresh DATA_DIR, then the built server on it, once per
 * run, for the journeys on the demo account (demo-account.spec.ts, spec-screens.spec.ts read
 * E2E_DEMO_URL). Started unless the command line names only other spec files.
 */
process.env.E2E_DEMO_PORT ??= String(await freePort());
if (!process.env.E2E_DEMO_DATA_DIR) {
  process.env.E2E_DEMO_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'entreno-e2e-demo-'));
  chmodSync(process.env.E2E_DEMO_DATA_DIR, 0o711);
}
const demoPort = Number(process.env.E2E_DEMO_PORT);
process.env.E2E_DEMO_URL = `http://localhost:${demoPort}`;
const DEMO_SPECS = /demo-account|spec-screens/;
const positional = process.argv.slice(process.argv.indexOf('test') + 1).filter((arg) => !arg.startsWith('-'));
const namesOnlyOtherSpecs =
  positional.length > 0 &&
  positional.every((arg) => /spec|\.ts$|\//.test(arg)) &&
  !positional.some((arg) => DEMO_SPECS.test(arg));

/** Journeys that show system notifications, which the headless shell does not grant. */
const FULL_BROWSER_SPECS = /push\.spec\.ts$/;

/** What every server of the run shares: its own embedded database, test mode, loose per-IP limits. */
const serverEnv = (serverPort: number, dataDir: string) => ({
  NODE_ENV: 'test',
  PORT: String(serverPort),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  // The journeys run on the server's own embedded database, never on the shared PostgreSQL and
  // Redis that CI exports for the integration suite: state left there by an earlier run (or an
  // older migration order) must not decide whether this one starts. Empty counts as unset.
  DATABASE_URL: '',
  REDIS_URL: '',
  PUBLIC_ORIGIN: `http://localhost:${serverPort}`,
  LOG_LEVEL: 'warn',
  DEMO_DATA: '0',
  // Every test comes from 127.0.0.1; per-account and per-phone limits still apply as in production.
  RATE_LIMIT_IP_FACTOR: '50',
});

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  // One retry on CI: a journey that passes on its retry is reported as flaky in the list output…
  retries: process.env.CI ? 1 : 0,
  // …and fails the run: the retry only reports the flake (with its trace), it never hides it.
  failOnFlakyTests: !!process.env.CI,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    browserName: 'chromium',
    locale: 'es-ES',
    // Journeys run with reduced motion: software-rendered animations were a third of the suite's
    // CPU (docs/performance.md "The test suite", session 10). The journeys about motion say
    // `test.use({ reducedMotion: 'no-preference' })`; the app's default-motion path stays tested there.
    reducedMotion: 'reduce',
    timezoneId: 'Europe/Madrid',
    // The service worker runs only in journeys tagged '@service-worker' (tests/e2e/helpers/test.ts,
    // decision 0060).
    // A trace only where a failure is left to look at: CI's retry, a local failure (its cost:
    // docs/performance.md "The test suite").
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
  },
  // Two browsers of one Debian Chromium (docs/decisions/0058): the journeys run in its old headless
  // shell (two thirds of the CPU), except those that need the full browser's system notifications.
  projects: [
    {
      name: 'headless-shell',
      testIgnore: FULL_BROWSER_SPECS,
      use: { launchOptions: { executablePath: HEADLESS_SHELL_PATH, args: CHROMIUM_ARGS } },
    },
    {
      name: 'chromium',
      testMatch: FULL_BROWSER_SPECS,
      use: { launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } },
    },
  ],
  webServer: [
    {
      command: 'node dist/server/main.js',
      url: `http://localhost:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      // The app drains, then stops its embedded PostgreSQL (which would also stop by itself).
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      env: serverEnv(port, process.env.E2E_DATA_DIR),
    },
    ...(namesOnlyOtherSpecs
      ? []
      : [
          {
            // The README's seed command itself (a few people keep it quick), then the server on its data.
            command: 'npm run --silent seed -- 12 >/dev/null && exec node dist/server/main.js',
            url: `${process.env.E2E_DEMO_URL}/api/health`,
            reuseExistingServer: false,
            timeout: 180_000,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
            gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
            env: serverEnv(demoPort, process.env.E2E_DEMO_DATA_DIR),
          },
        ]),
  ],
});
