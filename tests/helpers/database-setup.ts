/**
 * Vitest globalSetup of the integration projects: one database server for the whole run, and one
 * migrated template database that every test app's database is copied from (CREATE DATABASE …
 * TEMPLATE, milliseconds). integration-embedded starts its own embedded PostgreSQL in a temporary
 * directory (the engine `npm start` runs); integration-scaled uses DATABASE_URL's server (with REDIS_URL's Redis).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded-postgres.ts';

export type TestDatabaseServer = {
  /** A connection string to the server's maintenance database (`postgres`, or DATABASE_URL's). */
  adminUrl: string;
  /** The migrated template every test database is created from. */
  template: string;
};

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseServer;
  }
}

const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error };

export default async function setup(project: TestProject) {
  const isEmbedded = project.config.env?.TEST_DATABASE === 'embedded';
  let stopServer = async () => {};
  let adminUrl: string;
  if (isEmbedded) {
    const server = await startEmbeddedPostgres({
      dir: await mkdtemp(path.join(tmpdir(), 'entreno-test-pg-')),
      removeOnStop: true,
      // Thrown away at the end of the run: no fsync. Test files run in parallel, each with apps.
      unsafeNoSync: true,
      settings: { max_connections: 300 },
      logger: quiet,
    });
    stopServer = () => server.stop();
    adminUrl = server.url('postgres');
  } else {
    if (!process.env.DATABASE_URL) throw new Error('integration-scaled needs DATABASE_URL');
    adminUrl = process.env.DATABASE_URL;
  }
  const template = `entreno_template_${randomBytes(6).toString('hex')}`;
  try {
    await adminQuery(adminUrl, `create database ${template}`);
    const database = await openDatabase({ databaseUrl: withDatabase(adminUrl, template), dataDir: tmpdir() });
    await database.close();
  } catch (error) {
    await stopServer();
    throw error;
  }
  project.provide('testDatabase', { adminUrl, template });
  return async () => {
    if (!isEmbedded) await adminQuery(adminUrl, `drop database if exists ${template} with (force)`);
    await stopServer();
  };
}

/** `url` with its database name replaced (a query string such as `?host=<socket dir>` is kept). */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function adminQuery(adminUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
