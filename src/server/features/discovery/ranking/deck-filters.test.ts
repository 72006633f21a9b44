import { describe, expect, it } from 'vitest';
import { compatibilityFeatures } from '#shared/discovery/compatibility';
import { deckFiltersOf, deckFiltersOfStored, NO_DECK_FILTERS, passesDeckFilters } from './deck-filters.ts';

const person = (experienceLevel: string | null, trainingSchedule: string[], availability: string[]) =>
  compatibilityFeatures({ gym: { trainingSchedule }, training: { experienceLevel, availability } });

describe('the deck filters of /config (docs/decisions/0050)', () => {
  it('«Todos los niveles» and «Flexible» filter nothing', () => {
    expect(deckFiltersOf({ experienceLevel: 'all', preferredSchedule: 'flexible' })).toEqual(NO_DECK_FILTERS);
    expect(passesDeckFilters(NO_DECK_FILTERS, person(null, [], []))).toBe(true);
  });

  it('keeps only the chosen level; someone who did not say is left out', () => {
    const advanced = deckFiltersOf({ experienceLevel: 'advanced', preferredSchedule: 'flexible' });
    expect(passesDeckFilters(advanced, person('advanced', [], []))).toBe(true);
    expect(passesDeckFilters(advanced, person('intermediate', [], []))).toBe(false);
    expect(passesDeckFilters(advanced, person(null, [], []))).toBe(false);
  });

  it('keeps who trains in the chosen part of the day, by preferred schedule or by slots', () => {
    const morning = deckFiltersOf({ experienceLevel: 'all', preferredSchedule: 'morning' });
    const afternoon = deckFiltersOf({ experienceLevel: 'all', preferredSchedule: 'afternoon' });
    const evening = deckFiltersOf({ experienceLevel: 'all', preferredSchedule: 'evening' });
    expect(passesDeckFilters(morning, person(null, ['Mañana'], []))).toBe(true);
    expect(passesDeckFilters(morning, person(null, ['Noche'], ['Jueves mañana']))).toBe(true);
    expect(passesDeckFilters(morning, person(null, ['Tarde'], ['Jueves tarde']))).toBe(false);
    expect(passesDeckFilters(afternoon, person(null, [], ['Jueves tarde']))).toBe(true);
    expect(passesDeckFilters(evening, person(null, ['Noche'], []))).toBe(true);
    expect(passesDeckFilters(evening, person(null, ['Tarde'], ['Lunes tarde']))).toBe(false);
    expect(passesDeckFilters(evening, person(null, [], []))).toBe(false);
  });

  it('reads stored settings as the settings feature does: defaults for what is missing or invalid', () => {
    expect(deckFiltersOfStored(undefined)).toEqual(NO_DECK_FILTERS);
    expect(deckFiltersOfStored(null)).toEqual(NO_DECK_FILTERS);
    expect(deckFiltersOfStored({ experienceLevel: 'guru', preferredSchedule: 42 })).toEqual(NO_DECK_FILTERS);
    expect(deckFiltersOfStored({ experienceLevel: 'beginner' })).toEqual({ experienceRank: 0, dayParts: 0 });
    expect(deckFiltersOfStored({ preferredSchedule: 'evening', maxDistance: 10 })).toEqual(
      deckFiltersOf({ experienceLevel: 'all', preferredSchedule: 'evening' }),
    );
  });
});
