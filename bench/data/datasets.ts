import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type App, type AppDependencies, buildApp } from '../../src/server/app.ts';
import { type Config, loadConfig } from '../../src/server/config.ts';
import { generateDataset } from './generate.ts';

export type Scale = { profiles: number; swipesPerUser: number };

export const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL;

const baseConfig = (): Config => ({
  ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/entreno-bench' }),
  port: 0,
  host: '127.0.0.1',
  tokenSecret: randomBytes(32).toString('hex'),
  redisKeyPrefix: `entreno-bench:${randomBytes(4).toString('hex')}:`,
  // Every simulated person connects from loopback: the per-address socket cap would refuse them.
  socketsPerAddress: 1_000_000,
});

/**
 * Bumped whenever generate.ts changes what it writes, so a kept database of an older generator is
 * not reused. v2: sports masks within the 12 sports, gym keys normalized like normalizeGymName.
 */
const DATA_VERSION = 2;

const execute = (app: App) => (statement: string) => app.database.db.execute(sql.raw(statement));

async function isGenerated(app: App, scale: Scale): Promise<boolean> {
  const result = (await app.database.db.execute(
    sql`select (select count(*) from profiles)::int as p, (select count(*) from swipes)::int as s`,
  )) as unknown as { rows: { p: number; s: number }[] };
  const counts = result.rows[0];
  return Number(counts?.p) === scale.profiles && Number(counts?.s) === scale.profiles * scale.swipesPerUser;
}

/**
 * An app on PostgreSQL over the benchmark data set. The database `entreno_bench_<profiles>_<swipes>`
 * is kept between runs (the data is deterministic), and generated when missing or incomplete. A
 * bench that adds rows of its own names a database of its own (`database`) and drops it after
 * (`dropDatabase`).
 */
export async function postgresApp(
  scale: Scale,
  log: (line: string) => void = () => {},
  /** Settings shared by several nodes of one run (the token secret, the Redis key prefix). */
  overrides: Partial<Config> = {},
  options: { database?: string } = {},
) {
  if (!DATABASE_URL) throw new Error('DATABASE_URL is not set');
  const name = options.database ?? `entreno_bench_v${DATA_VERSION}_${scale.profiles}_${scale.swipesPerUser}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!exists) await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  let app = await buildApp({ ...baseConfig(), databaseUrl: url.toString(), redisUrl: REDIS_URL, ...overrides });
  if (!(await isGenerated(app, scale))) {
    await app.close();
    const reset = new pg.Client({ connectionString: DATABASE_URL });
    await reset.connect();
    await reset.query(`drop database if exists ${name} with (force)`);
    await reset.query(`create database ${name}`);
    await reset.end();
    // The app creates the schema (migrations); the load runs on one connection of its own, with
    // the checks and secondary indexes off (generate.ts), so the app is opened again afterwards:
    // its deck index heard nothing of rows written without triggers.
    app = await buildApp({ ...baseConfig(), databaseUrl: url.toString(), redisUrl: REDIS_URL, ...overrides });
    await app.close();
    const started = performance.now();
    const loader = new pg.Client({ connectionString: url.toString() });
    await loader.connect();
    try {
      await generateDataset((statement) => loader.query(statement), scale, { bulk: true });
    } finally {
      await loader.end();
    }
    log(`generated ${name} on PostgreSQL in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    app = await buildApp({ ...baseConfig(), databaseUrl: url.toString(), redisUrl: REDIS_URL, ...overrides });
  }
  return app;
}

/** Drops a database of DATABASE_URL's server (a bench's own, once its app is closed). */
export async function dropDatabase(name: string): Promise<void> {
  if (!DATABASE_URL) return;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

/**
 * An app on the embedded PostgreSQL (a throwaway cluster in a temporary directory, configured as
 * `npm start` runs it), with the data set generated into it.
 */
export async function embeddedApp(
  scale: Scale | null,
  log: (line: string) => void = () => {},
  overrides: Partial<Config> = {},
  dependencies: AppDependencies = {},
) {
  const app = await buildApp({ ...baseConfig(), isEphemeral: true, ...overrides }, dependencies);
  if (scale) {
    const started = performance.now();
    await generateDataset(execute(app), scale);
    log(
      `generated ${scale.profiles} profiles / ${scale.profiles * scale.swipesPerUser} swipes on the embedded PostgreSQL in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  return app;
}

export async function listen(app: App): Promise<string> {
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const address = app.http.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
}

export async function rows<T>(app: App, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await app.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}
