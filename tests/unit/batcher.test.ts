import { describe, expect, it } from 'vitest';
import { createBatcher, takeBatchSizes } from '../../src/server/infra/batcher.ts';

type Item = { id: number; keys: string[] };

/** A batcher whose statement is held open until `release`, recording each batch's ids. */
function heldBatcher(options: { maxSize: number; failWhen?: (ids: number[]) => boolean }) {
  const batches: number[][] = [];
  const gates: Array<() => void> = [];
  const batcher = createBatcher<Item, string>({
    name: 'unit-batcher',
    maxSize: options.maxSize,
    keysOf: (item) => item.keys,
    async run(items) {
      const ids = items.map((item) => item.id);
      batches.push(ids);
      await new Promise<void>((resolve) => gates.push(resolve));
      if (options.failWhen?.(ids)) throw new Error(`batch ${ids.join(',')} failed`);
      return ids.map((id) => `done ${id}`);
    },
  });
  const release = async () => {
    // Each batch waits for its gate; open them as they come until nothing is in flight.
    for (let round = 0; round < 50; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const gate = gates.shift();
      if (gate) gate();
    }
    await batcher.whenIdle();
  };
  return { batcher, batches, release };
}

describe('batches that form themselves, with keys an item may not share within a batch', () => {
  it('sends the first item alone, then what queued meanwhile together', async () => {
    const { batcher, batches, release } = heldBatcher({ maxSize: 10 });
    const answers = [1, 2, 3, 4].map((id) => batcher.submit({ id, keys: [`k${id}`] }));
    await release();
    expect(await Promise.all(answers)).toEqual(['done 1', 'done 2', 'done 3', 'done 4']);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('keeps two items with a key in common out of one batch, in their order, and does not let a later one pass', async () => {
    const { batcher, batches, release } = heldBatcher({ maxSize: 10 });
    const answers = [
      batcher.submit({ id: 1, keys: ['x'] }),
      batcher.submit({ id: 2, keys: ['conversation a', 'ana', 'bea'] }),
      batcher.submit({ id: 3, keys: ['conversation b', 'carla', 'bea'] }),
      batcher.submit({ id: 4, keys: ['conversation c', 'dani', 'eva'] }),
      batcher.submit({ id: 5, keys: ['conversation b', 'carla', 'fran'] }),
      batcher.submit({ id: 6, keys: ['conversation a', 'bea', 'ana'] }),
    ];
    await release();
    await Promise.all(answers);
    // 3 shares "bea" with 2 and 6 shares with 2: both wait; 5 shares "conversation b" with 3, which
    // waits, so 5 waits behind it. Next round: 3 goes, 5 and 6 share a key with it.
    expect(batches).toEqual([[1], [2, 4], [3], [5, 6]]);
  });

  it('caps a batch at maxSize', async () => {
    const { batcher, batches, release } = heldBatcher({ maxSize: 2 });
    const answers = [1, 2, 3, 4, 5].map((id) => batcher.submit({ id, keys: [`k${id}`] }));
    await release();
    await Promise.all(answers);
    expect(batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('runs a failed batch again one item at a time: only the failing item rejects', async () => {
    takeBatchSizes();
    const { batcher, batches, release } = heldBatcher({ maxSize: 10, failWhen: (ids) => ids.includes(3) });
    const answers = [1, 2, 3, 4].map((id) =>
      batcher.submit({ id, keys: [`k${id}`] }).then(
        (value) => value,
        (error: Error) => error.message,
      ),
    );
    await release();
    expect(await Promise.all(answers)).toEqual(['done 1', 'done 2', 'batch 3 failed', 'done 4']);
    expect(batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
    expect(takeBatchSizes().get('unit-batcher')).toEqual(
      new Map([
        [1, 4],
        [3, 1],
      ]),
    );
  });
});
