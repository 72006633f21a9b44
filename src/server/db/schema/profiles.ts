import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { cascadingRef } from './columns.ts';

export type ProfileGymJson = { name: string; membershipType: string; trainingSchedule: string[] };
export type ProfileTrainingJson = {
  sports: string[];
  goals: string[];
  experienceLevel: string | null;
  frequency: number;
  motivation: string[];
  specialties: string[];
  commitment_level: string | null;
  supplements: string[];
  socialPreference: string | null;
  availability: string[];
};
export type ProfileHealthJson = {
  injuries: string[];
  /** null: not given (issue #20); older rows hold numbers. */
  height: number | null;
  weight: number | null;
  dietaryPreferences: string[];
};
export type ProfilePreferencesJson = {
  gender_preference: string;
  age_range: { min: number; max: number };
  distance: number;
  music?: boolean;
  groupClasses?: boolean;
  personalTraining?: boolean;
};
export type ProfileSocialJson = { instagram?: string | null; spotify?: string | null; strava?: string | null };

/**
 * The Profile of spec 001 §3, one per user. The blocks are jsonb as the API carries them; what the
 * deck query filters and ranks on is copied into real columns (docs/decisions/0006): the snapped
 * position, gender, birth date, the partner preferences, and the compatibility factors as
 * bitmasks over the option lists (so a Jaccard similarity is two `bit_count`s).
 */
export const profiles = pgTable(
  'profiles',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: cascadingRef(() => users.id),
    name: text().notNull(),
    lastName: text(),
    birthDate: date({ mode: 'string' }).notNull(),
    gender: text(),
    bio: text().notNull(),
    /** Ordered photo keys ("photos/<userId>/<id>.webp"); at most 6. */
    photos: jsonb().$type<string[]>().notNull().default([]),
    /** Centre of the 3 km privacy cell (snapToGrid); the raw position is never stored (QUALITY 9). */
    latitude: doublePrecision().notNull(),
    longitude: doublePrecision().notNull(),
    city: text(),
    /** When the position last moved to another cell (null: never since the profile was made); limits moves. */
    locationChangedAt: timestamp({ withTimezone: true }),
    verified: boolean().notNull().default(false),
    active: boolean().notNull().default(true),
    /** The settings' "profile visibility" switch; hidden profiles leave every deck. */
    visible: boolean().notNull().default(true),
    gym: jsonb().$type<ProfileGymJson>().notNull(),
    training: jsonb().$type<ProfileTrainingJson>().notNull(),
    health: jsonb().$type<ProfileHealthJson>(),
    preferences: jsonb().$type<ProfilePreferencesJson>().notNull(),
    social: jsonb().$type<ProfileSocialJson>(),
    // Deck filters (copied from `preferences`).
    genderPreference: text().notNull().default('both'),
    ageMin: smallint().notNull().default(18),
    ageMax: smallint().notNull().default(99),
    maxDistanceKm: integer().notNull().default(50),
    // Compatibility factors (copied from `gym` and `training`).
    gymKey: text().notNull().default(''),
    sportsMask: integer().notNull().default(0),
    availabilityMask: integer().notNull().default(0),
    goalsMask: integer().notNull().default(0),
    scheduleMask: integer().notNull().default(0),
    motivationMask: integer().notNull().default(0),
    experienceRank: smallint(),
    commitmentRank: smallint(),
    frequency: smallint().notNull().default(3),
    socialPreference: text(),
    lastActiveAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('profiles_user_id_key').on(table.userId),
    // The deck's bounding-box prefilter over the profiles a deck may show, covering every column
    // the deck query filters and ranks on, so it is answered by an index-only scan and never
    // reads the wide rows (docs/decisions/0006). Only latitude/longitude order it.
    index('profiles_deck_idx')
      .on(
        table.latitude,
        table.longitude,
        table.userId,
        table.gender,
        table.genderPreference,
        table.birthDate,
        table.ageMin,
        table.ageMax,
        table.maxDistanceKm,
        table.sportsMask,
        table.availabilityMask,
        table.goalsMask,
        table.scheduleMask,
        table.motivationMask,
        table.experienceRank,
        table.commitmentRank,
        table.frequency,
        table.socialPreference,
        table.gymKey,
      )
      .where(sql`${table.active} and ${table.visible}`),
  ],
);

export type ProfileRow = typeof profiles.$inferSelect;
export type NewProfileRow = typeof profiles.$inferInsert;
