import { count, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { gyms } from '../../db/schema/index.ts';

export type GymMatch = {
  name: string;
  address: string;
  city: string;
  chain: string | null;
  distanceKm: number | null;
};

export type NewGym = {
  name: string;
  nameKey: string;
  address: string;
  city: string;
  cityKey: string;
  chain: string | null;
  latitude: number | null;
  longitude: number | null;
  source: 'seed' | 'user';
};

export type GymRepository = ReturnType<typeof createGymRepository>;

export function createGymRepository(db: Database) {
  return {
    async countSeeded(): Promise<number> {
      const [row] = await db.select({ value: count() }).from(gyms).where(eq(gyms.source, 'seed'));
      return Number(row?.value ?? 0);
    },

    /** Inserts what is not there yet (same normalized name and city): idempotent, safe on many nodes. */
    async insertMissing(rows: readonly NewGym[]): Promise<void> {
      for (let start = 0; start < rows.length; start += 500) {
        await db
          .insert(gyms)
          .values(rows.slice(start, start + 500))
          .onConflictDoNothing({ target: [gyms.nameKey, gyms.cityKey] });
      }
    },

    /**
     * Gyms whose normalized name contains the query or resembles it (pg_trgm: both filters use the
     * GIN trigram index), ranked by how well the name matches plus how near the gym is to `origin`:
     * - the name: 1 when it starts with the query, 0.5 when a later word does, plus the word
     *   similarity to one decimal (so a typo costs, but two names that both contain the query
     *   tie instead of the shorter one winning by a hair);
     * - nearness: 0.6 / (1 + km / 10) — 0.6 on the spot, 0.3 at 10 km, 0.05 at 100 km, never 0 —
     *   so among equally good names the nearest comes first, whatever the distance, and a club
     *   round the corner can outrank a slightly worse name but never a prefix match elsewhere.
     *   A gym without a position (typed in a profile) gets no nearness.
     * Ties go to the closer trigram similarity, then the distance, then the name.
     */
    async search(
      query: string,
      near: { origin: { latitude: number; longitude: number } | null; cityKey: string | null },
      limit: number,
    ) {
      const { origin } = near;
      const distance = origin
        ? sql<number | null>`case when ${gyms.latitude} is null then null else 2 * 6371.0088 * asin(least(1, sqrt(
            power(sin(radians(${gyms.latitude} - ${origin.latitude}) / 2), 2) +
            cos(radians(${origin.latitude})) * cos(radians(${gyms.latitude})) *
            power(sin(radians(${gyms.longitude} - ${origin.longitude}) / 2), 2)))) end`
        : sql<number | null>`null::float8`;
      const contains = `%${query}%`;
      const nameScore = sql`(case when ${gyms.nameKey} like ${`${query}%`} then 1 else 0 end
        + case when ${gyms.nameKey} like ${`% ${query}%`} then 0.5 else 0 end
        + round(word_similarity(${query}, ${gyms.nameKey})::numeric, 1))`;
      // Coordinates weigh nearness; a city alone counts as being 5 km away inside it.
      const nearness = origin
        ? sql`coalesce(0.6 / (1 + ${distance} / 10), 0)`
        : near.cityKey
          ? sql`(case when ${gyms.cityKey} = ${near.cityKey} then 0.4 else 0 end)`
          : sql`0`;
      const rows = await db
        .select({
          name: gyms.name,
          address: gyms.address,
          city: gyms.city,
          chain: gyms.chain,
          distanceKm: distance,
        })
        .from(gyms)
        .where(sql`${gyms.nameKey} like ${contains} or ${query} <% ${gyms.nameKey}`)
        .orderBy(
          sql`${nameScore} + ${nearness} desc`,
          sql`similarity(${query}, ${gyms.nameKey}) desc`,
          sql`${distance} asc nulls last`,
          gyms.name,
        )
        .limit(limit);
      return rows.map(
        (row): GymMatch => ({ ...row, distanceKm: row.distanceKm === null ? null : Number(row.distanceKm) }),
      );
    },
  };
}
