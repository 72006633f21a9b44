import type { Clock } from '../../infra/clock.ts';
import type { Logger } from '../../logger.ts';
import type { DeliveryRepository, OwedGuard, PendingDelivery } from './delivery-repository.ts';

/** A drain's `deliver`: the batch's notifications, written by one statement guarded by `owed`. */
export type DeliveryRows = { owed: OwedGuard };

/** How often a node sharing its database looks for work a dead node left (and how quiet it must be). */
export const DELIVERY_SWEEP_MS = 15_000;
/**
 * How long a kick waits for more sends to join its batch. Notifications go to people away from
 * the conversation, for whom a tenth of a second is nothing; at 200 msg/s a batch holds ~12
 * messages (20 ms: ~3.5), and the drain's two statements, paid once a batch, fall from 0.54 to
 * 0.17 a message: PostgreSQL CPU per message 1.00–1.04 → 0.74–0.78 ms (message-cost, same run).
 */
const GATHER_MS = 100;
/** After a failed drain (the database away), the next try. */
const RETRY_MS = 1_000;
/** Conversations per claim. */
const BATCH = 200;

export type DeliveryDrain = ReturnType<typeof createDeliveryDrain>;

/**
 * The work after a message's acknowledgement (docs/decisions/0041): the recipient's notification
 * and push, off the send path, coalesced (per batch of conversations one claim, one statement for
 * the notifications, one for the cursors, one presence lookup per recipient and conversation) and
 * durable as cursors: a member is owed what is above its `notified_seq`. While the node runs the
 * conversations to drain are an in-memory dirty set (a send adds its conversation); at start one
 * query finds what a previous process left, and a node that shares its database also sweeps for
 * conversations quiet for a while that still owe (a dead node's). Exactly once: the notifications'
 * statement moves the cursor (`owed`), so a kill leaves either both or neither, and two drains
 * holding one conversation notify once.
 */
export function createDeliveryDrain(deps: {
  deliveries: DeliveryRepository;
  /**
   * The batch's notifications, in order (skipping muted and on-screen conversations), with
   * `rows.owed` as their statement's guard; answers the messages it handed to that statement.
   */
  deliver(batch: readonly PendingDelivery[], rows: DeliveryRows): Promise<readonly PendingDelivery[]>;
  clock: Clock;
  logger: Logger;
  /** No other node shares the database: the start-up query is the only sweep needed. */
  isSoleNode: boolean;
}) {
  const dirty = new Set<string>();
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let isClosed = false;

  const drainDirty = async () => {
    while (dirty.size > 0 && !isClosed) {
      const ids = [...dirty].slice(0, BATCH);
      for (const id of ids) dirty.delete(id);
      try {
        const { pending, marks } = await deps.deliveries.claim(ids);
        const notified = pending.length > 0 ? await deps.deliver(pending, { owed: deps.deliveries.owed }) : [];
        // The notifications' guard moved the cursors of conversations all of whose owed messages
        // it took; the others (something skipped: muted, on screen; or nothing owed) move here.
        const taken = new Set(notified.map((one) => one.messageId));
        const open = new Set(marks.map((mark) => mark.conversationId));
        for (const one of pending) if (taken.has(one.messageId)) open.delete(one.conversationId);
        for (const one of pending) if (!taken.has(one.messageId)) open.add(one.conversationId);
        await deps.deliveries.complete(marks.filter((mark) => open.has(mark.conversationId)));
      } catch (error) {
        // Still owed: the cursors did not move past what failed; the next kick or sweep retries.
        for (const id of ids) dirty.add(id);
        throw error;
      }
      // Only what a full batch left behind goes on at once; what arrived during the batch gathers
      // for GATHER_MS first (`start`'s `finally`), or under load every batch would hold only
      // the sends of one round trip (at 500 msg/s, 3 messages instead of 50).
      if (ids.length < BATCH) return;
    }
  };

  let scheduled: NodeJS.Timeout | undefined;
  /** A drain after GATHER_MS, so the sends of that moment share a batch. */
  const gather = () => {
    if (isClosed || running || scheduled) return;
    scheduled = setTimeout(() => {
      scheduled = undefined;
      start();
    }, GATHER_MS);
    scheduled.unref();
  };

  let retry: NodeJS.Timeout | undefined;
  const start = () => {
    if (isClosed || running) return;
    let failed = false;
    running = drainDirty()
      .catch((error: unknown) => {
        failed = true;
        deps.logger.warn({ err: error }, 'chat: delivery drain failed');
        // The work stays dirty (and owed in the database): try again soon, without a new send.
        clearTimeout(retry);
        retry = setTimeout(start, RETRY_MS);
        retry.unref();
      })
      .finally(() => {
        running = undefined;
        if (!failed && dirty.size > 0) gather();
      });
  };

  const sweep = async (quietBefore?: Date) => {
    try {
      for (const id of await deps.deliveries.findOwed(10_000, quietBefore)) dirty.add(id);
    } catch (error) {
      deps.logger.warn({ err: error }, 'chat: delivery sweep failed');
    }
    start();
  };

  let swept: Promise<void> = Promise.resolve();

  return {
    /** A message of this conversation was stored: drain soon (many sends in one tick make one drain). */
    kick(conversationId: string) {
      dirty.add(conversationId);
      // A moment's wait gathers the sends of that moment into one batch (notifications are not
      // latency-critical; two statements a batch whatever its size).
      gather();
    },
    /** At start: what a previous process left; a node sharing its database then sweeps periodically. */
    begin() {
      swept = sweep();
      if (deps.isSoleNode) return;
      timer = setInterval(() => {
        swept = sweep(new Date(deps.clock.now().getTime() - DELIVERY_SWEEP_MS));
      }, DELIVERY_SWEEP_MS);
      timer.unref();
    },
    /** Stops taking new batches and waits for the one running. */
    async close() {
      isClosed = true;
      clearInterval(timer);
      clearTimeout(retry);
      clearTimeout(scheduled);
      await swept;
      await running;
    },
    /** Resolves when nothing is being drained and nothing is dirty (tests). */
    async whenIdle() {
      await swept;
      // Bounded: a drain that keeps failing (its database gone) leaves its work dirty.
      for (let round = 0; round < 10 && (running || dirty.size > 0); round += 1) {
        if (!running) {
          clearTimeout(scheduled);
          scheduled = undefined;
          start();
        }
        await running;
      }
    },
  };
}
