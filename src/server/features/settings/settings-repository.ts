import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { userSettings } from '../../db/schema/index.ts';

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;

export function createSettingsRepository(db: Database) {
  return {
    /** What is stored for a user (possibly partial), or undefined when nothing is. */
    async find(userId: string): Promise<unknown> {
      const [row] = await db
        .select({ settings: userSettings.settings })
        .from(userSettings)
        .where(eq(userSettings.userId, userId))
        .limit(1);
      return row?.settings;
    },

    /** What is stored for each of `userIds` that has anything stored, in one statement. */
    async findMany(userIds: readonly string[]): Promise<{ userId: string; settings: unknown }[]> {
      if (userIds.length === 0) return [];
      return db
        .select({ userId: userSettings.userId, settings: userSettings.settings })
        .from(userSettings)
        .where(inArray(userSettings.userId, [...userIds]));
    },

    /**
     * Merges a validated patch into what is stored, in one statement: sections merge field by
     * field (`old || new`), other keys are replaced. Two devices saving different fields at once
     * both keep their change. Returns the stored result.
     */
    async merge(userId: string, patch: Record<string, unknown>, now: Date): Promise<unknown> {
      const json = JSON.stringify(patch);
      const [row] = await db
        .insert(userSettings)
        .values({ userId, settings: sql`${json}::jsonb`, updatedAt: now })
        .onConflictDoUpdate({
          target: userSettings.userId,
          set: {
            settings: sql`(
              select coalesce(jsonb_object_agg(
                k,
                case
                  when jsonb_typeof(${userSettings.settings} -> k) = 'object' and jsonb_typeof(excluded.settings -> k) = 'object'
                    then (${userSettings.settings} -> k) || (excluded.settings -> k)
                  else coalesce(excluded.settings -> k, ${userSettings.settings} -> k)
                end
              ), '{}'::jsonb)
              from jsonb_object_keys(${userSettings.settings} || excluded.settings) as k
            )`,
            updatedAt: now,
          },
        })
        .returning({ settings: userSettings.settings });
      return row?.settings;
    },
  };
}
