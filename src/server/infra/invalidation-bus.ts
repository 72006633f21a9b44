import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * What one node tells every node (docs/decisions/0018 §3). Keep events small: ids, never rows.
 * - `sessions-revoked`: these sessions (or every session of `userId` when `sessionIds` is 'all').
 * - `pair-ended`: an unmatch, a block or a deletion ended the conversation(s) between two users.
 * - `group-changed`: a group conversation's members or state changed (docs/decisions/0056).
 * - `user-deleted`: the account is gone (its sessions are revoked by their own event too).
 * - `profile-changed` / `swipe`: the deck's index (the discovery feature).
 */
export type InvalidationEvent =
  | { type: 'sessions-revoked'; userId: string; sessionIds: readonly string[] | 'all' }
  | { type: 'pair-ended'; userIds: readonly string[]; conversationIds: readonly string[] }
  | { type: 'group-changed'; conversationIds: readonly string[] }
  | { type: 'user-deleted'; userId: string }
  | { type: 'profile-changed'; userId: string }
  | { type: 'swipe'; swiperId: string; targetId: string; action: string };

/** `reset`: the bus may have missed events (Redis resubscribed): drop every cache. */
export type InvalidationHandler = (event: InvalidationEvent | { type: 'reset' }) => void;

/**
 * The invalidation bus: `publish` applies the event on this node first (synchronously, before it
 * resolves, so the publishing node is always exact), then sends it to the other nodes; `subscribe`
 * hears events from every node, this one included, and returns its unsubscribe. Handlers must be
 * cheap and must not throw (a throw is reported and swallowed).
 */
export type InvalidationBus = {
  kind: 'memory' | 'redis';
  publish(event: InvalidationEvent): Promise<void>;
  subscribe(handler: InvalidationHandler): () => void;
  close(): Promise<void>;
};

type Envelope = { origin: string; event: InvalidationEvent };

function createLocalFanOut(onError: (error: unknown) => void) {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    deliver(event: InvalidationEvent | { type: 'reset' }) {
      for (const handler of emitter.listeners('event') as InvalidationHandler[]) {
        try {
          handler(event);
        } catch (error) {
          onError(error);
        }
      }
    },
    subscribe(handler: InvalidationHandler) {
      emitter.on('event', handler);
      return () => {
        emitter.off('event', handler);
      };
    },
  };
}

/** One process (embedded): an in-process emitter. */
export function createMemoryInvalidationBus(options: { onError?: (error: unknown) => void } = {}): InvalidationBus {
  const local = createLocalFanOut(options.onError ?? (() => {}));
  return {
    kind: 'memory',
    async publish(event) {
      local.deliver(event);
    },
    subscribe: local.subscribe,
    async close() {},
  };
}

/**
 * Many nodes: Redis pub/sub on `<prefix>invalidate`. `publisher` is a connected client the caller
 * owns; the subscriber is its duplicate, owned here. Every (re)subscription after the first
 * delivers `reset` locally, because events published while this node was cut off are lost.
 */
export async function createRedisInvalidationBus(options: {
  publisher: Redis;
  keyPrefix: string;
  onError?: (error: unknown) => void;
}): Promise<InvalidationBus> {
  const onError = options.onError ?? (() => {});
  const channel = `${options.keyPrefix}invalidate`;
  const origin = randomUUID();
  const local = createLocalFanOut(onError);
  const subscriber = options.publisher.duplicate({ lazyConnect: true, maxRetriesPerRequest: null });
  subscriber.on('error', onError);
  let subscribedOnce = false;
  subscriber.on('ready', () => {
    // ioredis re-subscribes by itself on reconnect; a 'ready' after the first means a gap.
    if (subscribedOnce) local.deliver({ type: 'reset' });
  });
  subscriber.on('message', (from: string, raw: string) => {
    if (from !== channel) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch (error) {
      onError(error);
      return;
    }
    if (envelope.origin !== origin) local.deliver(envelope.event);
  });
  await subscriber.connect();
  await subscriber.subscribe(channel);
  subscribedOnce = true;
  return {
    kind: 'redis',
    async publish(event) {
      local.deliver(event);
      try {
        await options.publisher.publish(channel, JSON.stringify({ origin, event } satisfies Envelope));
      } catch (error) {
        // The other nodes' caches still expire (60 s TTL) and the hot writes guard themselves.
        onError(error);
      }
    },
    subscribe: local.subscribe,
    async close() {
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
