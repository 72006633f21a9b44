import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SQL } from 'drizzle-orm';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../paths.ts';
import { type DatabaseLogger, runningServerConnection, startEmbeddedPostgres } from './embedded-postgres.ts';
import * as schema from './schema/index.ts';

export type { DatabaseLogger } from './embedded-postgres.ts';
export type Schema = typeof schema;
/** The one database type the repositories see. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/** `embedded`: the PostgreSQL the app runs itself (DATA_DIR/pg); `postgres`: DATABASE_URL's. */
export type DatabaseKind = 'embedded' | 'postgres';

export type DatabaseHandle = {
  db: Database;
  kind: DatabaseKind;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  databaseUrl: string | undefined;
  dataDir: string;
  /** Embedded only: a throwaway cluster in a temporary directory, deleted on close (benches). */
  ephemeral?: boolean;
  logger?: DatabaseLogger;
  /**
   * Embedded only: when the app already runs the server on DATA_DIR, use it over its socket
   * instead of refusing (operator commands such as `npm run moderator`).
   */
  canShareRunningServer?: boolean;
};

/** Any number, the same on every node, so concurrent starts migrate one at a time. */
const MIGRATION_LOCK_KEY = 7_410_233_551;
/**
 * The embedded server allows 40 connections (SMALL_FOOTPRINT); a scaled node shares its server with
 * others. Embedded, 8: two cores, and the hot writes (sends, swipes) go one batch at a time each
 * (docs/decisions/0057, 0061); every connection is a PostgreSQL process of its own (~4–5 MB PSS
 * under load).
 */
const POOL_SIZE: Record<DatabaseKind, number> = { embedded: 8, postgres: 20 };
/** The embedded cluster's database for the app. */
export const EMBEDDED_DATABASE = 'entreno';

/**
 * PostgreSQL at DATABASE_URL, or the embedded PostgreSQL (started here, in DATA_DIR/pg); either
 * way one node-postgres pool, migrated before it is handed out.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const logger = options.logger;
  if (options.databaseUrl) {
    return openPool({ connectionString: options.databaseUrl, max: POOL_SIZE.postgres }, 'postgres', logger);
  }
  const dir = options.ephemeral ? await mkdtemp(path.join(tmpdir(), 'entreno-pg-')) : path.join(options.dataDir, 'pg');
  if (!options.ephemeral && existsSync(path.join(options.dataDir, 'db', 'PG_VERSION'))) {
    logger?.warn(
      `${path.join(options.dataDir, 'db')} holds the PGlite database of an earlier version: it is no longer read ` +
        `(the embedded database is now ${dir}) and can be deleted.`,
    );
  }
  if (options.canShareRunningServer && !options.ephemeral) {
    const running = await runningServerConnection(dir, EMBEDDED_DATABASE);
    if (running) {
      logger?.info(`using the embedded PostgreSQL the running app holds in ${dir}`);
      return openPool({ ...running, max: 2 }, 'embedded', logger);
    }
  }
  const server = await startEmbeddedPostgres({ dir, removeOnStop: options.ephemeral, logger });
  try {
    await server.ensureDatabase(EMBEDDED_DATABASE);
    const handle = await openPool(
      { ...server.connection(EMBEDDED_DATABASE), max: POOL_SIZE.embedded },
      'embedded',
      logger,
    );
    return {
      ...handle,
      async close() {
        try {
          await handle.close();
        } finally {
          await server.stop();
        }
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * A named prepared statement on the pool behind `db` (pg's `{ name, text, values }`): each
 * connection parses and plans it once, and no SQL is built per call. For hot paths only.
 */
export function preparedStatement<Row extends pg.QueryResultRow>(db: Database, name: string, text: string) {
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  return async (values: unknown[]): Promise<Row[]> => (await pool.query<Row>({ name, text, values })).rows;
}

const dialect = new PgDialect();

/**
 * A `sql` query run as a named prepared statement named after its text (`prefix` and a hash), so a
 * query built per call but of a few shapes (the viewer's preferences choose a branch) is parsed and
 * planned once per shape and connection, and PostgreSQL may keep a generic plan for it. For hot
 * reads whose best plan does not depend on the values. Rows come as node-postgres parses them
 * (timestamps as Date).
 */
export async function executePrepared<Row extends pg.QueryResultRow>(
  db: Database,
  prefix: string,
  query: SQL,
): Promise<Row[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  return (await pool.query<Row>({ name, text, values: params })).rows;
}

async function openPool(config: pg.PoolConfig, kind: DatabaseKind, logger: DatabaseLogger | undefined) {
  const pool = new pg.Pool(config);
  // A database that goes away must never crash the process: node-postgres emits 'error' on the
  // pool for idle clients, and on the client itself while it is checked out (a transaction, the
  // migration lock), where an 'error' event without a listener would throw. Queries in flight
  // reject on their own, and a broken client is dropped when released.
  pool.on('error', (error) => logger?.warn(`database: idle connection lost (${error.message})`));
  pool.on('connect', (client) => {
    client.on('error', (error) => logger?.warn(`database: connection lost (${error.message})`));
  });
  try {
    await migrateOnce(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const db = drizzle(pool, { schema, casing: 'snake_case' });
  return { db: db as unknown as Database, kind, close: () => pool.end() };
}

/** Migrates under an advisory lock, so nodes starting together migrate one at a time. */
async function migrateOnce(pool: pg.Pool) {
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrate(drizzle(lockClient, { schema, casing: 'snake_case' }), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    lockClient.release();
  }
}
