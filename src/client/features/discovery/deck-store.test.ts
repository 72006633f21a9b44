import { describe, expect, it, vi } from 'vitest';
import type { RecommendedResponse } from '#shared/discovery/discovery-schemas';
import type { PublicProfile } from '#shared/profile/profile-schema';
import { ApiRequestError } from '../../services/http.ts';
import { createDeckStore } from './deck-store.ts';

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
