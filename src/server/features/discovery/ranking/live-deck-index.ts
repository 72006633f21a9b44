import type { IndexedProfile } from './candidate-index.ts';
import { type CandidateIndex, createCandidateIndex } from './candidate-index.ts';

/** What the live index needs from the database (deck-index-repository.ts). */
export type DeckIndexSource = {
  candidatesAfter(afterUserId: string | null, limit: number): Promise<IndexedProfile[]>;
  candidatesOf(userIds: readonly string[]): Promise<IndexedProfile[]>;
  listen(handlers: {
    onIds(userIds: string[]): void;
    onReset(): void;
    onError(error: unknown): void;
  }): Promise<() => Promise<void>>;
};

type Logger = {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
};

/** Rows per load query: small enough that no single statement or mapping holds the event loop for long. */
const LOAD_CHUNK = 20_000;

export type LoadReport = { profiles: number; ms: number; typedBytes: number; estimatedBytes: number };

export type LiveDeckIndex = ReturnType<typeof createLiveDeckIndex>;

/**
 * The candidate index of this node, kept fresh (docs/decisions/0022):
 * - `start()` listens to the change feed first, then loads every candidate in chunks. Loads and
 *   refreshes run one after the other on one chain, so the notifications heard during a load are
 *   re-read and applied after it: nothing committed after the listening began is missed.
 * - Each notification (any writer, any node) re-reads the rows it names and applies them, one
 *   batch at a time, in order, so an older read never overwrites a newer one.
 * - `refresh(ids)` is the same for this node's own writes, awaited before they answer, so the
 *   next deck request here sees them.
 * - A bulk change ('*') or a lost listening connection rebuilds a new index beside the old one.
 * While it is not ready (`current()` is undefined) the deck answers with the SQL query instead.
 */
export function createLiveDeckIndex(deps: { source: DeckIndexSource; logger: Logger }) {
  const { source, logger } = deps;
  let index: CandidateIndex | undefined;
  let queued = new Set<string>();
  let chain: Promise<void> = Promise.resolve();
  let waiting: Promise<void> | undefined;
  let stopListening: (() => Promise<void>) | undefined;
  let isClosed = false;
  let generation = 0;
  let lastLoad: LoadReport | undefined;
  let loaded: Promise<void> = Promise.resolve();

  const apply = (target: CandidateIndex, ids: readonly string[], rows: readonly IndexedProfile[]) => {
    const present = new Set<string>();
    for (const row of rows) {
      target.upsert(row);
      present.add(row.userId);
    }
    for (const id of ids) if (!present.has(id)) target.remove(id);
  };

  /** Queues ids for the next refresh batch; resolves once a batch holding them is applied. */
  const refresh = (ids: readonly string[]): Promise<void> => {
    for (const id of ids) queued.add(id);
    waiting ??= chain = chain.then(async () => {
      waiting = undefined;
      const batch = [...queued];
      queued = new Set();
      if (batch.length === 0 || isClosed) return;
      try {
        const rows = await source.candidatesOf(batch);
        if (index) apply(index, batch, rows);
      } catch (error) {
        // The rows could not be read: the index may now be stale for them; rebuild.
        logger.warn({ err: error }, 'deck index: refresh failed, rebuilding');
        void rebuild();
      }
    });
    return waiting;
  };

  const build = async (): Promise<void> => {
    const mine = ++generation;
    const started = performance.now();
    const next = createCandidateIndex(1024);
    let after: string | null = null;
    for (;;) {
      const rows = await source.candidatesAfter(after, LOAD_CHUNK);
      if (mine !== generation || isClosed) return;
      for (const row of rows) next.upsert(row);
      if (rows.length < LOAD_CHUNK) break;
      after = (rows[rows.length - 1] as IndexedProfile).userId;
    }
    // Cell by cell in memory: a ranking then reads consecutive slots (a third less CPU at 100k).
    next.compact();
    index = next;
    const memory = next.memory();
    lastLoad = {
      profiles: next.size,
      ms: performance.now() - started,
      typedBytes: memory.typedBytes,
      estimatedBytes: memory.estimatedBytes,
    };
    logger.info(lastLoad, 'deck index loaded');
  };

  /** Drops the current index (the deck falls back to SQL) and builds a new one. */
  const rebuild = (): Promise<void> => {
    if (isClosed) return loaded;
    index = undefined;
    loaded = chain = chain.then(build).catch((error) => {
      logger.warn({ err: error }, 'deck index: build failed; the deck uses SQL until the next change');
    });
    return loaded;
  };

  return {
    /** Starts listening, then loads in the background; `ready()` resolves when the first load ends. */
    async start(): Promise<void> {
      stopListening = await source.listen({
        onIds: (ids) => void refresh(ids),
        onReset: () => void rebuild(),
        onError: (error) => logger.warn({ err: error }, 'deck index: change feed error'),
      });
      void rebuild();
    },

    /** Resolves when the latest build has ended (or failed). */
    ready(): Promise<void> {
      return loaded;
    },

    /** The index when it is ready and every change heard so far is applied; undefined while it builds. */
    async current(): Promise<CandidateIndex | undefined> {
      if (!index) return undefined;
      if (waiting) await waiting;
      return index;
    },

    refresh,

    /** Figures of the last completed load (profiles, milliseconds, bytes). */
    lastLoad(): LoadReport | undefined {
      return lastLoad;
    },

    async close(): Promise<void> {
      isClosed = true;
      generation += 1;
      await stopListening?.();
      await chain.catch(() => {});
    },
  };
}
