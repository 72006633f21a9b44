/**
 * The viewer's own narrowing of the deck, from /config's «Preferencias de búsqueda»
 * (docs/decisions/0050): «Nivel de experiencia» and «Horario preferido». One direction only —
 * the viewer's choice about whom they see — unlike the profile's gender preference, age range
 * and distance, which both sides must accept. «Mostrar» and «Distancia máxima» are the profile's
 * own values (decisions 0027 and 0050), so they are not here.
 *
 * The same rule runs in three places, kept equal by tests: the candidate index (`passesDeckFilters`
 * on its arrays), the SQL fallback (`deckFiltersSql` in sql-ranking.ts) and the page's re-check.
 */
import { type CompatibilityFeatures, dayPartsMask } from '#shared/discovery/compatibility';
import { EXPERIENCE_LEVELS, TRAINING_SCHEDULES } from '#shared/profile/options';
import { DEFAULT_SETTINGS, resolveSettings, type Settings } from '#shared/settings/settings-schema';

export type DeckFilters = {
  /** The experience rank a candidate must have (index in EXPERIENCE_LEVELS), or -1: any level. */
  readonly experienceRank: number;
  /**
   * The parts of the day (a TRAINING_SCHEDULES mask) a candidate must train in, or 0: any. A
   * candidate's parts are `dayPartsMask` — their preferred schedule plus the parts of their
   * availability slots — the same parts the score's schedule factor compares.
   */
  readonly dayParts: number;
};

export const NO_DECK_FILTERS: DeckFilters = { experienceRank: -1, dayParts: 0 };

/** /config's schedule choice → the part of the day it names (spec 001 §3: morning 6-12, afternoon 12-18, evening 18-23). */
const SCHEDULE_PART = {
  flexible: null,
  morning: 'Mañana',
  afternoon: 'Tarde',
  evening: 'Noche',
} as const satisfies Record<Settings['search']['preferredSchedule'], (typeof TRAINING_SCHEDULES)[number] | null>;

export function deckFiltersOf(search: Pick<Settings['search'], 'experienceLevel' | 'preferredSchedule'>): DeckFilters {
  const level = search.experienceLevel;
  const part = SCHEDULE_PART[search.preferredSchedule];
  return {
    experienceRank: level === 'all' ? -1 : EXPERIENCE_LEVELS.indexOf(level),
    dayParts: part === null ? 0 : 1 << TRAINING_SCHEDULES.indexOf(part),
  };
}

/** The filters of a stored `settings -> 'search'` value (anything: defaults fill what is missing or invalid). */
export function deckFiltersOfStored(search: unknown): DeckFilters {
  if (search === null || search === undefined) return deckFiltersOf(DEFAULT_SETTINGS.search);
  return deckFiltersOf(resolveSettings({ search }).search);
}

/** Whether a candidate's experience rank and day parts pass the viewer's filters. */
export function passesDeckFilters(
  filters: DeckFilters,
  candidate: Pick<CompatibilityFeatures, 'experience' | 'schedule' | 'availability'>,
): boolean {
  if (filters.experienceRank >= 0 && candidate.experience !== filters.experienceRank) return false;
  return filters.dayParts === 0 || (dayPartsMask(candidate.schedule, candidate.availability) & filters.dayParts) !== 0;
}
