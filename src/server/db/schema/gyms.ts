import { sql } from 'drizzle-orm';
import { doublePrecision, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * Gyms the search suggests: a seeded list of Spanish chains (features/gyms/gym-data.ts) plus the
 * gyms people type in their profiles. `nameKey` is the name lower-cased without accents or
 * punctuation (normalizeGymName), searched with pg_trgm.
 */
export const gyms = pgTable(
  'gyms',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    nameKey: text().notNull(),
    address: text().notNull().default(''),
    city: text().notNull().default(''),
    cityKey: text().notNull().default(''),
    chain: text(),
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    /** 'seed' or 'user'. */
    source: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('gyms_name_city_key').on(table.nameKey, table.cityKey),
    index('gyms_name_trgm_idx').using('gin', sql`${table.nameKey} gin_trgm_ops`),
  ],
);

export type GymRow = typeof gyms.$inferSelect;
