/**
 * Who may appear in whose deck: the viewer as both rankings read it (`deckViewerOf`: the mutual
 * rules' side of the viewer, plus the viewer's /config filters) and the re-check of a page's rows
 * against the viewer's fresh row (`fitsProfile`). The index (candidate-index.ts) and the SQL
 * fallback (sql-ranking.ts) apply the same rules; recommendations-index.test.ts holds them equal.
 */
import { compatibilityFeatures } from '#shared/discovery/compatibility';
import { haversineKm } from '#shared/discovery/distance';
import { matchesPreferences } from '#shared/discovery/preferences';
import type { Gender, GenderPreference } from '#shared/profile/options';
import { madridDayKey } from '#shared/time/madrid-calendar';
import { ageOf, deckColumns, type ProfileDeckColumns, type StoredProfile } from '../../profiles/profile-model.ts';
import { type DeckFilters, NO_DECK_FILTERS, passesDeckFilters } from './deck-filters.ts';

/** Everything a ranking needs to know about the viewer. */
export type DeckViewer = ProfileDeckColumns & {
  userId: string;
  latitude: number;
  longitude: number;
  gender: string | null;
  age: number;
  /** Candidates' birth dates allowed by the viewer's age range: youngestBirthDate ≥ date > oldestBirthDateExclusive. */
  youngestBirthDate: string;
  oldestBirthDateExclusive: string;
  /** The viewer's «Nivel de experiencia» and «Horario preferido» (one direction: deck-filters.ts). */
  filters: DeckFilters;
};

/** Where a chunk continues from: the last entry of the previous one (a seek, never an OFFSET). */
export type DeckKey = { score: number; distanceKm: number; userId: string };

/** "YYYY-MM-DD" moved back `years` years; 29 February becomes 28 February in common years. */
export function yearsBefore(day: string, years: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const target = year - years;
  const lastDay = new Date(Date.UTC(target, month, 0)).getUTCDate();
  const clamped = Math.min(date, lastDay);
  return `${String(target).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(clamped).padStart(2, '0')}`;
}

export function deckViewerOf(profile: StoredProfile, now: Date, filters: DeckFilters = NO_DECK_FILTERS): DeckViewer {
  const today = madridDayKey(now);
  const columns = deckColumns(profile);
  return {
    ...columns,
    userId: profile.userId,
    latitude: profile.latitude,
    longitude: profile.longitude,
    gender: profile.gender,
    age: ageOf(profile, now),
    // age ≥ min ⇔ born on or before today − min years; age ≤ max ⇔ born after today − (max + 1) years.
    youngestBirthDate: yearsBefore(today, columns.ageMin),
    oldestBirthDateExclusive: yearsBefore(today, columns.ageMax + 1),
    filters,
  };
}

/**
 * Whether two current profiles still fit each other: gender preference and age range both ways,
 * distance between the cells within both maxima. A deck page re-checks its rows with it, so a
 * page never shows someone who stopped fitting after the deck was ranked (or whom a not yet
 * refreshed index ranked on older data).
 */
export function fitEachOther(a: StoredProfile, b: StoredProfile, now: Date): boolean {
  return fitsProfile(a, now)(b);
}

/** One side of the mutual rules, as matchesPreferences reads it. */
function sideOf(profile: StoredProfile, now: Date) {
  return {
    gender: profile.gender as Gender | null,
    age: ageOf(profile, now),
    preferences: {
      gender_preference: profile.preferences.gender_preference as GenderPreference,
      age_range: profile.preferences.age_range,
    },
  };
}

/**
 * fitEachOther with `a`'s side computed once (a page re-checks its ten rows against one viewer),
 * and `a`'s own filters applied to `b`.
 */
export function fitsProfile(
  a: StoredProfile,
  now: Date,
  filters: DeckFilters = NO_DECK_FILTERS,
): (b: StoredProfile) => boolean {
  const x = sideOf(a, now);
  return (b) => {
    const y = sideOf(b, now);
    return (
      matchesPreferences(x, y) &&
      matchesPreferences(y, x) &&
      haversineKm(a, b) <= Math.min(a.preferences.distance, b.preferences.distance) &&
      passesDeckFilters(filters, compatibilityFeatures(b))
    );
  };
}
