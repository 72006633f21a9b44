import { compatibilityFeatures } from '#shared/discovery/compatibility';
import {
  DISCOVERY_MESSAGES,
  type RecommendedResponse,
  RecommendedQuerySchema,
} from '#shared/discovery/discovery-schemas';
import { haversineKm } from '#shared/discovery/distance';
import { matchesPreferences } from '#shared/discovery/preferences';
import type { Gender, GenderPreference } from '#shared/profile/options';
import { madridDayKey } from '#shared/time/madrid-calendar';
import type { Clock } from '../../clock.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { SessionLiveness } from '../auth/session-service.ts';
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
import type { CandidateIndex, IndexViewer } from './candidate-index.ts';
import type { DeckIndexRepository } from './deck-index-repository.ts';
import { createDeckSnapshots, type DeckSnapshots } from './deck-snapshots.ts';
import type { LiveDeckIndex } from './live-deck-index.ts';
import type { DeckViewer, RecommendationRepository, StoredDeck } from './recommendation-repository.ts';

const M = DISCOVERY_MESSAGES;

/**
 * How many ranked candidates one deck query fetches. Page 1 computes the first chunk (and the
 * total); later pages read it by position and extend it by a seek from its last entry only when
 * a page runs past it (docs/decisions/0006).
 */
export const DECK_CHUNK_SIZE = 200;

export type RecommendationService = ReturnType<typeof createRecommendationService>;

/**
 * Who asks for a deck: a settled caller, or one whose session row is still to be read (`pending`,
 * the route's `authenticateOrDefer`) — then the first statement reads it and `settle` decides
 * (401) before anything is ranked or answered (docs/decisions/0022 amendment 4).
 */
export type DeckCaller = {
  userId: string;
  sessionId: string;
  pending?: { settle(row: SessionLiveness | undefined): Promise<void>; resolve(): Promise<void> };
};

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

/** fitEachOther with `a`'s side computed once: a page re-checks its ten rows against one viewer. */
export function fitsProfile(a: StoredProfile, now: Date): (b: StoredProfile) => boolean {
  const x = sideOf(a, now);
  return (b) => {
    const y = sideOf(b, now);
    return (
      matchesPreferences(x, y) &&
      matchesPreferences(y, x) &&
      haversineKm(a, b) <= Math.min(a.preferences.distance, b.preferences.distance)
    );
  };
}

/** The suggestion deck (spec 001 §2 /home, §7 recommended). */
export function createRecommendationService(deps: {
  recommendations: RecommendationRepository;
  profiles: ProfileRepository;
  clock: Clock;
  /** What each candidate lets others see (settings privacy); everyone open when absent. */
  privacyOf?: PrivacyReader;
  /** The per-node candidate index and its reads (docs/decisions/0022); without it, or while it builds, SQL ranks. */
  index?: { live: LiveDeckIndex; repository: DeckIndexRepository };
  /** Where the viewers' deck snapshots are kept (default: read and written at once, no memory). */
  snapshots?: DeckSnapshots;
}) {
  const { recommendations, profiles, clock } = deps;
  const snapshots =
    deps.snapshots ?? createDeckSnapshots({ store: recommendations, logger: { warn() {} }, maxViewers: 0, flushMs: 0 });

  /** Ranks with the index from the last entry of `deck` until it covers `end` (or ends). */
  const extendWithIndex = (
    index: CandidateIndex,
    viewer: IndexViewer,
    excluded: ReadonlySet<string>,
    deck: StoredDeck,
    end: number,
  ): StoredDeck => {
    let current = deck;
    while (!current.isComplete && current.entries.length < end) {
      const last = current.entries[current.entries.length - 1];
      if (!last) break;
      const next = index.rank(
        viewer,
        excluded,
        { userId: last[0], score: last[1], distanceKm: last[2] },
        DECK_CHUNK_SIZE,
      );
      current = {
        ...current,
        entries: [...current.entries, ...next.entries],
        isComplete: next.entries.length < DECK_CHUNK_SIZE,
      };
    }
    return current;
  };

  /**
   * A page 2+ from a deck this node holds (or found stored) that already covers it: the viewer's
   * row and the page's rows in one statement, no ranking (the excluded ids are only needed to rank
   * or extend).
   */
  const heldPage = async (
    repository: DeckIndexRepository,
    callerId: string,
    deck: StoredDeck,
    start: number,
    end: number,
  ) => {
    const pageIds = deck.entries.slice(start, end).map(([userId]) => userId);
    const { me, page } = await repository.pageWithViewer(callerId, pageIds);
    if (!me) throw notFound(M.profileNotFound);
    const rows = page.map((row) => row.profile);
    const privacy = new Map(page.map((row) => [row.profile.userId, row.privacy]));
    return { me, now: clock.now(), deck, pageIds, rows, end, privacy };
  };

  /** A page from the index: one read for the viewer (own row + who to leave out), the ranking in memory, one read for the page's rows. */
  const recommendedWithIndex = async (
    index: CandidateIndex,
    repository: DeckIndexRepository,
    caller: DeckCaller,
    page: number,
    limit: number,
  ) => {
    const callerId = caller.userId;
    const start = (page - 1) * limit;
    const end = start + limit;
    // A page 2+ reads the deck once: a cold session's caller only after its session is settled.
    let stored = page === 1 || caller.pending ? undefined : await snapshots.get(callerId);
    if (stored && (stored.isComplete || stored.entries.length >= end)) {
      return heldPage(repository, callerId, stored, start, end);
    }
    const state = await repository.viewerState(callerId, caller.pending ? caller.sessionId : null);
    if (caller.pending) {
      // No profile row, no session read with it: read the session alone (401 before 404).
      await (state ? caller.pending.settle(state.session) : caller.pending.resolve());
    }
    if (!state) throw notFound(M.profileNotFound);
    const me = state.profile;
    const now = clock.now();
    const viewer: IndexViewer = { ...deckViewerOf(me, now), features: compatibilityFeatures(me) };
    if (page > 1 && caller.pending) stored = await snapshots.get(callerId);
    if (!stored) {
      const ranked = index.rank(viewer, state.excluded, null, DECK_CHUNK_SIZE);
      stored = { ...ranked, isComplete: ranked.entries.length < DECK_CHUNK_SIZE, createdAt: now };
    }
    const deck = extendWithIndex(index, viewer, state.excluded, stored, end);
    if (deck !== stored || page === 1) snapshots.put(callerId, deck);
    const pageIds = deck.entries.slice(start, end).map(([userId]) => userId);
    const found = await repository.pageProfiles(callerId, pageIds);
    const rows = found.map((row) => row.profile);
    const privacy = new Map(found.map((row) => [row.profile.userId, row.privacy]));
    return { me, now, deck, pageIds, rows, end, privacy };
  };

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
    if (current !== deck) snapshots.put(viewer.userId, current);
    return current;
  };

  /** A page from the SQL query (decision 0006): the fallback while the index builds. */
  const recommendedWithSql = async (callerId: string, page: number, limit: number) => {
    const me = await profiles.findByUserId(callerId);
    if (!me) throw notFound(M.profileNotFound);
    const now = clock.now();
    const viewer = deckViewerOf(me, now);
    const start = (page - 1) * limit;
    const end = start + limit;
    let deck = page === 1 ? undefined : await snapshots.get(callerId);
    if (!deck) {
      deck = await recommendations.freshDeck(viewer, DECK_CHUNK_SIZE, now);
      snapshots.remember(callerId, deck);
    }
    deck = await extendTo(viewer, deck, end);
    const pageIds = deck.entries.slice(start, end).map(([userId]) => userId);
    const rows = await recommendations.showableProfiles(callerId, pageIds);
    return { me, now, deck, pageIds, rows, end, privacy: undefined };
  };

  return {
    async recommended(caller: DeckCaller, pathUserId: string, query: unknown): Promise<RecommendedResponse> {
      const callerId = caller.userId;
      if (pathUserId !== callerId) {
        await caller.pending?.resolve();
        throw forbidden(M.notOwnData);
      }
      let parsed: { page: number; limit: number };
      try {
        parsed = parseInput(RecommendedQuerySchema, query);
      } catch (error) {
        await caller.pending?.resolve(); // an unknown session is a 401 before a bad query's 400
        throw error;
      }
      const { page, limit } = parsed;
      const index = await deps.index?.live.current();
      if (!(index && deps.index)) await caller.pending?.resolve();
      const { me, now, deck, pageIds, rows, end, ...read } =
        index && deps.index
          ? await recommendedWithIndex(index, deps.index.repository, caller, page, limit)
          : await recommendedWithSql(callerId, page, limit);
      const fitsMe = fitsProfile(me, now);
      const showable = new Map(rows.filter(fitsMe).map((profile) => [profile.userId, profile]));
      // Each card shows only what its person shares (docs/decisions/0025): read with the page's rows
      // (index), or one read for the page (SQL).
      const privacy = read.privacy ?? (await (deps.privacyOf ?? openPrivacyReader)([...showable.keys()]));
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
