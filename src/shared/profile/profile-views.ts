/**
 * The profile as the server returns it (spec 001 §3). Lenient on purpose: an option this client does
 * not know yet (added by a newer server) is dropped instead of failing the whole screen, and the
 * server parses what it sends with these, so nothing private leaves it.
 */
import * as v from 'valibot';
import {
  AVAILABILITY_SLOTS,
  COMMITMENT_LEVELS,
  DEFAULT_GENDER_PREFERENCE,
  DEFAULT_MEMBERSHIP_TYPE,
  DIETARY_PREFERENCES,
  EXPERIENCE_LEVELS,
  GENDER_PREFERENCES,
  GENDERS,
  GOALS,
  INJURIES,
  MEMBERSHIP_TYPES,
  MOTIVATIONS,
  SOCIAL_PREFERENCES,
  SPECIALTIES,
  SPORTS,
  SUPPLEMENTS,
  TRAINING_SCHEDULES,
} from './options.ts';

// ---------------------------------------------------------------------------------------------
// Responses. Lenient on purpose: an option this client does not know yet (added by a newer
// server) is dropped instead of failing the whole screen.

function knownValues<const V extends string>(values: readonly V[]) {
  const known = new Set<string>(values);
  return v.pipe(
    v.array(v.string()),
    v.transform((items: string[]) => items.filter((item): item is V => known.has(item))),
  );
}

function knownValue<const V extends string>(values: readonly V[]) {
  return v.optional(v.fallback(v.nullable(v.picklist(values)), null));
}

const GymViewSchema = v.object({
  name: v.string(),
  membershipType: v.fallback(v.picklist(MEMBERSHIP_TYPES), DEFAULT_MEMBERSHIP_TYPE),
  trainingSchedule: knownValues(TRAINING_SCHEDULES),
});

const TrainingViewSchema = v.object({
  sports: knownValues(SPORTS),
  goals: knownValues(GOALS),
  experienceLevel: knownValue(EXPERIENCE_LEVELS),
  frequency: v.number(),
  motivation: knownValues(MOTIVATIONS),
  specialties: knownValues(SPECIALTIES),
  commitment_level: knownValue(COMMITMENT_LEVELS),
  supplements: knownValues(SUPPLEMENTS),
  socialPreference: knownValue(SOCIAL_PREFERENCES),
  availability: knownValues(AVAILABILITY_SLOTS),
});

/**
 * Health as shown: height and weight only when entered; injuries and diet only to the owner and
 * to the people they matched with (absent otherwise: docs/decisions/0030).
 */
const HealthViewSchema = v.object({
  injuries: v.optional(knownValues(INJURIES)),
  height: v.optional(v.nullable(v.number()), null),
  weight: v.optional(v.nullable(v.number()), null),
  dietaryPreferences: v.optional(knownValues(DIETARY_PREFERENCES)),
});

const StatsViewSchema = v.object({
  matches_count: v.number(),
  streak: v.number(),
  last_active: v.optional(v.nullable(v.string())),
});

const SocialViewSchema = v.object({
  instagram: v.optional(v.nullable(v.string())),
  spotify: v.optional(v.nullable(v.string())),
  strava: v.optional(v.nullable(v.string())),
});

/** The profile as the server returns it to its owner (location already snapped). */
export const OwnProfileSchema = v.object({
  id: v.string(),
  userId: v.string(),
  name: v.string(),
  lastName: v.optional(v.nullable(v.string())),
  birthDate: v.string(),
  age: v.number(),
  gender: knownValue(GENDERS),
  bio: v.string(),
  photos: v.array(v.string()),
  location: v.object({ latitude: v.number(), longitude: v.number(), city: v.optional(v.nullable(v.string())) }),
  verified: v.boolean(),
  active: v.boolean(),
  gym: GymViewSchema,
  training: TrainingViewSchema,
  health: v.optional(v.nullable(HealthViewSchema)),
  preferences: v.object({
    gender_preference: v.fallback(v.picklist(GENDER_PREFERENCES), DEFAULT_GENDER_PREFERENCE),
    age_range: v.object({ min: v.number(), max: v.number() }),
    distance: v.number(),
    music: v.optional(v.boolean()),
    groupClasses: v.optional(v.boolean()),
    personalTraining: v.optional(v.boolean()),
  }),
  stats: v.optional(v.nullable(StatsViewSchema)),
  social: v.optional(v.nullable(SocialViewSchema)),
});
export type OwnProfile = v.InferOutput<typeof OwnProfileSchema>;

/**
 * Another user's profile as the deck, matches and the profile modal see it. No coordinates, no
 * birth date, no preferences, no phone or e-mail: only the city, a bucketed distance text and the
 * compatibility. Parsing anything through it drops every other key.
 */
export const PublicProfileSchema = v.object({
  id: v.string(),
  userId: v.string(),
  name: v.string(),
  lastName: v.optional(v.nullable(v.string())),
  /** null when the person turned "showAgeRange" off (docs/decisions/0025). */
  age: v.nullable(v.number()),
  gender: knownValue(GENDERS),
  bio: v.string(),
  photos: v.array(v.string()),
  verified: v.boolean(),
  /** city null when the person turned "shareLocation" off, like the distance fields. */
  location: v.object({ city: v.optional(v.nullable(v.string())) }),
  /** "A menos de 1 km", "A 1 km", "A N km" (discovery/distance.ts); '' when not shared. */
  distanceText: v.string(),
  /** The same bucket as a number of kilometres, floor 1 (spec 001 §3); null when the viewer has no position. */
  distance: v.nullable(v.number()),
  compatibilityScore: v.number(),
  compatibilityReasons: v.array(v.string()),
  gym: v.optional(v.nullable(GymViewSchema)),
  training: v.optional(v.nullable(TrainingViewSchema)),
  health: v.optional(v.nullable(HealthViewSchema)),
  stats: v.optional(v.nullable(StatsViewSchema)),
  social: v.optional(v.nullable(SocialViewSchema)),
});
export type PublicProfile = v.InferOutput<typeof PublicProfileSchema>;

/** Profile responses report success and include the profile (spec 001 §5). */
export const OwnProfileResponseSchema = v.object({ success: v.literal(true), profile: OwnProfileSchema });
export type OwnProfileResponse = v.InferOutput<typeof OwnProfileResponseSchema>;

export const PublicProfileResponseSchema = v.object({ success: v.literal(true), profile: PublicProfileSchema });
export type PublicProfileResponse = v.InferOutput<typeof PublicProfileResponseSchema>;
