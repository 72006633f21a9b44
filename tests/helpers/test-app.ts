import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type App, type AppDependencies, buildApp } from '../../src/server/app.ts';
import { type Config, loadConfig } from '../../src/server/config.ts';

export type TestApp = App & {
  /** Base URL of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
};

/**
 * Builds and starts a real server on a free port: in-memory PGlite, or a fresh PostgreSQL
 * database when the integration-postgres project runs. Closes and drops everything on `close`.
 */
export async function startTestApp(
  overrides: Partial<Config> = {},
  hooks: { beforeListen?: (app: App) => void | Promise<void>; dependencies?: AppDependencies } = {},
): Promise<TestApp> {
  const usePostgres = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL;
  const database = usePostgres ? await createScratchDatabase(process.env.DATABASE_URL as string) : undefined;
  const base = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/entreno-test-unused' });
  const config: Config = {
    ...base,
    port: 0,
    host: '127.0.0.1',
    inMemoryDatabase: true,
    // As in scaled mode: photos in the shared database (PHOTO_STORE's default with DATABASE_URL).
    photoStore: usePostgres ? 'database' : 'filesystem',
    databaseUrl: database?.url,
    redisUrl: usePostgres ? process.env.REDIS_URL : undefined,
    // A random secret, and a Redis key space of its own so parallel test files never share counters.
    tokenSecret: randomBytes(32).toString('hex'),
    redisKeyPrefix: `entreno-test:${randomBytes(6).toString('hex')}:`,
    ...overrides,
  };
  const app = await buildApp(config, hooks.dependencies);
  await hooks.beforeListen?.(app);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const address = app.http.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  return {
    ...app,
    url,
    async close() {
      await app.close();
      await database?.drop();
    },
  };
}

/** A fresh, empty PostgreSQL database next to `adminUrl`'s; `drop()` removes it (forcing connections off). */
export async function createScratchDatabase(adminUrl: string) {
  const name = `entreno_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
