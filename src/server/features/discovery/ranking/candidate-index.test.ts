import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compatibility, compatibilityFeatures } from '#shared/discovery/compatibility';
import { haversineKm } from '#shared/discovery/distance';
import {
  AVAILABILITY_SLOTS,
  COMMITMENT_LEVELS,
  EXPERIENCE_LEVELS,
  GOALS,
  MOTIVATIONS,
  SOCIAL_PREFERENCES,
  SPORTS,
  TRAINING_SCHEDULES,
} from '#shared/profile/options';
import { PREFERRED_SCHEDULES, SEARCH_EXPERIENCE_LEVELS } from '#shared/settings/settings-schema';
import type { StoredProfile } from '../../profiles/profile-model.ts';
import { createCandidateIndex, type IndexEntry, type IndexedProfile } from './candidate-index.ts';
import { type DeckFilters, deckFiltersOf, NO_DECK_FILTERS, passesDeckFilters } from './deck-filters.ts';
import { deckViewerOf, fitEachOther } from './deck-viewer.ts';

const NOW = new Date('2026-03-10T09:00:00.000Z');

/** Just what the index, fitEachOther, deckViewerOf and compatibility() read of a stored profile. */
const profileArbitrary = fc
  .record({
    n: fc.nat(),
    gender: fc.constantFrom('male', 'female', 'non-binary', null),
    // Birthdays around today's date, so the age boundaries are exercised.
    birthDate: fc.constantFrom(
      '1990-03-10',
      '1990-03-11',
      '1989-03-10',
      '1989-03-11',
      '2008-03-10',
      '2008-03-11',
      '1970-03-10',
      '1969-03-11',
    ),
    genderPreference: fc.constantFrom('both', 'male', 'female'),
    ageRange: fc.constantFrom(
      { min: 18, max: 99 },
      { min: 18, max: 18 },
      { min: 36, max: 36 },
      { min: 37, max: 37 },
      { min: 30, max: 56 },
      { min: 56, max: 56 },
    ),
    distance: fc.constantFrom(1, 5, 15, 50),
    latitude: fc.integer({ min: -30, max: 30 }).map((step) => 40.4 + step / 100),
    longitude: fc.integer({ min: -30, max: 30 }).map((step) => -3.7 + step / 100),
    gym: fc.constantFrom('Altafit Sol', 'altafit-sol', 'McFit', ''),
    schedule: fc.subarray([...TRAINING_SCHEDULES]),
    sports: fc.subarray([...SPORTS]),
    goals: fc.subarray([...GOALS]),
    availability: fc.subarray([...AVAILABILITY_SLOTS]),
    motivation: fc.subarray([...MOTIVATIONS]),
    experienceLevel: fc.constantFrom(...EXPERIENCE_LEVELS, null),
    commitment: fc.constantFrom(...COMMITMENT_LEVELS, null),
    social: fc.constantFrom(...SOCIAL_PREFERENCES, null),
    frequency: fc.integer({ min: 1, max: 7 }),
  })
  .map(
    (draw) =>
      ({
        userId: `00000000-0000-4000-8000-${draw.n.toString(16).padStart(12, '0')}`,
        gender: draw.gender,
        birthDate: draw.birthDate,
        latitude: draw.latitude,
        longitude: draw.longitude,
        gym: { name: draw.gym, membershipType: 'free', trainingSchedule: draw.schedule },
        training: {
          sports: draw.sports,
          goals: draw.goals,
          availability: draw.availability,
          motivation: draw.motivation,
          experienceLevel: draw.experienceLevel,
          commitment_level: draw.commitment,
          socialPreference: draw.social,
          frequency: draw.frequency,
          specialties: [],
          supplements: [],
        },
        preferences: { gender_preference: draw.genderPreference, age_range: draw.ageRange, distance: draw.distance },
      }) as unknown as StoredProfile,
  );

function indexed(profile: StoredProfile): IndexedProfile {
  return {
    userId: profile.userId,
    latitude: profile.latitude,
    longitude: profile.longitude,
    gender: profile.gender,
    birthDate: profile.birthDate,
    genderPreference: profile.preferences.gender_preference,
    ageMin: profile.preferences.age_range.min,
    ageMax: profile.preferences.age_range.max,
    maxDistanceKm: profile.preferences.distance,
    features: compatibilityFeatures(profile),
  };
}

/** The deck by brute force from the shared rules: fitEachOther, compatibility(), the shown distance. */
function referenceDeck(
  viewer: StoredProfile,
  everyone: readonly StoredProfile[],
  excluded: ReadonlySet<string>,
  filters: DeckFilters = NO_DECK_FILTERS,
) {
  const entries = everyone
    .filter((other) => other.userId !== viewer.userId && !excluded.has(other.userId))
    .filter((other) => fitEachOther(viewer, other, NOW))
    .filter((other) => passesDeckFilters(filters, compatibilityFeatures(other)))
    .map((other): IndexEntry => [other.userId, compatibility(viewer, other).score, haversineKm(viewer, other)]);
  return entries.sort((a, b) => b[1] - a[1] || a[2] - b[2] || (a[0] < b[0] ? -1 : 1));
}

/** The viewer's /config filters (deck-filters.ts): «Todos»/«Flexible» half the time. */
const searchArbitrary = fc.record({
  experienceLevel: fc.constantFrom(...SEARCH_EXPERIENCE_LEVELS, 'all', 'all'),
  preferredSchedule: fc.constantFrom(...PREFERRED_SCHEDULES, 'flexible', 'flexible'),
});

const uniqueProfiles = fc
  .array(profileArbitrary, { minLength: 2, maxLength: 60 })
  .map((profiles) => [...new Map(profiles.map((profile) => [profile.userId, profile])).values()]);

describe('candidate index', () => {
  it('ranks like the shared rules and score, whatever the profiles (filters both ways, order, total)', () => {
    fc.assert(
      fc.property(
        uniqueProfiles,
        fc.nat(),
        fc.integer({ min: 1, max: 30 }),
        searchArbitrary,
        (profiles, pick, size, search) => {
          const filters = deckFiltersOf(search);
          const index = createCandidateIndex(4);
          // Half loaded, laid out cell by cell (as after a load), the rest upserted afterwards.
          const half = Math.floor(profiles.length / 2);
          for (const profile of profiles.slice(0, half)) index.upsert(indexed(profile));
          if (pick % 2 === 0) index.compact();
          for (const profile of profiles.slice(half)) index.upsert(indexed(profile));
          const viewer = profiles[pick % profiles.length] as StoredProfile;
          const excluded = new Set(profiles.filter((_, i) => i % 7 === 3).map((profile) => profile.userId));
          const expected = referenceDeck(viewer, profiles, excluded, filters);
          const ranked = index.rank(
            { ...deckViewerOf(viewer, NOW, filters), features: compatibilityFeatures(viewer) },
            excluded,
            null,
            size,
          );
          expect(ranked.total).toBe(expected.length);
          expect(ranked.entries).toEqual(expected.slice(0, size));
          // The next chunk continues exactly where this one stopped.
          const last = ranked.entries.at(-1);
          if (last) {
            const next = index.rank(
              { ...deckViewerOf(viewer, NOW, filters), features: compatibilityFeatures(viewer) },
              excluded,
              { userId: last[0], score: last[1], distanceKm: last[2] },
              size,
            );
            expect(next.entries).toEqual(expected.slice(size, 2 * size));
          }
          // The same index for the same viewer with nobody excluded: the previous ranking's exclusions
          // (kept as marks on their slots while it ran) are gone.
          const unexcluded = index.rank(
            { ...deckViewerOf(viewer, NOW), features: compatibilityFeatures(viewer) },
            new Set(['00000000-0000-4000-8000-999999999999']),
            null,
            size,
          );
          const everyone = referenceDeck(viewer, profiles, new Set());
          expect(unexcluded.total).toBe(everyone.length);
          expect(unexcluded.entries).toEqual(everyone.slice(0, size));
        },
      ),
      { numRuns: 400 },
    );
    // ~1 s on an idle host; 400 runs with the filters drawn took over 5 s at a load average of 25.
  }, 30_000);

  it("keeps both ends of an age range, counting birthdays on the viewer's day (Madrid)", () => {
    const base = fc.sample(profileArbitrary, { numRuns: 1, seed: 11 })[0] as StoredProfile;
    const person = (n: number, birthDate: string, ageRange: { min: number; max: number }) =>
      ({
        ...base,
        userId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        gender: 'female',
        birthDate,
        latitude: 40.4,
        longitude: -3.7,
        preferences: { gender_preference: 'both', age_range: ageRange, distance: 50 },
      }) as StoredProfile;
    const viewer = person(1, '1990-01-01', { min: 36, max: 36 });
    const candidates = [
      person(2, '1989-03-11', { min: 18, max: 99 }), // 36 until tomorrow: in
      person(3, '1989-03-10', { min: 18, max: 99 }), // 37 today: out
      person(4, '1990-03-10', { min: 18, max: 99 }), // 36 today: in
      person(5, '1990-03-11', { min: 18, max: 99 }), // 35 until tomorrow: out
      person(6, '1990-03-10', { min: 37, max: 99 }), // the viewer (36) is too young for her: out
    ];
    const index = createCandidateIndex(2);
    for (const profile of [viewer, ...candidates]) index.upsert(indexed(profile));
    const ranked = index.rank(
      { ...deckViewerOf(viewer, NOW), features: compatibilityFeatures(viewer) },
      new Set(),
      null,
      10,
    );
    expect(ranked.entries.map(([id]) => id).sort()).toEqual([candidates[0]?.userId, candidates[2]?.userId].sort());
    expect(ranked.entries).toEqual(referenceDeck(viewer, candidates, new Set()));
  });

  it('follows moves, edits and removals', () => {
    const [a, b] = fc.sample(profileArbitrary, { numRuns: 2, seed: 7 }) as [StoredProfile, StoredProfile];
    const viewer = {
      ...a,
      userId: '00000000-0000-4000-8000-00000000000a',
      gender: 'female',
      preferences: { gender_preference: 'both', age_range: { min: 18, max: 99 }, distance: 50 },
    } as StoredProfile;
    const other = {
      ...b,
      userId: '00000000-0000-4000-8000-00000000000b',
      latitude: viewer.latitude,
      longitude: viewer.longitude,
      preferences: { gender_preference: 'both', age_range: { min: 18, max: 99 }, distance: 50 },
    } as StoredProfile;
    const index = createCandidateIndex(1);
    index.upsert(indexed(viewer));
    index.upsert(indexed(other));
    const rank = () =>
      index.rank({ ...deckViewerOf(viewer, NOW), features: compatibilityFeatures(viewer) }, new Set(), null, 10);
    expect(rank().entries.map(([id]) => id)).toEqual([other.userId]);
    index.upsert(indexed({ ...other, latitude: other.latitude + 2 } as StoredProfile));
    expect(rank().total).toBe(0);
    index.upsert(indexed(other));
    expect(rank().total).toBe(1);
    index.upsert(
      indexed({ ...other, preferences: { ...other.preferences, gender_preference: 'male' } } as StoredProfile),
    );
    expect(rank().total).toBe(0);
    index.upsert(indexed(other));
    index.remove(other.userId);
    expect(rank().total).toBe(0);
    expect(index.size).toBe(1);
  });

  it('keeps every profile, and follows changes, after laying the slots out cell by cell', () => {
    const profiles = fc.sample(profileArbitrary, { numRuns: 80, seed: 3 });
    const unique = [...new Map(profiles.map((profile) => [profile.userId, profile])).values()];
    const index = createCandidateIndex(2);
    for (const profile of unique) index.upsert(indexed(profile));
    const removed = unique.filter((_, i) => i % 5 === 0);
    for (const profile of removed) index.remove(profile.userId);
    const kept = unique.filter((_, i) => i % 5 !== 0);
    const deckOf = (viewer: StoredProfile) =>
      index.rank({ ...deckViewerOf(viewer, NOW), features: compatibilityFeatures(viewer) }, new Set(), null, 100);
    const before = kept.map(deckOf);
    index.compact();
    expect(index.size).toBe(kept.length);
    expect(kept.map(deckOf)).toEqual(before);
    for (const viewer of kept)
      expect(deckOf(viewer)).toEqual({
        entries: referenceDeck(viewer, kept, new Set()),
        total: referenceDeck(viewer, kept, new Set()).length,
      });
    // Moves, new profiles and removals after the layout.
    const [moved, gone] = kept as [StoredProfile, StoredProfile];
    const now = [{ ...moved, latitude: moved.latitude + 0.05 } as StoredProfile, ...removed, ...kept.slice(2)];
    index.upsert(indexed(now[0] as StoredProfile));
    index.remove(gone.userId);
    for (const profile of removed) index.upsert(indexed(profile));
    for (const viewer of now) {
      const expected = referenceDeck(viewer, now, new Set());
      expect(deckOf(viewer)).toEqual({ entries: expected.slice(0, 100), total: expected.length });
    }
  });
});
