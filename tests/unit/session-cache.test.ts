import { describe, expect, it } from 'vitest';
import { type CachedSession, createSessionCache } from '../../src/server/features/auth/session-cache.ts';
import type { InvalidationBus, InvalidationHandler } from '../../src/server/infra/invalidation-bus.ts';

/** A bus that also hands its subscribers a `reset` (what a resubscribed Redis bus does). */
function memoryBus() {
  const handlers: InvalidationHandler[] = [];
  const bus: InvalidationBus & { reset(): void } = {
    reset() {
      for (const handler of handlers) handler({ type: 'reset' });
    },
    kind: 'memory',
    async publish(event) {
      for (const handler of handlers) handler(event);
    },
    subscribe(handler) {
      handlers.push(handler);
      return () => {};
    },
    async close() {},
  };
  return bus;
}

const session = (id: string, userId = `user of ${id}`): CachedSession => ({
  id,
  userId,
  rememberMe: false,
  expiresAt: new Date(Date.now() + 3_600_000),
  maxExpiresAt: new Date(Date.now() + 7_200_000),
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the session cache reads the sessions in use again before their entries end', () => {
  it('hands over only sessions used since their row was read, once that read is old enough', async () => {
    const cache = createSessionCache(memoryBus(), { ttlMs: 2_000, refreshAfterMs: 100 });
    cache.set(session('in use'));
    cache.set(session('idle'));
    cache.get('in use');
    expect(cache.takeDue().ids).toEqual([]);
    await sleep(150);
    cache.set(session('read just now'));
    cache.get('read just now');
    const due = cache.takeDue();
    // "in use" was used before the first pass and is still owed a read; "idle" never was used.
    expect(due.ids).toEqual(['in use']);
    due.settle([session('in use')]);
    expect(cache.takeDue().ids).toEqual([]);
    await sleep(150);
    expect(cache.takeDue().ids).toEqual(['read just now']);
  });

  it('keeps what the rows say is live, drops the rest, and never refills one revoked meanwhile', async () => {
    const bus = memoryBus();
    const cache = createSessionCache(bus, { ttlMs: 2_000, refreshAfterMs: 50 });
    for (const id of ['live', 'gone', 'revoked meanwhile']) {
      cache.set(session(id));
      cache.get(id);
    }
    await sleep(80);
    const due = cache.takeDue();
    expect(due.ids.sort()).toEqual(['gone', 'live', 'revoked meanwhile']);
    // The rows were read (all live but "gone"); a revocation lands before the answer is applied.
    await bus.publish({ type: 'sessions-revoked', userId: 'user of revoked meanwhile', sessionIds: 'all' });
    due.settle([session('live'), session('revoked meanwhile')]);
    expect(cache.get('live')?.id).toBe('live');
    expect(cache.get('gone')).toBeUndefined();
    expect(cache.get('revoked meanwhile')).toBeUndefined();
  });

  it('refills a session dropped before the pass began when its row is live', async () => {
    const bus = memoryBus();
    const cache = createSessionCache(bus, { ttlMs: 2_000, refreshAfterMs: 50 });
    cache.set(session('a'));
    cache.get('a');
    const earlier = cache.takeDue();
    bus.reset();
    earlier.abandon();
    cache.set(session('a'));
    cache.get('a');
    await sleep(80);
    const due = cache.takeDue();
    expect(due.ids).toEqual(['a']);
    due.settle([session('a')]);
    expect(cache.get('a')?.id).toBe('a');
  });
});
