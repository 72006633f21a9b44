/**
 * Pure mapping between the profile API (src/shared/profile) and what the profile store keeps:
 * the deck columns and compatibility bitmasks derived from the blocks, and the two views of a
 * stored profile (its owner's, and everyone else's allowlisted one). No I/O.
 */
import * as v from 'valibot';
import { compatibility, compatibilityFeatures } from '#shared/discovery/compatibility';
import { distanceKmBucket, distanceText, haversineKm, snapToGrid } from '#shared/discovery/distance';
import { ageFromBirthDate } from '#shared/profile/age';
import { DEFAULT_FREQUENCY_DAYS } from '#shared/profile/options';
import {
  type OwnProfile,
  OwnProfileSchema,
  type PublicProfile,
  PublicProfileSchema,
} from '#shared/profile/profile-views';
import type { ProfileRow } from '../../db/schema/index.ts';

/**
 * The profile columns the deck query filters and ranks on, copied from the blocks on every write
 * (docs/decisions/0006). The one list of them: `deckColumns` must fill exactly these, and a
 * stored profile is the table row without them.
 */
export const DECK_COLUMN_NAMES = [
  'genderPreference',
  'ageMin',
  'ageMax',
  'maxDistanceKm',
  'gymKey',
  'sportsMask',
  'availabilityMask',
  'goalsMask',
  'scheduleMask',
  'motivationMask',
  'experienceRank',
  'commitmentRank',
  'frequency',
  'socialPreference',
] as const satisfies readonly (keyof ProfileRow)[];

type DeckColumnName = (typeof DECK_COLUMN_NAMES)[number];

/** What the deck query filters and ranks on, derived from the content. */
export type ProfileDeckColumns = Pick<ProfileRow, DeckColumnName>;

/** A stored profile as the repositories hand it over: the row (drizzle's type) without the deck copies. */
export type StoredProfile = Omit<ProfileRow, DeckColumnName>;

/** The columns a profile write sets from the request; the server owns the rest of the row. */
export const CONTENT_COLUMN_NAMES = [
  'name',
  'lastName',
  'birthDate',
  'gender',
  'bio',
  'photos',
  'latitude',
  'longitude',
  'city',
  'gym',
  'training',
  'health',
  'preferences',
  'social',
] as const satisfies readonly (keyof ProfileRow)[];

/** The editable content of a profile, as the service builds it. */
export type ProfileContent = Pick<ProfileRow, (typeof CONTENT_COLUMN_NAMES)[number]>;

function pickColumns<T>(row: object, keep: (key: string) => boolean): T {
  return Object.fromEntries(Object.entries(row).filter(([key]) => keep(key))) as T;
}

const DECK_COLUMN_SET: ReadonlySet<string> = new Set(DECK_COLUMN_NAMES);
const CONTENT_COLUMN_SET: ReadonlySet<string> = new Set(CONTENT_COLUMN_NAMES);

export function toStoredProfile(row: ProfileRow): StoredProfile {
  return pickColumns(row, (key) => !DECK_COLUMN_SET.has(key));
}

/** Only the content of a profile (what a write may set), e.g. of a StoredProfile being edited. */
export function contentOf(profile: ProfileContent): ProfileContent {
  return pickColumns(profile, (key) => CONTENT_COLUMN_SET.has(key));
}

export type ProfileStats = { matchesCount: number; streak: number };

/**
 * The deck columns of a profile. The compatibility factors are compatibilityFeatures — the values
 * the shared score reads — so the SQL ranking, the deck index and the shown score read the same
 * numbers.
 */
export function deckColumns(content: Pick<ProfileContent, 'gym' | 'training' | 'preferences'>): ProfileDeckColumns {
  const { training, preferences } = content;
  const features = compatibilityFeatures(content);
  return {
    genderPreference: preferences.gender_preference,
    ageMin: preferences.age_range.min,
    ageMax: preferences.age_range.max,
    maxDistanceKm: preferences.distance,
    gymKey: features.gym,
    sportsMask: features.sports,
    availabilityMask: features.availability,
    goalsMask: features.goals,
    scheduleMask: features.schedule,
    motivationMask: features.motivation,
    experienceRank: features.experience < 0 ? null : features.experience,
    commitmentRank: features.commitment < 0 ? null : features.commitment,
    frequency: training.frequency ?? DEFAULT_FREQUENCY_DAYS,
    socialPreference: training.socialPreference ?? null,
  };
}

/** The stored form of a position: its cell centre (QUALITY 9). */
export function snappedLocation(location: { latitude: number; longitude: number; city?: string | null }) {
  const snapped = snapToGrid(location.latitude, location.longitude);
  return { latitude: snapped.latitude, longitude: snapped.longitude, city: location.city ?? null };
}

export function ageOf(profile: Pick<ProfileContent, 'birthDate'>, now: Date): number {
  return ageFromBirthDate(profile.birthDate, now);
}

function statsView(stats: ProfileStats | undefined, profile: StoredProfile) {
  if (!stats) return undefined;
  return { matches_count: stats.matchesCount, streak: stats.streak, last_active: profile.lastActiveAt.toISOString() };
}

/** The profile as its owner sees it (the position is already the snapped one). */
export function ownProfileView(profile: StoredProfile, now: Date, stats?: ProfileStats): OwnProfile {
  return v.parse(OwnProfileSchema, {
    id: profile.id,
    userId: profile.userId,
    name: profile.name,
    lastName: profile.lastName,
    birthDate: profile.birthDate,
    age: ageOf(profile, now),
    gender: profile.gender,
    bio: profile.bio,
    photos: profile.photos,
    location: { latitude: profile.latitude, longitude: profile.longitude, city: profile.city },
    verified: profile.verified,
    active: profile.active,
    gym: profile.gym,
    training: profile.training,
    health: profile.health,
    preferences: profile.preferences,
    stats: statsView(stats, profile),
    social: profile.social,
  });
}

/** What a person lets others see (settings `privacy`, docs/decisions/0025); everything on by default. */
export type ProfilePrivacy = { shareLocation: boolean; showAgeRange: boolean; showTrainingStats: boolean };
export const OPEN_PRIVACY: ProfilePrivacy = { shareLocation: true, showAgeRange: true, showTrainingStats: true };
/** The port the features read privacy through: the users' switches, `showProfile` included. */
export type PrivacyReader = (
  userIds: readonly string[],
) => Promise<Map<string, ProfilePrivacy & { showProfile: boolean }>>;

/** Everyone open: for wiring without settings (tests of one feature). */
export const openPrivacyReader: PrivacyReader = async (userIds) =>
  new Map(userIds.map((userId) => [userId, { ...OPEN_PRIVACY, showProfile: true }]));

/**
 * Another user's profile as `viewer` sees it: allowlisted by PublicProfileSchema (no coordinates,
 * birth date, preferences, phone or e-mail; injuries and diet only once matched), with the
 * compatibility and the bucketed distance (text and number) between the two cell centres. Without
 * a viewer profile there is nothing to compare: 0, '' and null.
 */
export function publicProfileView(
  profile: StoredProfile,
  viewer: StoredProfile | undefined,
  now: Date,
  stats?: ProfileStats,
  relation: { isMatched: boolean; privacy?: ProfilePrivacy } = { isMatched: false },
): PublicProfile {
  const privacy = relation.privacy ?? OPEN_PRIVACY;
  // Without shareLocation, neither the city nor any distance leaves the server.
  const km = viewer && privacy.shareLocation ? haversineKm(viewer, profile) : undefined;
  const view = v.parse(PublicProfileSchema, {
    id: profile.id,
    userId: profile.userId,
    name: profile.name,
    lastName: profile.lastName,
    age: privacy.showAgeRange ? ageOf(profile, now) : null,
    gender: profile.gender,
    bio: profile.bio,
    photos: profile.photos,
    verified: profile.verified,
    location: { city: privacy.shareLocation ? profile.city : null },
    distanceText: km === undefined ? '' : distanceText(km),
    distance: km === undefined ? null : distanceKmBucket(km),
    compatibilityScore: 0,
    compatibilityReasons: [],
    gym: profile.gym,
    training: profile.training,
    health: healthFor(profile.health, relation.isMatched),
    stats: privacy.showTrainingStats ? statsView(stats, profile) : null,
    social: profile.social,
  });
  // The score and its reasons ("Por qué encajáis", docs/decisions/0023) are computed from the
  // view itself — what this viewer is sent — so a reason can never say what the view withholds.
  const score = viewer ? compatibility(viewer, view) : { score: 0, reasons: [] as string[] };
  return { ...view, compatibilityScore: score.score, compatibilityReasons: [...score.reasons] };
}

/**
 * Who sees what of someone's health (docs/decisions/0030): height and weight, when entered, go
 * with the profile; injuries and diet only to the people they matched with, never to the deck.
 */
function healthFor(health: StoredProfile['health'], isMatched: boolean) {
  if (!health) return null;
  const body = { height: health.height ?? null, weight: health.weight ?? null };
  if (isMatched) return { ...health, ...body };
  return body.height === null && body.weight === null ? null : body;
}
