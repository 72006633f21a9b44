import { eq } from 'drizzle-orm';
import type { Database } from './db/client.ts';
import { serverSecrets } from './db/schema/index.ts';

/** Secrets shared by every node through the database (table `server_secrets`). */
export type SharedSecretStore = {
  /**
   * The stored value of `name`; when there is none yet, `create()`'s value is stored and returned.
   * Race-safe: when several nodes start at once, the first insert wins and every node reads it.
   */
  getOrCreate(name: string, create: () => string): Promise<string>;
};

export function createDatabaseSecretStore(db: Database): SharedSecretStore {
  const read = async (name: string) => {
    const [row] = await db
      .select({ value: serverSecrets.value })
      .from(serverSecrets)
      .where(eq(serverSecrets.name, name));
    return row?.value;
  };
  return {
    async getOrCreate(name, create) {
      const existing = await read(name);
      if (existing !== undefined) return existing;
      await db.insert(serverSecrets).values({ name, value: create() }).onConflictDoNothing();
      const winner = await read(name);
      if (winner === undefined) throw new Error(`server_secrets: ${name} vanished right after it was stored`);
      return winner;
    },
  };
}
