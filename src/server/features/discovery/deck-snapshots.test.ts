import { describe, expect, it } from 'vitest';
import type { DeckEntry } from '../../db/schema/index.ts';
import { createDeckSnapshots, STORED_ENTRIES } from './deck-snapshots.ts';
import type { StoredDeck } from './recommendation-repository.ts';

const deckOf = (size: number, isComplete: boolean): StoredDeck => ({
  entries: Array.from(
    { length: size },
    (_, i): DeckEntry => [`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, 90 - (i % 50), i / 10],
  ),
  total: size + (isComplete ? 0 : 500),
  isComplete,
  createdAt: new Date('2026-03-10T09:00:00.000Z'),
});

function recordingStore() {
  const written: Map<string, StoredDeck>[] = [];
  return {
    written,
    async loadDeck() {
      return undefined;
    },
    async storeDecks(decks: ReadonlyMap<string, StoredDeck>) {
      written.push(new Map(decks));
    },
  };
}

describe('deck snapshots', () => {
  it("write the deck's head to the database and keep the whole chunk in memory", async () => {
    const store = recordingStore();
    const snapshots = createDeckSnapshots({ store, logger: { warn() {} }, flushMs: 1000 });
    const long = deckOf(200, false);
    const short = deckOf(30, true);
    snapshots.put('long', long);
    snapshots.put('short', short);
    await snapshots.flush();
    const batch = store.written[0];
    expect(store.written).toHaveLength(1);
    // Past STORED_ENTRIES: the head, marked incomplete, so whoever reads it extends it from its last entry.
    expect(batch?.get('long')).toEqual({ ...long, entries: long.entries.slice(0, STORED_ENTRIES), isComplete: false });
    expect(batch?.get('short')).toEqual(short);
    expect(await snapshots.get('long')).toBe(long);
  });

  it('keeps a complete deck complete when it fits', async () => {
    const store = recordingStore();
    const snapshots = createDeckSnapshots({ store, logger: { warn() {} }, flushMs: 1000 });
    const exact = deckOf(STORED_ENTRIES, true);
    snapshots.put('exact', exact);
    await snapshots.flush();
    expect(store.written[0]?.get('exact')).toEqual(exact);
  });
});
