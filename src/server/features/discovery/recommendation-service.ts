import {
  DISCOVERY_MESSAGES,
  type RecommendedResponse,
  RecommendedQuerySchema,
} from '#shared/discovery/discovery-schemas';
import { madridDayKey } from '#shared/time/madrid-calendar';
import type { Clock } from '../../clock.ts';
import { forbidden, notFound } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import {
  ageOf,
  deckColumns,
  openPrivacyReader,
  type PrivacyReader,
  publicProfileView,
  type StoredProfile,
} from '../profiles/profile-model.ts';
import type { ProfileRepository } from '../profiles/profile-repository.ts';
import type { DeckViewer, RecommendationRepository, StoredDeck } from './recommendation-repository.ts';

const M = DISCOVERY_MESSAGES;

/**
 * How many ranked candidates one deck query fetches. Page 1 computes the first chunk (and the
 * total); later pages read it by position and extend it by a seek from its last entry only when
 * a page runs past it (docs/decisions/0006).
 */
export const DECK_CHUNK_SIZE = 200;

export type RecommendationService = ReturnType<typeof createRecommendationService>;

/** "YYYY-MM-DD" moved back `years` years; 29 February becomes 28 February in common years. */
export function yearsBefore(day: string, years: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const target = year - years;
  const lastDay = new Date(Date.UTC(target, month, 0)).getUTCDate();
  const clamped = Math.min(date, lastDay);
  return `${String(target).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(clamped).padStart(2, '0')}`;
}

export function deckViewerOf(profile: StoredProfile, now: Date): DeckViewer {
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
  };
}

/** The suggestion deck (spec 001 §2 /home, §7 recommended). */
export function createRecommendationService(deps: {
  recommendations: RecommendationRepository;
  profiles: ProfileRepository;
  clock: Clock;
  /** What each candidate lets others see (settings privacy); everyone open when absent. */
  privacyOf?: PrivacyReader;
}) {
  const { recommendations, profiles, clock } = deps;

  /** Extends the stored deck by seeking past its last entry until it covers `end` (or ends). */
  const extendTo = async (viewer: DeckViewer, deck: StoredDeck, end: number): Promise<StoredDeck> => {
    let current = deck;
    while (!current.isComplete && current.entries.length < end) {
      const last = current.entries[current.entries.length - 1];
      if (!last) break;
      const next = await recommendations.candidates(
        viewer,
        { userId: last[0], score: last[1], distanceKm: last[2] },
        DECK_CHUNK_SIZE,
      );
      current = {
        ...current,
        entries: [...current.entries, ...next.entries],
        isComplete: next.entries.length < DECK_CHUNK_SIZE,
      };
    }
    if (current !== deck) await recommendations.saveDeck(viewer.userId, current);
    return current;
  };

  return {
    async recommended(callerId: string, pathUserId: string, query: unknown): Promise<RecommendedResponse> {
      if (pathUserId !== callerId) throw forbidden(M.notOwnData);
      const { page, limit } = parseInput(RecommendedQuerySchema, query);
      const me = await profiles.findByUserId(callerId);
      if (!me) throw notFound(M.profileNotFound);
      const now = clock.now();
      const viewer = deckViewerOf(me, now);
      const start = (page - 1) * limit;
      const end = start + limit;
      let deck = page === 1 ? undefined : await recommendations.loadDeck(callerId);
      deck ??= await recommendations.freshDeck(viewer, DECK_CHUNK_SIZE, now);
      deck = await extendTo(viewer, deck, end);
      const pageIds = deck.entries.slice(start, end).map(([userId]) => userId);
      const showable = new Map(
        (await recommendations.showableProfiles(callerId, pageIds)).map((profile) => [profile.userId, profile]),
      );
      // Each card shows only what its person shares (docs/decisions/0025): one read for the page.
      const privacy = await (deps.privacyOf ?? openPrivacyReader)([...showable.keys()]);
      const shown = pageIds.flatMap((userId) => {
        const profile = showable.get(userId);
        return profile
          ? [publicProfileView(profile, me, now, undefined, { isMatched: false, privacy: privacy.get(userId) })]
          : [];
      });
      const total = Math.max(deck.total, deck.entries.length);
      return {
        success: true,
        profiles: shown,
        message: shown.length > 0 ? M.recommendationsFound : M.noMatchesFound,
        totalProfiles: total,
        currentPage: page,
        hasMore: end < total,
      };
    },
  };
}
