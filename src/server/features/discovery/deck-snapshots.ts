import type { StoredDeck } from './recommendation-repository.ts';

type Logger = { warn(object: object, message: string): void };

/** Where snapshots are kept for the other nodes (recommendation_decks). */
export type DeckSnapshotStore = {
  loadDeck(viewerId: string): Promise<StoredDeck | undefined>;
  storeDecks(decks: ReadonlyMap<string, StoredDeck>): Promise<void>;
};

export type DeckSnapshots = ReturnType<typeof createDeckSnapshots>;

/**
 * The viewers' deck snapshots (decision 0006: page N reads the deck ranked at page 1) as this node
 * keeps them: the most recent in memory (pages 2+ here read no deck row), and written behind to
 * the database in batches — one statement per `flushMs` for every deck ranked meanwhile, instead
 * of one per page 1 — so a page 2 answered by another node finds it. A page 2 follows its page 1
 * by the seconds it takes to swipe ten cards; the batch is written within `flushMs`.
 */
export function createDeckSnapshots(deps: {
  store: DeckSnapshotStore;
  logger: Logger;
  maxViewers?: number;
  flushMs?: number;
}) {
  const { store, logger } = deps;
  const maxViewers = deps.maxViewers ?? 2000;
  const flushMs = deps.flushMs ?? 20;
  const recent = new Map<string, StoredDeck>();
  let pending = new Map<string, StoredDeck>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.size === 0) return writing;
    const batch = pending;
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
