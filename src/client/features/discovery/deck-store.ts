/**
 * The suggestion deck (spec 001 §4): loading → deck → empty or error. A swipe removes the top
 * profile at once; with PREFETCH_THRESHOLD or fewer left, more existing and none loading, the
 * next page is appended; a page with nothing new ends the deck.
 */
import { proxy } from 'valtio';
import type {
  MatchOtherUser,
  RecommendedResponse,
  SwipeAction,
  SwipeResponse,
} from '#shared/discovery/discovery-schemas';
import { PREFETCH_THRESHOLD } from '#shared/profile/options';
import type { PublicProfile } from '#shared/profile/profile-schema';
import { ApiRequestError } from '../../services/http.ts';
import { outbox } from '../../services/offline.ts';
import { toast } from '../../ui/toast-store.ts';
import { fetchRecommended, newClientId, sendSwipe } from './discovery-api.ts';

export const PROFILES_LOAD_FAILED = 'Error al obtener perfiles';
export const SWIPE_FAILED = 'Error al realizar la acción';

export type DeckStatus =
  | { status: 'loading' }
  | { status: 'ready' }
  | { status: 'empty' }
  | { status: 'error'; message: string };

export type DeckMatch = { matchId: string; conversationId: string; otherUser: MatchOtherUser };

export type DeckDependencies = {
  fetchPage: (userId: string, page: number) => Promise<RecommendedResponse>;
  swipe: (userId: string, targetUserId: string, action: SwipeAction, clientId: string) => Promise<SwipeResponse>;
  newClientId: () => string;
  onMatch?: (match: DeckMatch) => void;
  onSwipeError?: (message: string) => void;
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
  });
  // Bumped by every reload so answers for an older deck are dropped.
  let generation = 0;

  function settle(): void {
    if (state.profiles.length > 0) state.deck = { status: 'ready' };
    else if (!state.hasMore && !state.isLoadingMore) state.deck = { status: 'empty' };
  }

  function append(profiles: readonly PublicProfile[]): number {
    const known = new Set(state.profiles.map((profile) => profile.userId));
    const fresh = profiles.filter((profile) => !known.has(profile.userId));
    state.profiles.push(...fresh);
    return fresh.length;
  }

  async function load(userId: string): Promise<void> {
    generation += 1;
    const mine = generation;
    state.userId = userId;
    state.deck = { status: 'loading' };
    state.profiles = [];
    state.page = 0;
    state.hasMore = true;
    state.isLoadingMore = true;
    try {
      const answer = await deps.fetchPage(userId, 1);
      if (mine !== generation) return;
      state.page = 1;
      const added = append(answer.profiles);
      state.hasMore = answer.hasMore && added > 0;
      state.isLoadingMore = false;
      settle();
      if (state.deck.status === 'loading') state.deck = { status: 'empty' };
      void maybePrefetch();
    } catch (error) {
      if (mine !== generation) return;
      state.isLoadingMore = false;
      state.deck = { status: 'error', message: messageOf(error, PROFILES_LOAD_FAILED) };
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
    state.profiles.splice(index, 1);
    settle();
    void maybePrefetch();
    try {
      const answer = await deps.swipe(state.userId, target.userId, action, deps.newClientId());
      if (answer.match && answer.matchData) {
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

  function closeMatch(): void {
    state.match = null;
  }

  /** A swipe replayed later by the outbox (made offline) turned into a match. */
  function showMatch(match: DeckMatch): void {
    state.match = match;
    deps.onMatch?.(match);
  }

  return { state, load, swipe, maybePrefetch, closeMatch, showMatch };
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
  const isQueued = await outbox.enqueue({
    kind: 'swipe',
    scope: 'swipes',
    clientId,
    request: {
      method: 'POST',
      path: `swipes/users/${encodeURIComponent(userId)}/swipe`,
      json: { target_user_id: targetUserId, action, clientId },
    },
    payload: { userId, targetUserId, action },
  });
  // Nobody signed in (no local store): straight to the network as before.
  return isQueued ? { success: true, match: false } : sendSwipe(userId, targetUserId, action, clientId);
}

export const deckStore: DeckStore = createDeckStore({
  fetchPage: (userId, page) => fetchRecommended(userId, page),
  swipe: swipeThroughOutbox,
  newClientId,
  onMatch: () => window.dispatchEvent(new Event(MATCHES_CHANGED_EVENT)),
  onSwipeError: (message) => toast.error(message),
});

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
