import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { MatchesResponse, MatchListItem } from '#shared/discovery/discovery-schemas';
import { ApiRequestError } from '../../services/http.ts';
import { readMatches, selectLocalDb, wipeLocalDb } from '../../services/local-db.ts';
import { chatButtonLabel, chatTarget, isNewMatch, loadMatches, matchesState } from './matches-store.ts';

function match(n: number): MatchListItem {
  return {
    matchId: `m${n}`,
    conversationId: `c${n}`,
    timestamp: '2026-01-01T10:00:00.000Z',
    otherUser: {
      userId: `u${n}`,
      name: `Persona ${n}`,
      age: 30,
      photos: [],
      location: { city: 'Madrid' },
      compatibilityScore: 80,
      training: { goals: [] },
    },
    lastMessage: null,
    isRecent: false,
  };
}

const answer =
  (...numbers: number[]) =>
  async (): Promise<MatchesResponse> => ({
    success: true,
    message: '',
    matches: numbers.map(match),
  });
const offline = async (): Promise<MatchesResponse> => {
  throw new ApiRequestError('network', '');
};
/** A page load: nothing on screen yet. */
function newPage() {
  matchesState.userId = null;
  matchesState.current = { status: 'loading' };
}
const shownIds = () =>
  matchesState.current.status === 'ready' ? matchesState.current.matches.map((item) => item.matchId) : null;

afterEach(async () => {
  newPage();
  await wipeLocalDb();
});

describe('matches', () => {
  it('labels the chat button by the last message', () => {
    expect(chatButtonLabel({ lastMessage: null })).toBe('Iniciar chat');
    expect(chatButtonLabel({ lastMessage: { text: 'Hola' } })).toBe('Continuar chat');
  });
  it('calls a match «Nuevo» for its first 24 hours while nobody has written (decision 0059)', () => {
    const matchedAt = '2026-01-01T10:00:00.000Z';
    const hoursOn = (hours: number) => Date.parse(matchedAt) + hours * 3600_000;
    const hello = { text: 'Hola', timestamp: matchedAt, senderId: 'u1', read: true };
    expect(isNewMatch({ timestamp: matchedAt, lastMessage: null }, hoursOn(0))).toBe(true);
    expect(isNewMatch({ timestamp: matchedAt, lastMessage: null }, hoursOn(23.9))).toBe(true);
    // A day on, it is no longer new, though nobody has written (issue #34: «Nuevo» on week-old matches).
    expect(isNewMatch({ timestamp: matchedAt, lastMessage: null }, hoursOn(24))).toBe(false);
    expect(isNewMatch({ timestamp: matchedAt, lastMessage: null }, hoursOn(6 * 24))).toBe(false);
    expect(isNewMatch({ timestamp: matchedAt, lastMessage: hello }, hoursOn(1))).toBe(false);
  });
  it('links to the conversation, or the match when there is none', () => {
    expect(chatTarget({ conversationId: 'c1', matchId: 'm1' })).toBe('c1');
    expect(chatTarget({ conversationId: '', matchId: 'm1' })).toBe('m1');
  });
  it('loads and reports failures when nothing is known', async () => {
    await loadMatches('me', async () => ({ success: true, message: '', matches: [] }));
    expect(matchesState.current).toEqual({ status: 'ready', matches: [] });
    newPage();
    await loadMatches('me', offline);
    expect(matchesState.current).toEqual({ status: 'error', message: 'Error al obtener matches' });
  });
});

describe('matches offline-first (QUALITY 19)', () => {
  it('stores what the server sent and shows it on an offline start', async () => {
    const db = selectLocalDb('me');
    await loadMatches('me', answer(2, 1));
    expect((await readMatches(db))?.map((item) => item.matchId)).toEqual(['m2', 'm1']);

    newPage();
    await loadMatches('me', offline);
    expect(shownIds()).toEqual(['m2', 'm1']);
  });

  it('shows the stored list before the server answers, then the answer replaces both', async () => {
    const db = selectLocalDb('me');
    await loadMatches('me', answer(1));
    newPage();
    let release: (value: MatchesResponse) => void = () => {};
    const pending = loadMatches('me', () => new Promise((resolve) => (release = resolve)));
    await expect.poll(shownIds).toEqual(['m1']);
    release(await answer(3, 1)());
    await pending;
    expect(shownIds()).toEqual(['m3', 'm1']);
    expect((await readMatches(db))?.map((item) => item.matchId)).toEqual(['m3', 'm1']);
  });

  it('keeps the list on screen when a refresh fails', async () => {
    selectLocalDb('me');
    await loadMatches('me', answer(1, 2));
    await loadMatches('me', offline);
    expect(shownIds()).toEqual(['m1', 'm2']);
  });

  it("never shows or stores another user's matches", async () => {
    const db = selectLocalDb('me');
    await loadMatches('me', answer(1));
    await loadMatches('other', answer(7));
    expect(shownIds()).toEqual(['m7']);
    expect((await readMatches(db))?.map((item) => item.matchId)).toEqual(['m1']);
    newPage();
    await loadMatches('other', offline);
    expect(matchesState.current.status).toBe('error');
  });
});
