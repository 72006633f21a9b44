import { describe, expect, it } from 'vitest';
import { createBatcher, describeBatchSizes, takeBatchSizes } from './batcher.ts';

/** A run whose batches wait until the test releases them, recording what each carried. */
function gatedRun() {
  const batches: string[][] = [];
  const gates: (() => void)[] = [];
  const run = async (items: readonly string[]) => {
    batches.push([...items]);
    await new Promise<void>((resolve) => gates.push(resolve));
    if (items.includes('bad')) throw new Error('bad item');
    return items.map((item) => item.toUpperCase());
  };
  const release = async () => {
    // Let the batcher start whatever the previous release queued.
    for (let tick = 0; tick < 5 && gates.length === 0; tick += 1) await Promise.resolve();
    gates.shift()?.();
  };
  return { batches, run, release };
}

describe('createBatcher', () => {
  it('sends an item at once when nothing is in flight, alone', () => {
    const { batches, run } = gatedRun();
    const batcher = createBatcher({ name: 'test-at-once', maxSize: 10, run });
    void batcher.submit('a');
    // Synchronously: no timer, no tick waited.
    expect(batches).toEqual([['a']]);
  });

  it('gathers what arrives while a batch is in flight into the next, up to maxSize', async () => {
    const { batches, run, release } = gatedRun();
    const batcher = createBatcher({ name: 'test-gather', maxSize: 3, run });
    const answers = ['a', 'b', 'c', 'd', 'e', 'f'].map((item) => batcher.submit(item));
    expect(batches).toEqual([['a']]);
    for (let round = 0; round < 3; round += 1) await release();
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(batches).toEqual([['a'], ['b', 'c', 'd'], ['e', 'f']]);
    const sizes = takeBatchSizes().get('test-gather');
    expect(sizes && describeBatchSizes(sizes)).toBe('1×1, 1×2, 1×3 (3 batches, mean 2.00)');
  });

  it("a failed batch runs again one item at a time: an item's error reaches only its caller", async () => {
    const { batches, run, release } = gatedRun();
    const batcher = createBatcher({ name: 'test-errors', maxSize: 10, run });
    const first = batcher.submit('a');
    const rest = ['b', 'bad', 'c'].map((item) => batcher.submit(item).catch((error: Error) => error.message));
    for (let round = 0; round < 5; round += 1) await release();
    expect(await first).toBe('A');
    expect(await Promise.all(rest)).toEqual(['B', 'bad item', 'C']);
    expect(batches).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });

  it('rejects a batch that answers another number of results than items', async () => {
    const batcher = createBatcher<string, string>({ name: 'test-count', maxSize: 10, run: async () => [] });
    await expect(batcher.submit('a')).rejects.toThrow(/0 results for 1 items/);
    await batcher.whenIdle();
  });
});
