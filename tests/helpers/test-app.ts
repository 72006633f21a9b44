import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { type App, type AppDependencies, buildApp } from '../../src/server/app.ts';
import { type Config, loadConfig } from '../../src/server/config.ts';
import type { PasswordHashPolicy } from '../../src/server/features/auth/password-hasher.ts';
import { adminQuery, withDatabase } from './database-setup.ts';

export type TestApp = App & {
  /** Base URL of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
};

/**
 * The password hash policy of test apps: argon2id still, at its smallest cost (0.4 ms of CPU a hash
 * instead of 37 at the production policy, and a suite hashes and verifies thousands of passwords).
 * The files about passwords (auth-registration, auth-login, q01, q02) pass
 * `hashPolicy: PASSWORD_HASH_POLICY`, so what production stores, upgrades and spends is tested
 * there; child-process nodes and the journeys' server run the production policy as they are.
 */
export const TEST_HASH_POLICY: PasswordHashPolicy = { memoryCost: 256, timeCost: 1, parallelism: 1 };

/**
 * Builds and starts a real server on a free port, on a fresh database of the run's server (the
 * embedded PostgreSQL, or DATABASE_URL's when the integration-scaled project runs; Redis then
 * too). Closes and drops everything on `close`.
 */
export async function startTestApp(
  overrides: Partial<Config> = {},
  hooks: { beforeListen?: (app: App) => void | Promise<void>; dependencies?: AppDependencies } = {},
): Promise<TestApp> {
  const usePostgres = process.env.TEST_DATABASE === 'postgres';
  // A second node of a multi-node test shares the first one's database (overrides.databaseUrl).
  const database = overrides.databaseUrl ? undefined : await createTestDatabase();
  const base = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/entreno-test-unused' });
  const config: Config = {
    ...base,
    port: 0,
    host: '127.0.0.1',
    isEphemeral: true,
    // As in scaled mode: photos in the shared database (PHOTO_STORE's default with DATABASE_URL).
    photoStore: usePostgres ? 'database' : 'filesystem',
    databaseUrl: database?.url,
    redisUrl: usePostgres ? process.env.REDIS_URL : undefined,
    // A random secret, and a Redis key space of its own so parallel test files never share counters.
    tokenSecret: randomBytes(32).toString('hex'),
    redisKeyPrefix: `entreno-test:${randomBytes(6).toString('hex')}:`,
    ...overrides,
  };
  let app: App;
  try {
    app = await buildApp(config, { hashPolicy: TEST_HASH_POLICY, ...hooks.dependencies });
  } catch (error) {
    await database?.drop();
    throw error;
  }
  await hooks.beforeListen?.(app);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const address = app.http.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  return {
    ...app,
    url,
    async close() {
      try {
        await app.close();
      } finally {
        await database?.drop();
      }
    },
  };
}

/** Another node of `first`'s deployment: its database, token secret and Redis key space. */
export function startSecondNode(first: TestApp, hooks: Parameters<typeof startTestApp>[1] = {}): Promise<TestApp> {
  return startTestApp(
    {
      databaseUrl: first.config.databaseUrl,
      tokenSecret: first.config.tokenSecret,
      redisKeyPrefix: first.config.redisKeyPrefix,
    },
    hooks,
  );
}

/** A fresh database of the run's server, already migrated (a copy of the template); `drop()` removes it. */
export async function createTestDatabase() {
  const { adminUrl, template } = inject('testDatabase');
  const name = `entreno_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name} template ${template}`);
  return {
    url: withDatabase(adminUrl, name),
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

/** A fresh, empty (unmigrated) database next to `adminUrl`'s; `drop()` removes it (forcing connections off). */
export async function createScratchDatabase(adminUrl: string) {
  const name = `entreno_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  return {
    url: withDatabase(adminUrl, name),
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}
