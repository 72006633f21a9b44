import type { Database } from './client.ts';

/** Anything that runs SQL: the database, or a transaction of it. */
export type SqlExecutor = Pick<Database, 'execute'>;

/** The rows of a raw query (drizzle's `execute` answers node-postgres's QueryResult, `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
