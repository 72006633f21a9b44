import type { StoredDeck } from './recommendation-repository.ts';

type Logger = { warn(object: object, message: string): void };

/** Where snapshots are kept for the other nodes (recommendation_decks). */
export type DeckSnapshotStore = {
  loadDeck(viewerId: string): Promise<StoredDeck | undefined>;
  storeDecks(decks: ReadonlyMap<string, StoredDeck>): Promise<void>;
};

export type DeckSnapshots = ReturnType<typeof createDeckSnapshots>;

/**
 * What the database copy keeps of a deck: its first 50 entries (five pages of ten), the total and
 * where it stops. A node reading a copy past its end extends it from its last entry, like a
 * chunk boundary (the order is a total order on score, distance, id), so a shorter copy changes
 * no page; it cuts the JSON written per page 1 by three quarters.
 */
export const STORED_ENTRIES = 50;

/**
 * The viewers' deck snapshots (decision 0006: page N reads the deck ranked at page 1) as this node
 * keeps them: the most recent in memory (pages 2+ here read no deck row), and written behind to
 * the database in batches — one statement per `flushMs` for every deck ranked meanwhile, instead
 * of one per page 1 — so a page 2 answered by another node finds it. A page 2 follows its page 1
 * by the seconds it takes to swipe ten cards; the batch is written within `flushMs`. The copy is
 * the deck's head (STORED_ENTRIES); memory keeps the whole chunk.
 */
export function createDeckSnapshots(deps: {
  store: DeckSnapshotStore;
  logger: Logger;
  maxViewers?: number;
  flushMs?: number;
  /** Entries written to the database per deck (the rest is ranked again by whoever extends it). */
  storedEntries?: number;
}) {
  const { store, logger } = deps;
  const maxViewers = deps.maxViewers ?? 2000;
  const flushMs = deps.flushMs ?? 20;
  const storedEntries = deps.storedEntries ?? STORED_ENTRIES;
  const recent = new Map<string, StoredDeck>();
  let pending = new Map<string, StoredDeck>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.size === 0) return writing;
    const batch = new Map<string, StoredDeck>();
    for (const [viewerId, deck] of pending) {
      batch.set(
        viewerId,
        deck.entries.length <= storedEntries
          ? deck
          : { ...deck, entries: deck.entries.slice(0, storedEntries), isComplete: false },
      );
    }
    pending = new Map();
    writing = writing.then(() =>
      store.storeDecks(batch).catch((error) => {
        logger.warn({ err: error, viewers: batch.size }, 'deck snapshots: write failed');
      }),
    );
    return writing;
  };

  return {
    async get(viewerId: string): Promise<StoredDeck | undefined> {
      const known = recent.get(viewerId);
      if (known) {
        // Most recently used last: the first key is the one to evict.
        recent.delete(viewerId);
        recent.set(viewerId, known);
        return known;
      }
      return store.loadDeck(viewerId);
    },

    put(viewerId: string, deck: StoredDeck): void {
      this.remember(viewerId, deck);
      pending.set(viewerId, deck);
      timer ??= setTimeout(() => void flush(), flushMs);
    },

    /** Keeps a deck the database already holds (the SQL path stores page 1 in its own statement). */
    remember(viewerId: string, deck: StoredDeck): void {
      recent.delete(viewerId);
      recent.set(viewerId, deck);
      if (recent.size > maxViewers) recent.delete(recent.keys().next().value as string);
    },

    /** Writes what is pending now (and waits for the writes under way). */
    flush,
  };
}
