import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MatchesResponse } from '#shared/discovery/discovery-schemas';
import { ApiRequestError } from '../../services/http.ts';
import { matchesCountState, refreshMatchesCount } from './matches-count-store.ts';

const offline = async (): Promise<MatchesResponse> => {
  throw new ApiRequestError('network', '');
};

/** #19 §4: the "Entrenamientos" badge when offline. */
describe('the Entrenamientos badge count', () => {
  beforeEach(() => {
    matchesCountState.count = 0;
  });

  it('counts the server’s matches when online', async () => {
    const online = async (): Promise<MatchesResponse> => ({
      success: true,
      message: '',
      matches: [{}, {}] as MatchesResponse['matches'],
    });
    await refreshMatchesCount({ fetcher: online, userId: 'u1', readStored: async () => 9 });
    expect(matchesCountState.count).toBe(2);
  });

  it('shows the matches stored on this device on an offline start, not an empty badge', async () => {
    await refreshMatchesCount({ fetcher: offline, userId: 'u1', readStored: async () => 4 });
    expect(matchesCountState.count).toBe(4);
  });

  it('keeps a count it already knows when the network drops, and stays empty when nothing was stored', async () => {
    matchesCountState.count = 3;
    await refreshMatchesCount({ fetcher: offline, userId: 'u1', readStored: async () => 1 });
    expect(matchesCountState.count).toBe(3);
    matchesCountState.count = 0;
    await refreshMatchesCount({ fetcher: offline, userId: 'u1', readStored: async () => null });
    expect(matchesCountState.count).toBe(0);
  });
});
