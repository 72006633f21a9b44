import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

/** What the proposal form and the access checks read of the pair's profiles and conversation. */
export type PairProfile = {
  userId: string;
  name: string;
  gymName: string | null;
  gymAddress: string | null;
  availability: string[];
  sports: string[];
  goals: string[];
};

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

export type SuggestionRepository = ReturnType<typeof createSuggestionRepository>;

export function createSuggestionRepository(db: Database) {
  return {
    /** The conversation's two users, or undefined when there is no such conversation. */
    async members(conversationId: string): Promise<readonly [string, string] | undefined> {
      const [row] = rowsOf<{ user_a: string; user_b: string }>(
        await db.execute(sql`select user_a, user_b from conversations where id = ${conversationId}::uuid`),
      );
      return row ? [row.user_a, row.user_b] : undefined;
    },

    /** Whether the two users share a conversation (a match), whatever its state. */
    async areMatched(userA: string, userB: string): Promise<boolean> {
      const [row] = rowsOf<{ found: boolean }>(
        await db.execute(sql`select exists (select 1 from conversations where
          (user_a = ${userA}::uuid and user_b = ${userB}::uuid) or (user_a = ${userB}::uuid and user_b = ${userA}::uuid)) as found`),
      );
      return row?.found === true;
    },

    /** Name, gym (with the address of the known gym of that name) and training of each user. */
    async profiles(userIds: readonly string[]): Promise<PairProfile[]> {
      if (userIds.length === 0) return [];
      const rows = rowsOf<{
        user_id: string;
        name: string | null;
        gym_name: string | null;
        gym_address: string | null;
        availability: string[] | null;
        sports: string[] | null;
        goals: string[] | null;
      }>(
        await db.execute(sql`
          select u.id as user_id, coalesce(p.name, u.name) as name, p.gym->>'name' as gym_name,
            (select nullif(concat_ws(', ', nullif(g.address, ''), nullif(g.city, '')), '') from gyms g
              where g.name_key = p.gym_key and p.gym_key <> '' limit 1) as gym_address,
            coalesce(p.training->'availability', '[]'::jsonb) as availability,
            coalesce(p.training->'sports', '[]'::jsonb) as sports,
            coalesce(p.training->'goals', '[]'::jsonb) as goals
          from users u left join profiles p on p.user_id = u.id
          where u.id in (${sql.join(
            userIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`),
      );
      const list = (value: unknown): string[] =>
        Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
      return rows.map((row) => ({
        userId: row.user_id,
        name: row.name ?? '',
        gymName: row.gym_name,
        gymAddress: row.gym_address,
        availability: list(typeof row.availability === 'string' ? JSON.parse(row.availability) : row.availability),
        sports: list(typeof row.sports === 'string' ? JSON.parse(row.sports) : row.sports),
        goals: list(typeof row.goals === 'string' ? JSON.parse(row.goals) : row.goals),
      }));
    },
  };
}
