import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type LocalDb, type OutboxItem, openLocalDb } from './local-db.ts';
import { backoffDelay, type FailureKind, type NewOutboxItem, OutboxService } from './outbox.ts';

class Refused extends Error {}
class Offline extends Error {}
class Flaky extends Error {}

let db: LocalDb;
let counter = 0;

/** Lets IndexedDB (setImmediate) and promises run; timers stay frozen. */
async function settle(rounds = 60) {
  const { setImmediate } = globalThis as unknown as { setImmediate(callback: () => void): void };
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

function classify(error: unknown): FailureKind {
  if (error instanceof Refused) return 'permanent';
  if (error instanceof Offline) return 'offline';
  return 'transient';
}

function message(scope: string, n: number): NewOutboxItem {
  return {
    kind: 'message',
    scope,
    clientId: `${scope}-${n}`,
    request: { method: 'POST', path: 'messages/messages', json: { text: `${n}` } },
    payload: { text: `${scope}-${n}` },
  };
}

/** A server that, like ours, stores a clientId once and answers the stored copy to a replay. */
function idempotentServer() {
  const stored = new Map<string, number>();
  const calls: string[] = [];
  return {
    calls,
    stored,
    send: async (item: OutboxItem) => {
      calls.push(item.clientId);
      if (!stored.has(item.clientId)) stored.set(item.clientId, stored.size + 1);
      return { seq: stored.get(item.clientId) };
    },
  };
}

function build(overrides: Partial<ConstructorParameters<typeof OutboxService>[0]> = {}) {
  let isOnline = true;
  const server = idempotentServer();
  const outbox = new OutboxService({
    db: () => db,
    isOnline: () => isOnline,
    canDrain: () => true,
    classify,
    send: server.send,
    random: () => 0,
    ...overrides,
  });
  return {
    outbox,
    server,
    setOnline(value: boolean) {
      isOnline = value;
    },
  };
}

beforeEach(() => {
  counter += 1;
  db = openLocalDb(`outbox-${counter}`);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});

afterEach(async () => {
  vi.useRealTimers();
  db.close();
  await db.delete();
});

describe('outbox', () => {
  it('keeps items offline and replays them in order per conversation when the connection returns', async () => {
    const { outbox, server, setOnline } = build();
    setOnline(false);
    await outbox.enqueue(message('c1', 1));
    await outbox.enqueue(message('c2', 1));
    await outbox.enqueue(message('c1', 2));
    await outbox.enqueue(message('c1', 3));
    await settle();
    expect(outbox.getSnapshot()).toEqual({ status: 'paused-offline' });
    expect(server.calls).toEqual([]);
    expect(await db.outbox.count()).toBe(4);

    setOnline(true);
    outbox.kick({ isFresh: true });
    await settle();
    expect(server.calls.filter((id) => id.startsWith('c1'))).toEqual(['c1-1', 'c1-2', 'c1-3']);
    expect(server.calls).toHaveLength(4);
    expect(await db.outbox.count()).toBe(0);
    expect(outbox.getSnapshot()).toEqual({ status: 'idle' });
  });

  it('writes the item and the optimistic change in one transaction', async () => {
    const { outbox } = build({ canDrain: () => false });
    await expect(
      outbox.enqueue(message('c1', 1), async (tx) => {
        await tx.meta.put({ key: 'draft', value: 'x' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.outbox.count()).toBe(0);
    expect(await db.meta.get('draft')).toBeUndefined();
  });

  it('backs off exponentially with jitter, holds the conversation behind its head, then delivers', async () => {
    let failures = 2;
    const server = idempotentServer();
    const { outbox, setOnline } = build({
      send: async (item) => {
        if (item.clientId === 'c1-1' && failures > 0) {
          failures -= 1;
          throw new Flaky('503');
        }
        return server.send(item);
      },
    });
    setOnline(false);
    await outbox.enqueue(message('c1', 1));
    await outbox.enqueue(message('c1', 2));
    await outbox.enqueue(message('c2', 1));
    setOnline(true);
    outbox.kick({ isFresh: true });
    await settle();
    // The head of c1 failed: c1-2 waits behind it, c2 goes on.
    expect(server.calls).toEqual(['c2-1']);
    expect(outbox.getSnapshot()).toMatchObject({ status: 'waiting-backoff', attempt: 1 });
    const first = outbox.getSnapshot() as { retryAt: number };
    expect(first.retryAt - Date.now()).toBe(backoffDelay(1, () => 0));

    await vi.advanceTimersByTimeAsync(backoffDelay(1, () => 0) - 1);
    expect(outbox.getSnapshot()).toMatchObject({ status: 'waiting-backoff', attempt: 1 });
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(outbox.getSnapshot()).toMatchObject({ status: 'waiting-backoff', attempt: 2 });

    await vi.advanceTimersByTimeAsync(backoffDelay(2, () => 0));
    await settle();
    expect(server.calls).toEqual(['c2-1', 'c1-1', 'c1-2']);
    expect(outbox.getSnapshot()).toEqual({ status: 'idle' });
    expect((await db.outbox.toArray()).length).toBe(0);
  });

  it('backoff doubles up to its ceiling and jitters within [½, 1] of it', () => {
    expect(backoffDelay(1, () => 0)).toBe(500);
    expect(backoffDelay(1, () => 1)).toBe(1000);
    expect(backoffDelay(3, () => 1)).toBe(4000);
    expect(backoffDelay(30, () => 1)).toBe(60_000);
    expect(backoffDelay(30, () => 0)).toBe(30_000);
  });

  it('marks a permanent refusal failed (never dropped), goes on, and a retry delivers it', async () => {
    let isRefused = true;
    const failed: string[] = [];
    const server = idempotentServer();
    const { outbox } = build({
      send: async (item) => {
        if (item.clientId === 'c1-1' && isRefused) throw new Refused('403');
        return server.send(item);
      },
    });
    outbox.register('message', {
      fail: async (_tx, item) => {
        failed.push(item.clientId);
      },
    });
    await outbox.enqueue(message('c1', 1));
    await outbox.enqueue(message('c1', 2));
    await settle();
    expect(failed).toEqual(['c1-1']);
    expect(server.calls).toEqual(['c1-2']);
    const kept = await db.outbox.toArray();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ clientId: 'c1-1', status: 'failed', attempts: 1 });
    expect(outbox.getSnapshot()).toEqual({ status: 'idle' });

    isRefused = false;
    await outbox.retry('c1-1');
    await settle();
    expect(server.calls).toEqual(['c1-2', 'c1-1']);
    expect(await db.outbox.count()).toBe(0);
  });

  it('delivers exactly once under concurrent kicks and under a replay after a crash', async () => {
    const server = idempotentServer();
    let crashes = 1;
    const { outbox } = build({ send: server.send });
    outbox.register('message', {
      // The answer arrived but the tab "died" before the item was removed: the next drain replays it.
      apply: async () => {
        if (crashes > 0) {
          crashes -= 1;
          throw new Error('tab closed');
        }
      },
    });
    await outbox.enqueue(message('c1', 1));
    for (let i = 0; i < 5; i++) outbox.kick();
    await settle();
    expect(await db.outbox.count()).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    await settle();
    expect(await db.outbox.count()).toBe(0);
    // Sent twice with the same clientId, stored once.
    expect(server.calls).toEqual(['c1-1', 'c1-1']);
    expect(server.stored.size).toBe(1);

    // Many kicks while items wait: each is sent once.
    server.calls.length = 0;
    await Promise.all([outbox.enqueue(message('c2', 1)), outbox.enqueue(message('c2', 2))]);
    for (let i = 0; i < 5; i++) outbox.kick({ isFresh: true });
    await settle();
    expect(server.calls).toEqual(['c2-1', 'c2-2']);
  });

  it('withdraws an item not sent yet: nothing of it reaches the server, and its change is made', async () => {
    const { outbox, server, setOnline } = build();
    setOnline(false);
    await outbox.enqueue(message('swipes', 1));
    await outbox.enqueue(message('swipes', 2));
    await settle();
    const change = async (tx: LocalDb) => {
      await tx.meta.put({ key: 'back', value: 'yes' });
    };
    expect(await outbox.withdraw('swipes-1', change)).toBe(true);
    expect(await db.meta.get('back')).toMatchObject({ value: 'yes' });
    // Twice: nothing left to take back.
    expect(await outbox.withdraw('swipes-1')).toBe(false);
    setOnline(true);
    outbox.kick({ isFresh: true });
    await settle();
    expect(server.calls).toEqual(['swipes-2']);
    expect(await db.outbox.count()).toBe(0);
    // Delivered already: too late to withdraw.
    expect(await outbox.withdraw('swipes-2')).toBe(false);
  });

  it('cannot withdraw an item while it is being delivered: it is sent once, and the caller is told', async () => {
    const server = idempotentServer();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { outbox } = build({
      send: async (item) => {
        await gate;
        return server.send(item);
      },
    });
    await outbox.enqueue(message('swipes', 1));
    await settle();
    expect(outbox.getSnapshot()).toEqual({ status: 'draining' });
    expect(await outbox.withdraw('swipes-1')).toBe(false);
    release();
    await settle();
    expect(server.calls).toEqual(['swipes-1']);
    expect(await db.outbox.count()).toBe(0);
  });

  it('skips an item withdrawn after a drain pass listed it', async () => {
    const server = idempotentServer();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { outbox } = build({
      send: async (item) => {
        if (item.clientId === 'a-1') await gate;
        return server.send(item);
      },
    });
    await outbox.enqueue(message('a', 1));
    await outbox.enqueue(message('b', 1));
    await settle();
    // The pass listed a-1 and b-1 and waits on a-1; b-1 is taken back meanwhile.
    expect(await outbox.withdraw('b-1')).toBe(true);
    release();
    await settle();
    expect(server.calls).toEqual(['a-1']);
  });

  it('does not drain outside the leading tab', async () => {
    const { outbox, server } = build({ canDrain: () => false });
    await outbox.enqueue(message('c1', 1));
    await settle();
    expect(server.calls).toEqual([]);
    expect(await db.outbox.count()).toBe(1);
  });
});
