import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDeliveryDrain } from '../../src/server/features/chat/delivery-drain.ts';
import type { DeliveryRepository } from '../../src/server/features/chat/delivery-repository.ts';
import { systemClock } from '../../src/server/infra/clock.ts';
import type { Logger } from '../../src/server/logger.ts';

const silent = { warn() {}, info() {}, error() {}, debug() {} } as unknown as Logger;

/** A drain whose claims are held open until released, recording the conversations of each. */
function heldDrain(options: { failFirst?: boolean } = {}) {
  const claims: string[][] = [];
  const gates: Array<() => void> = [];
  let failures = options.failFirst ? 1 : 0;
  const deliveries = {
    async claim(ids: readonly string[]) {
      claims.push([...ids]);
      await new Promise<void>((resolve) => gates.push(resolve));
      if (failures > 0) {
        failures -= 1;
        throw new Error('database away');
      }
      return { pending: [], marks: [] };
    },
    async complete() {},
    async findOwed() {
      return [];
    },
    owed: { name: 'unit', text: '' },
  } as unknown as DeliveryRepository;
  const drain = createDeliveryDrain({
    deliveries,
    deliver: async () => [],
    clock: systemClock,
    logger: silent,
    isSoleNode: true,
  });
  const release = async () => {
    gates.shift()?.();
    await vi.advanceTimersByTimeAsync(0);
  };
  return { drain, claims, release };
}

describe('the delivery drain gathers what arrives while it works', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits a moment after a kick, and again after a batch, before the next claim', async () => {
    const { drain, claims, release } = heldDrain();
    drain.kick('a');
    drain.kick('b');
    await vi.advanceTimersByTimeAsync(99);
    expect(claims).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(claims).toEqual([['a', 'b']]);

    // Sends during the claim: they join the next batch, which waits its own moment to fill.
    drain.kick('c');
    drain.kick('d');
    await release();
    await vi.advanceTimersByTimeAsync(50);
    drain.kick('e');
    expect(claims).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(50);
    expect(claims).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
    await release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(claims).toHaveLength(2);
    await drain.close();
  });

  it('goes on at once while a whole batch is waiting, and retries what failed', async () => {
    const { drain, claims, release } = heldDrain({ failFirst: true });
    drain.kick('first');
    await vi.advanceTimersByTimeAsync(100);
    for (let index = 0; index < 250; index += 1) drain.kick(`c${index}`);
    await release();
    // The failed claim's conversation is still owed: a retry a second later takes a full batch
    // of 200, and what that batch left behind goes right after it.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(claims).toHaveLength(2);
    expect(claims[1]).toHaveLength(200);
    await release();
    expect(claims).toHaveLength(3);
    expect(claims[2]).toHaveLength(51);
    expect(new Set(claims.slice(1).flat())).toEqual(
      new Set(['first', ...Array.from({ length: 250 }, (_, i) => `c${i}`)]),
    );
    await release();
    await drain.close();
  });
});
