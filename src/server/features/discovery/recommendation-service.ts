/**
 * The suggestion deck's pages. The ranking lives in ranking/ (its README maps it): here the
 * service chooses between the node's candidate index and the SQL fallback while the index loads,
 * keeps the viewer's deck snapshot, and re-checks and shows a page's rows.
 */
import { compatibilityFeatures } from '#shared/discovery/compatibility';
import {
  DISCOVERY_MESSAGES,
  type RecommendedResponse,
  RecommendedQuerySchema,
} from '#shared/discovery/discovery-schemas';
import type { Clock } from '../../infra/clock.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { SessionLiveness } from '../../infra/session-contract.ts';
import { parseInput } from '../../validation.ts';
import { openPrivacyReader, type PrivacyReader, publicProfileView } from '../profiles/profile-model.ts';
import type { ProfileRepository } from '../profiles/profile-repository.ts';
import { createDeckSnapshots, type DeckSnapshots } from './deck-snapshots.ts';
import type { CandidateIndex, IndexViewer } from './ranking/candidate-index.ts';
import type { DeckIndexRepository } from './ranking/deck-index-repository.ts';
import { type DeckViewer, deckViewerOf, fitsProfile } from './ranking/deck-viewer.ts';
import type { LiveDeckIndex } from './ranking/live-deck-index.ts';
import type { RecommendationRepository, StoredDeck } from './recommendation-repository.ts';

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
    const { me, filters, page } = await repository.pageWithViewer(callerId, pageIds);
    if (!me) throw notFound(DISCOVERY_MESSAGES.profileNotFound);
    const rows = page.map((row) => row.profile);
    const privacy = new Map(page.map((row) => [row.profile.userId, row.privacy]));
    return { me, filters, now: clock.now(), deck, pageIds, rows, end, privacy };
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
    if (!state) throw notFound(DISCOVERY_MESSAGES.profileNotFound);
    const me = state.profile;
    const now = clock.now();
    const viewer: IndexViewer = { ...deckViewerOf(me, now, state.filters), features: compatibilityFeatures(me) };
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
    return { me, filters: state.filters, now, deck, pageIds, rows, end, privacy };
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
    const [me, filters] = await Promise.all([profiles.findByUserId(callerId), recommendations.viewerFilters(callerId)]);
    if (!me) throw notFound(DISCOVERY_MESSAGES.profileNotFound);
    const now = clock.now();
    const viewer = deckViewerOf(me, now, filters);
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
    return { me, filters, now, deck, pageIds, rows, end, privacy: undefined };
  };

  return {
    async recommended(caller: DeckCaller, pathUserId: string, query: unknown): Promise<RecommendedResponse> {
      const callerId = caller.userId;
      if (pathUserId !== callerId) {
        await caller.pending?.resolve();
        throw forbidden(DISCOVERY_MESSAGES.notOwnData);
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
      const { me, filters, now, deck, pageIds, rows, end, ...read } =
        index && deps.index
          ? await recommendedWithIndex(index, deps.index.repository, caller, page, limit)
          : await recommendedWithSql(callerId, page, limit);
      const fitsMe = fitsProfile(me, now, filters);
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
        message: shown.length > 0 ? DISCOVERY_MESSAGES.recommendationsFound : DISCOVERY_MESSAGES.noMatchesFound,
        totalProfiles: total,
        currentPage: page,
        hasMore: end < total,
      };
    },
  };
}
