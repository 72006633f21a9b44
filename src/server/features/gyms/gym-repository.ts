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
     * GIN trigram index), ranked by how well the name matches — a name starting with the query
     * first, then word similarity — plus a bonus for being near `origin` (full within 2 km,
     * nothing beyond 100 km), then by distance and name.
     */
    async search(query: string, origin: { latitude: number; longitude: number } | null, limit: number) {
      const distance = origin
        ? sql<number | null>`case when ${gyms.latitude} is null then null else 2 * 6371.0088 * asin(least(1, sqrt(
            power(sin(radians(${gyms.latitude} - ${origin.latitude}) / 2), 2) +
            cos(radians(${origin.latitude})) * cos(radians(${gyms.latitude})) *
            power(sin(radians(${gyms.longitude} - ${origin.longitude}) / 2), 2)))) end`
        : sql<number | null>`null::float8`;
      const contains = `%${query}%`;
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
          sql`(case when ${gyms.nameKey} like ${`${query}%`} then 1 else 0 end
              + case when ${gyms.nameKey} like ${`% ${query}%`} then 0.5 else 0 end
              + word_similarity(${query}, ${gyms.nameKey})
              + similarity(${query}, ${gyms.nameKey}) * 0.5
              + coalesce(0.6 * (1 - least(greatest(${distance} - 2, 0), 100) / 100), 0)) desc`,
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
