import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecommendedResponse } from '#shared/discovery/discovery-schemas';
import type { PublicProfile } from '#shared/profile/profile-views';
import { ApiRequestError } from '../../services/http.ts';
import { dbFor, readDeck, saveDeck, selectLocalDb, wipeLocalDb } from '../../services/local-db.ts';
import { createDeckStore, type DeckCache, PROFILES_LOAD_FAILED } from './deck-store.ts';

function profile(n: number): PublicProfile {
  return {
    id: `p${n}`,
    userId: `u${n}`,
    name: `Persona ${n}`,
    age: 30,
    bio: 'Me gusta entrenar',
    photos: [],
    verified: false,
    location: { city: 'Madrid' },
    distanceText: 'A 2 km',
    compatibilityScore: 80,
    compatibilityReasons: [],
  } as unknown as PublicProfile;
}

function page(numbers: number[], hasMore: boolean, currentPage = 1): RecommendedResponse {
  return {
    success: true,
    profiles: numbers.map(profile),
    message: numbers.length ? 'ok' : 'no_matches_found',
    totalProfiles: 0,
    currentPage,
    hasMore,
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(pages: Record<number, RecommendedResponse>) {
  const fetchPage = vi.fn(async (_userId: string, n: number) => pages[n] ?? page([], false, n));
  const swipe = vi.fn(async () => ({ success: true as const, match: false }));
  const store = createDeckStore({ fetchPage, swipe, newClientId: () => 'c1' });
  return { store, fetchPage, swipe };
}

describe('deck store', () => {
  describe('Deshacer (docs/decisions/0023)', () => {
    function withUndo(pages: Record<number, RecommendedResponse>, undo = vi.fn(async () => undefined)) {
      let clock = 1_000;
      let ids = 0;
      const swipe = vi.fn(async () => ({ success: true as const, match: false }));
      const onSwipeError = vi.fn();
      const store = createDeckStore({
        fetchPage: async (_u, n) => pages[n] ?? page([], false, n),
        swipe,
        undo,
        onSwipeError,
        newClientId: () => `swipe-${++ids}`,
        now: () => clock,
      });
      return { store, undo, swipe, onSwipeError, advance: (ms: number) => (clock += ms) };
    }

    it('brings the last card back on top, with its reasons, and takes back that swipe only', async () => {
      const { store, undo, advance } = withUndo({ 1: page([1, 2, 3, 4, 5, 6], false) });
      await store.load('me');
      await store.swipe('dislike');
      await store.swipe('superlike');
      advance(9_999);
      await store.undo();
      expect(store.state.profiles.map((p) => p.userId)).toEqual(['u2', 'u3', 'u4', 'u5', 'u6']);
      expect(store.state.profiles[0]).toEqual(profile(2));
      expect(undo).toHaveBeenCalledExactlyOnceWith('me', 'u2', 'swipe-2');
      // Only the last swipe: a second press does nothing.
      await store.undo();
      expect(undo).toHaveBeenCalledTimes(1);
      expect(store.state.lastSwipe).toBeNull();
    });

    it('does nothing once the window is over', async () => {
      const { store, undo, advance } = withUndo({ 1: page([1, 2, 3, 4, 5], false) });
      await store.load('me');
      await store.swipe('like');
      advance(10_000);
      await store.undo();
      expect(undo).not.toHaveBeenCalled();
      expect(store.state.profiles.map((p) => p.userId)).not.toContain('u1');
    });

    it('cannot undo a swipe that made a match', async () => {
      const { store, undo } = withUndo({ 1: page([1, 2, 3, 4, 5], false) });
      await store.load('me');
      await store.swipe('like');
      store.showMatch({
        matchId: 'm',
        conversationId: 'c',
        otherUser: { userId: 'u1', name: 'Persona 1', photos: [] },
      });
      expect(store.state.lastSwipe?.isMatch).toBe(true);
      await store.undo();
      expect(undo).not.toHaveBeenCalled();
      expect(store.state.profiles.map((p) => p.userId)).not.toContain('u1');
    });

    it('takes the card away again when the undo is refused, with the reason', async () => {
      const refuse = vi.fn(async () => {
        throw new ApiRequestError('http', 'Ya es un entrenamiento: no se puede deshacer.', 409);
      });
      const { store, onSwipeError } = withUndo({ 1: page([1, 2, 3, 4, 5], false) }, refuse);
      await store.load('me');
      await store.swipe('like');
      await store.undo();
      expect(store.state.profiles.map((p) => p.userId)).toEqual(['u2', 'u3', 'u4', 'u5']);
      expect(onSwipeError).toHaveBeenCalledWith('Ya es un entrenamiento: no se puede deshacer.');
    });
  });

  it('loads the first page and removes the top profile after a swipe, with a client id', async () => {
    const { store, swipe } = setup({ 1: page([1, 2, 3, 4, 5, 6], true) });
    await store.load('me');
    expect(store.state.deck.status).toBe('ready');
    await store.swipe('like');
    expect(store.state.profiles.map((p) => p.userId)).toEqual(['u2', 'u3', 'u4', 'u5', 'u6']);
    expect(swipe).toHaveBeenCalledWith('me', 'u1', 'like', 'c1');
  });

  it('fetches the next page once when 3 or fewer remain, and appends it', async () => {
    const { store, fetchPage } = setup({ 1: page([1, 2, 3, 4, 5], true), 2: page([6, 7], false, 2) });
    await store.load('me');
    expect(fetchPage).toHaveBeenCalledTimes(1);
    await store.swipe('dislike');
    expect(fetchPage).toHaveBeenCalledTimes(1);
    void store.swipe('dislike'); // 3 left → prefetch
    void store.swipe('dislike'); // already loading → no second call
    await flush();
    expect(fetchPage).toHaveBeenCalledTimes(2);
    expect(fetchPage).toHaveBeenLastCalledWith('me', 2);
    expect(store.state.profiles.map((p) => p.userId)).toEqual(['u4', 'u5', 'u6', 'u7']);
    expect(store.state.hasMore).toBe(false);
  });

  it('shows the empty state when hasMore turns false with an empty deck', async () => {
    const { store } = setup({ 1: page([1], true), 2: page([], false, 2) });
    await store.load('me');
    await flush();
    expect(store.state.hasMore).toBe(false);
    expect(store.state.deck.status).toBe('ready');
    await store.swipe('like');
    await flush();
    expect(store.state.deck.status).toBe('empty');
  });

  it('is empty at once when the first page has nobody', async () => {
    const { store } = setup({ 1: page([], false) });
    await store.load('me');
    expect(store.state.deck.status).toBe('empty');
  });

  it('shows the server message when loading fails', async () => {
    const fetchPage = vi.fn(async () => {
      throw new ApiRequestError('http', 'Perfil no encontrado', 404);
    });
    const store = createDeckStore({ fetchPage, swipe: vi.fn(), newClientId: () => 'x' });
    await store.load('me');
    expect(store.state.deck).toEqual({ status: 'error', message: 'Perfil no encontrado' });
  });

  it('opens the match for a mutual like', async () => {
    const pages = { 1: page([1, 2, 3, 4, 5], false) };
    const onMatch = vi.fn();
    const store = createDeckStore({
      fetchPage: async (_u, n) => pages[n as 1] ?? page([], false),
      swipe: async () => ({
        success: true,
        match: true,
        matchData: {
          matchId: 'm1',
          conversationId: 'c9',
          otherUser: { userId: 'u1', name: 'Persona 1', photos: [] },
          swipeType: 'like',
        },
      }),
      newClientId: () => 'x',
      onMatch,
    });
    await store.load('me');
    await store.swipe('superlike');
    expect(store.state.match?.conversationId).toBe('c9');
    expect(onMatch).toHaveBeenCalledOnce();
  });
});

/** The app's cache: the signed-in user's IndexedDB store. */
const dexieCache: DeckCache = {
  read: async (userId) => {
    const db = dbFor(userId);
    return db ? readDeck(db) : null;
  },
  write: async (userId, profiles) => {
    const db = dbFor(userId);
    if (db) await saveDeck(db, profiles);
  },
};

const offline = async (): Promise<RecommendedResponse> => {
  throw new ApiRequestError('network', '');
};

function offlineFirst(fetchPage: (userId: string, n: number) => Promise<RecommendedResponse>) {
  return createDeckStore({
    fetchPage,
    swipe: vi.fn(async () => ({ success: true as const, match: false })),
    newClientId: () => 'c1',
    cache: dexieCache,
  });
}

const ids = (profiles: readonly PublicProfile[] | null | undefined) => profiles?.map((p) => p.userId);

describe('deck store offline-first (QUALITY 19)', () => {
  // A user per test: a store of an earlier test may still be saving.
  let me = '';
  let users = 0;
  beforeEach(() => {
    users += 1;
    me = `deck-user-${users}`;
  });
  afterEach(() => wipeLocalDb());

  it('saves the deck it shows and opens with it offline', async () => {
    const db = selectLocalDb(me);
    const online = offlineFirst(async (_u, n) => (n === 1 ? page([1, 2, 3, 4, 5], false) : page([], false, n)));
    await online.load(me);
    await online.swipe('like');
    await expect.poll(async () => ids(await readDeck(db))).toEqual(['u2', 'u3', 'u4', 'u5']);

    // The next visit, offline: the saved deck, ready to swipe.
    const next = offlineFirst(offline);
    await next.load(me);
    expect(next.state.deck.status).toBe('ready');
    expect(ids(next.state.profiles)).toEqual(['u2', 'u3', 'u4', 'u5']);
    // The failed load did not wipe the saved deck.
    expect(ids(await readDeck(db))).toEqual(['u2', 'u3', 'u4', 'u5']);
  });

  it('shows the saved deck while page 1 comes, then the server page replaces it (no swiped profile)', async () => {
    const db = selectLocalDb(me);
    await saveDeck(db, [1, 2, 3, 4, 5].map(profile));
    let release: (value: RecommendedResponse) => void = () => {};
    const store = offlineFirst((_u, n) =>
      n === 1 ? new Promise((resolve) => (release = resolve)) : Promise.resolve(page([], false, n)),
    );
    const loading = store.load(me);
    await expect.poll(() => store.state.deck.status).toBe('ready');
    expect(ids(store.state.profiles)).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
    // The saved cards are said to be a snapshot until the server's page replaces them (#19 §4).
    expect(store.state.isSnapshot).toBe(true);
    await store.swipe('dislike');
    // The server has not seen that swipe yet (it waits in the outbox): u1 must not come back.
    release(page([1, 6, 7, 8, 9], false));
    await loading;
    expect(ids(store.state.profiles)).toEqual(['u6', 'u7', 'u8', 'u9']);
    expect(store.state.isSnapshot).toBe(false);
    await expect.poll(async () => ids(await readDeck(db))).toEqual(['u6', 'u7', 'u8', 'u9']);
  });

  it('asks page 1 again when the saved deck runs low after an offline start', async () => {
    const db = selectLocalDb(me);
    await saveDeck(db, [1, 2].map(profile));
    const fetchPage = vi.fn<(userId: string, n: number) => Promise<RecommendedResponse>>(offline);
    const store = offlineFirst(fetchPage);
    await store.load(me);
    expect(ids(store.state.profiles)).toEqual(['u1', 'u2']);
    // Offline, the saved deck stays on screen and stays marked as a snapshot.
    expect(store.state.isSnapshot).toBe(true);
    fetchPage.mockImplementation(async (_u: string, n: number) =>
      n === 1 ? page([1, 2, 3], false) : page([], false, n),
    );
    await store.swipe('like');
    await flush();
    expect(fetchPage).toHaveBeenLastCalledWith(me, 1);
    expect(ids(store.state.profiles)).toEqual(['u2', 'u3']);
  });

  it('is an error offline when nothing was saved, and saves nothing for another user', async () => {
    const db = selectLocalDb(me);
    const store = offlineFirst(offline);
    await store.load(me);
    expect(store.state.deck).toEqual({ status: 'error', message: PROFILES_LOAD_FAILED });
    expect(await readDeck(db)).toBeNull();
    const other = offlineFirst(async () => page([8], false));
    await other.load('someone-else');
    await flush();
    expect(await readDeck(db)).toBeNull();
  });
});
