/**
 * Batches that form themselves (docs/decisions/0057): with nothing in flight an item goes at once,
 * alone (a quiet server adds no wait); while one batch is in flight, the items that arrive wait
 * and go together in the next, up to `maxSize`. One batch in flight at a time: under load the
 * batches grow by themselves with the round trip, and each costs one statement and one commit.
 *
 * `run` answers one result per item, in order. When it throws, nothing of the batch was written
 * (one statement is one transaction): a batch of one rejects its caller; a larger batch runs
 * again one item at a time, so an item's error reaches only its own caller.
 */
export type Batcher<In, Out> = {
  submit(item: In): Promise<Out>;
  /** Resolves when nothing is queued or in flight. */
  whenIdle(): Promise<void>;
};

/** How many batches of each size ran, per batcher name since the last `takeBatchSizes` (benches). */
const sizesByName = new Map<string, Map<number, number>>();

/** The batch sizes counted since the last call, per batcher name, and a fresh count (benches). */
export function takeBatchSizes(): Map<string, Map<number, number>> {
  const taken = new Map(sizesByName);
  sizesByName.clear();
  return taken;
}

/** `{ 1: 120, 2: 30 }` as "120×1, 30×2 (mean 1.2)". */
export function describeBatchSizes(sizes: Map<number, number>): string {
  let batches = 0;
  let items = 0;
  const parts: string[] = [];
  for (const [size, count] of [...sizes].sort((a, b) => a[0] - b[0])) {
    batches += count;
    items += size * count;
    parts.push(`${count}×${size}`);
  }
  return batches === 0 ? 'none' : `${parts.join(', ')} (${batches} batches, mean ${(items / batches).toFixed(2)})`;
}

type Waiting<In, Out> = { item: In; resolve(value: Out): void; reject(error: unknown): void };

export function createBatcher<In, Out>(options: {
  /** Counted under this name for `takeBatchSizes`. */
  name: string;
  maxSize: number;
  /**
   * What an item must not share with another of its batch (docs/decisions/0061): an item with a
   * key already in the forming batch waits for the next one, and so does every later item with
   * one of its keys, so items with a key in common keep their order.
   */
  keysOf?(item: In): readonly string[];
  run(items: readonly In[]): Promise<readonly Out[]>;
}): Batcher<In, Out> {
  const queue: Waiting<In, Out>[] = [];
  let inFlight: Promise<void> | undefined;

  const count = (size: number) => {
    const sizes = sizesByName.get(options.name) ?? new Map<number, number>();
    sizes.set(size, (sizes.get(size) ?? 0) + 1);
    sizesByName.set(options.name, sizes);
  };

  const runChecked = async (items: readonly In[]): Promise<readonly Out[]> => {
    count(items.length);
    const results = await options.run(items);
    if (results.length !== items.length)
      throw new Error(`batch ${options.name}: ${results.length} results for ${items.length} items`);
    return results;
  };

  const settle = async (batch: Waiting<In, Out>[]) => {
    try {
      const results = await runChecked(batch.map((one) => one.item));
      for (const [index, one] of batch.entries()) one.resolve(results[index] as Out);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // Nothing of the batch was written: each item again alone, so an error reaches its own caller only.
      for (const one of batch) {
        try {
          const [result] = await runChecked([one.item]);
          one.resolve(result as Out);
        } catch (alone) {
          one.reject(alone);
        }
      }
    }
  };

  /** The next batch: the queue's first items, up to `maxSize`, none sharing a key with another. */
  const take = (): Waiting<In, Out>[] => {
    const { keysOf } = options;
    if (!keysOf) return queue.splice(0, options.maxSize);
    const taken: Waiting<In, Out>[] = [];
    const left: Waiting<In, Out>[] = [];
    const seen = new Set<string>();
    let index = 0;
    // Once the batch is full the rest keeps its order untouched (no keys to read).
    for (; index < queue.length && taken.length < options.maxSize; index += 1) {
      const one = queue[index] as Waiting<In, Out>;
      const keys = keysOf(one.item);
      if (keys.some((key) => seen.has(key))) left.push(one);
      else taken.push(one);
      for (const key of keys) seen.add(key);
    }
    queue.splice(0, index, ...left);
    return taken;
  };

  const pump = () => {
    if (inFlight || queue.length === 0) return;
    const batch = take();
    inFlight = settle(batch).finally(() => {
      inFlight = undefined;
      pump();
    });
  };

  return {
    submit(item) {
      return new Promise<Out>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        pump();
      });
    },
    async whenIdle() {
      while (inFlight) await inFlight;
    },
  };
}
