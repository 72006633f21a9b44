/**
 * The suggestion deck (spec 001 §4): loading → deck → empty or error. A swipe removes the top
 * profile at once; with PREFETCH_THRESHOLD or fewer left, more existing and none loading, the
 * next page is appended; a page with nothing new ends the deck.
 *
 * Offline-first (QUALITY 19): the deck as it last stood (what is left of the loaded pages) is kept
 * in the device's store and shown at once while the first page is asked for, so an offline start
 * still has profiles to swipe; the server's page replaces it when it comes.
 */
import { proxy, snapshot, subscribe } from 'valtio';
import {
  DISCOVERY_MESSAGES,
  type MatchOtherUser,
  type RecommendedResponse,
  type SwipeAction,
  type SwipeResponse,
} from '#shared/discovery/discovery-schemas';
import { type LastSwipe, undoAvailability } from '#shared/discovery/undo';
import { PREFETCH_THRESHOLD } from '#shared/profile/options';
import type { PublicProfile } from '#shared/profile/profile-views';
import { ApiRequestError } from '../../services/http.ts';
import { dbFor, readDeck, removeDeckProfile, saveDeck } from '../../services/local-db.ts';
import { outbox } from '../../services/offline.ts';
import { noteMomentOfValue } from '../../services/install-prompt.ts';
import { toast } from '../../ui/toast-store.ts';
import { fetchRecommended, newClientId, sendSwipe, sendUndo } from './discovery-api.ts';

export const PROFILES_LOAD_FAILED = 'Error al obtener perfiles';
export const SWIPE_FAILED = 'Error al realizar la acción';

export type DeckStatus =
  | { status: 'loading' }
  | { status: 'ready' }
  | { status: 'empty' }
  | { status: 'error'; message: string };

export type DeckMatch = { matchId: string; conversationId: string; otherUser: MatchOtherUser };

/** Where the deck is kept between visits (the user's IndexedDB store in the app). */
export type DeckCache = {
  /** The saved deck, or null when there is none. */
  read(userId: string): Promise<readonly PublicProfile[] | null>;
  write(userId: string, profiles: readonly PublicProfile[]): Promise<void>;
};

export type DeckDependencies = {
  fetchPage: (userId: string, page: number) => Promise<RecommendedResponse>;
  swipe: (userId: string, targetUserId: string, action: SwipeAction, clientId: string) => Promise<SwipeResponse>;
  newClientId: () => string;
  /**
   * Takes back the swipe with outbox id `swipeClientId` ("Deshacer", docs/decisions/0023): from
   * the outbox when it was not sent, otherwise on the server. Rejects when refused at once.
   */
  undo?: (userId: string, targetUserId: string, swipeClientId: string) => Promise<void>;
  now?: () => number;
  onMatch?: (match: DeckMatch) => void;
  onSwipeError?: (message: string) => void;
  cache?: DeckCache;
};

function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.message ? error.message : fallback;
}

export function createDeckStore(deps: DeckDependencies) {
  const state = proxy({
    userId: '' as string,
    deck: { status: 'loading' } as DeckStatus,
    profiles: [] as PublicProfile[],
    page: 0,
    hasMore: true,
    isLoadingMore: false,
    match: null as DeckMatch | null,
    /**
     * True while the cards come from the deck saved on an earlier visit, not from the server:
     * some may have been swiped elsewhere or hidden since, and the screen says so (#19 §4).
     */
    isSnapshot: false,
    /** The last swipe and its card, for "Deshacer" (docs/decisions/0023); null once undone. */
    lastSwipe: null as (LastSwipe & { profile: PublicProfile }) | null,
  });
  const now = deps.now ?? Date.now;
  // Bumped by every reload so answers for an older deck are dropped.
  let generation = 0;
  // Swiped in this page's life: a page (or the saved deck) that still lists them, because the
  // swipe waits in the outbox, does not bring them back.
  let swiped = new Set<string>();

  function settle(): void {
    if (state.profiles.length > 0) state.deck = { status: 'ready' };
    else if (!state.hasMore && !state.isLoadingMore) state.deck = { status: 'empty' };
  }

  function append(profiles: readonly PublicProfile[]): number {
    const known = new Set(state.profiles.map((profile) => profile.userId));
    const fresh = profiles.filter((profile) => !known.has(profile.userId) && !swiped.has(profile.userId));
    state.profiles.push(...fresh);
    return fresh.length;
  }

  async function readSaved(userId: string): Promise<readonly PublicProfile[]> {
    try {
      return (await deps.cache?.read(userId)) ?? [];
    } catch {
      return [];
    }
  }

  async function load(userId: string): Promise<void> {
    generation += 1;
    const mine = generation;
    if (state.userId !== userId) {
      swiped = new Set();
      state.lastSwipe = null;
    }
    state.userId = userId;
    state.deck = { status: 'loading' };
    state.profiles = [];
    state.page = 0;
    state.hasMore = true;
    state.isLoadingMore = true;
    state.isSnapshot = false;
    const firstPage = deps.fetchPage(userId, 1);
    // Handled below; this only keeps an early failure from being reported as unhandled.
    firstPage.catch(() => undefined);
    // The saved deck while the first page comes (or does not: offline).
    const saved = await readSaved(userId);
    if (mine === generation && state.deck.status === 'loading' && append(saved) > 0) {
      state.isSnapshot = true;
      settle();
    }
    try {
      const answer = await firstPage;
      if (mine !== generation) return;
      state.page = 1;
      state.profiles = [];
      state.isSnapshot = false;
      const added = append(answer.profiles);
      state.hasMore = answer.hasMore && added > 0;
      state.isLoadingMore = false;
      if (state.profiles.length === 0) state.deck = { status: 'loading' };
      settle();
      if (state.deck.status === 'loading') state.deck = { status: 'empty' };
      void maybePrefetch();
    } catch (error) {
      if (mine !== generation) return;
      state.isLoadingMore = false;
      // The saved deck stays; its page 1 is asked again when it runs low.
      if (state.profiles.length > 0) settle();
      else state.deck = { status: 'error', message: messageOf(error, PROFILES_LOAD_FAILED) };
    }
  }

  async function maybePrefetch(): Promise<void> {
    if (state.profiles.length > PREFETCH_THRESHOLD || !state.hasMore || state.isLoadingMore || !state.userId) return;
    const mine = generation;
    state.isLoadingMore = true;
    try {
      const answer = await deps.fetchPage(state.userId, state.page + 1);
      if (mine !== generation) return;
      state.page += 1;
      const added = append(answer.profiles);
      state.hasMore = answer.hasMore && added > 0;
    } catch {
      if (mine !== generation) return;
      // Keep hasMore: the next swipe tries again.
    } finally {
      if (mine === generation) {
        state.isLoadingMore = false;
        settle();
      }
    }
  }

  /** Removes the top profile (or the one given), sends the swipe and reports a mutual match. */
  async function swipe(action: SwipeAction, targetUserId?: string): Promise<void> {
    const index = targetUserId ? state.profiles.findIndex((p) => p.userId === targetUserId) : 0;
    const target = state.profiles[index];
    if (!target || index < 0) return;
    swiped.add(target.userId);
    state.profiles.splice(index, 1);
    const clientId = deps.newClientId();
    state.lastSwipe = { targetUserId: target.userId, action, clientId, at: now(), isMatch: false, profile: target };
    settle();
    void maybePrefetch();
    try {
      const answer = await deps.swipe(state.userId, target.userId, action, clientId);
      if (answer.match && answer.matchData) {
        markMatched(target.userId);
        const match = {
          matchId: answer.matchData.matchId,
          conversationId: answer.matchData.conversationId,
          otherUser: answer.matchData.otherUser,
        };
        state.match = match;
        deps.onMatch?.(match);
      }
    } catch (error) {
      deps.onSwipeError?.(messageOf(error, SWIPE_FAILED));
    }
  }

  /** The last swipe made a match: "Deshacer" says it cannot be undone. */
  function markMatched(userId: string): void {
    if (state.lastSwipe?.targetUserId === userId) state.lastSwipe = { ...state.lastSwipe, isMatch: true };
  }

  /**
   * "Deshacer": within the window and unless it made a match, the last swipe's card comes back on
   * top at once, and the swipe is taken back (from the outbox, or on the server through it). A
   * refusal (it made a match meanwhile) takes the card away again with the reason.
   */
  async function undo(): Promise<void> {
    const last = state.lastSwipe;
    if (!last || undoAvailability(last, now()).status !== 'available') return;
    const { targetUserId, clientId, profile } = last;
    state.lastSwipe = null;
    swiped.delete(targetUserId);
    state.profiles = [profile, ...state.profiles.filter((other) => other.userId !== targetUserId)];
    settle();
    try {
      await deps.undo?.(state.userId, targetUserId, clientId);
    } catch (error) {
      remove(targetUserId);
      deps.onSwipeError?.(messageOf(error, DISCOVERY_MESSAGES.undoMatched));
    }
  }

  /** Takes someone out of the deck at once, without a swipe (they were blocked), for this page's life. */
  function remove(userId: string): void {
    swiped.add(userId);
    const index = state.profiles.findIndex((profile) => profile.userId === userId);
    if (index < 0) return;
    state.profiles.splice(index, 1);
    settle();
    void maybePrefetch();
  }

  function closeMatch(): void {
    state.match = null;
  }

  /** A swipe replayed later by the outbox (made offline) turned into a match. */
  function showMatch(match: DeckMatch): void {
    markMatched(match.otherUser.userId);
    state.match = match;
    deps.onMatch?.(match);
  }

  // Whatever changes the deck on screen (a page, a swipe, a removal) is saved, once it is the
  // server's deck or what is left of it: never the empty list of a load under way or an error.
  if (deps.cache) {
    const cache = deps.cache;
    let savedKey = '';
    let writing: Promise<void> = Promise.resolve();
    subscribe(state, () => {
      if (!state.userId || (state.deck.status !== 'ready' && state.deck.status !== 'empty')) return;
      const profiles = snapshot(state).profiles as readonly PublicProfile[];
      const key = `${state.userId}:${profiles.map((profile) => profile.userId).join(',')}`;
      if (key === savedKey) return;
      savedKey = key;
      const userId = state.userId;
      writing = writing.then(() => cache.write(userId, profiles)).catch(() => undefined);
    });
  }

  return { state, load, swipe, undo, remove, maybePrefetch, closeMatch, showMatch };
}

export type DeckStore = ReturnType<typeof createDeckStore>;

/** Other parts of the app (the nav badge) listen to this to refresh the match counts. */
export const MATCHES_CHANGED_EVENT = 'matches-changed';

/**
 * The swipe goes through the outbox (QUALITY 13): written to IndexedDB first, replayed with its
 * clientId until the server answers, so a swipe made offline is not lost and never counted twice.
 * The answer arrives later, so the deck learns of a match from the outbox (`showMatch`).
 */
async function swipeThroughOutbox(
  userId: string,
  targetUserId: string,
  action: SwipeAction,
  clientId: string,
): Promise<SwipeResponse> {
  const isQueued = await outbox.enqueue(
    {
      kind: 'swipe',
      scope: 'swipes',
      clientId,
      request: {
        method: 'POST',
        path: `swipes/users/${encodeURIComponent(userId)}/swipe`,
        json: { target_user_id: targetUserId, action, clientId },
      },
    },
    // The saved deck loses the profile in the same transaction: a reload does not show it again.
    (db) => removeDeckProfile(db, targetUserId),
  );
  // Nobody signed in (no local store): straight to the network as before.
  return isQueued ? { success: true, match: false } : sendSwipe(userId, targetUserId, action, clientId);
}

/**
 * "Deshacer" through the outbox (docs/decisions/0023): a swipe still waiting there is withdrawn
 * and nothing reaches the server; one sent (or being sent) is taken back by an undo item queued
 * behind it in the swipes' scope, replayed exactly once like the swipe.
 */
async function undoThroughOutbox(userId: string, targetUserId: string, swipeClientId: string): Promise<void> {
  if (await outbox.withdraw(swipeClientId)) return;
  const isQueued = await outbox.enqueue({
    kind: 'undoSwipe',
    scope: 'swipes',
    clientId: newClientId(),
    request: {
      method: 'POST',
      path: `swipes/users/${encodeURIComponent(userId)}/undo`,
      json: { target_user_id: targetUserId, swipeClientId },
    },
  });
  if (!isQueued) await sendUndo(userId, targetUserId, swipeClientId);
}

export const deckStore: DeckStore = createDeckStore({
  fetchPage: (userId, page) => fetchRecommended(userId, page),
  swipe: swipeThroughOutbox,
  undo: undoThroughOutbox,
  newClientId,
  onMatch: () => {
    window.dispatchEvent(new Event(MATCHES_CHANGED_EVENT));
    // A first match is the moment the install card may be offered (issue #22).
    noteMomentOfValue();
  },
  onSwipeError: (message) => toast.error(message),
  cache: {
    read: async (userId) => {
      const db = dbFor(userId);
      return db ? readDeck(db) : null;
    },
    write: async (userId, profiles) => {
      const db = dbFor(userId);
      if (db) await saveDeck(db, profiles);
    },
  },
});

/** Someone blocked from the profile modal leaves the deck at once (the route calls it; docs/decisions/0012). */
export function removeFromDeck(userId: string): void {
  deckStore.remove(userId);
}

outbox.register('swipe', {
  after: (_item, result) => {
    const answer = result as SwipeResponse;
    if (answer.match && answer.matchData) {
      deckStore.showMatch({
        matchId: answer.matchData.matchId,
        conversationId: answer.matchData.conversationId,
        otherUser: answer.matchData.otherUser,
      });
    }
  },
  fail: async () => {
    toast.error(SWIPE_FAILED);
  },
});

outbox.register('undoSwipe', {
  // The only refusal an undo of one's own swipe meets: it made a match meanwhile (replayed offline).
  fail: async (_db, item) => {
    // From the request (since 0042); items stored before also had it in `payload`.
    const targetUserId =
      (item.request.json as { target_user_id?: string } | undefined)?.target_user_id ??
      (item.payload as { targetUserId?: string } | undefined)?.targetUserId;
    if (targetUserId) removeFromDeck(targetUserId);
    toast.error(DISCOVERY_MESSAGES.undoMatched);
  },
});
