import type { Clock } from '../../clock.ts';
import type { Logger } from '../../logger.ts';
import type { DeliveryRepository, OwedGuard, PendingDelivery } from './delivery-repository.ts';

/**
 * How a drain's `deliver` retires rows: with their notifications (`owed`, the guard of the one
 * statement that writes them), or without (`done`, one statement for all of them).
 */
export type DeliveryRows = { owed: OwedGuard; done(messageIds: readonly string[]): Promise<void> };

/** A lease a drain holds on its rows; a holder that died is replaced after it. */
export const DELIVERY_LEASE_MS = 15_000;
const BATCH = 200;

export type DeliveryDrain = ReturnType<typeof createDeliveryDrain>;

/**
 * The work after a message's acknowledgement (docs/decisions/0020): the recipient's notification
 * and push, off the send path, coalesced (per batch one claim, one statement for its notifications,
 * one for its skipped rows, one presence lookup per recipient and conversation) and durable (each row was written by the message's own statement
 * and is deleted only once done, so a process killed right after an ack leaves it to the next
 * drain: at start, on a timer, or on any node's next message). Exactly once: a row is deleted by
 * the very statement that stores its notification (docs/decisions/0035), so a kill leaves either
 * both or neither, and two drains holding one row (a lease taken over) notify once.
 */
export function createDeliveryDrain(deps: {
  deliveries: DeliveryRepository;
  /**
   * The batch's notifications, in order (skipping muted and on-screen conversations): written by
   * one statement with `owed` (which deletes the rows) as its guard; the skipped ones go with `done`.
   */
  deliver(batch: readonly PendingDelivery[], rows: DeliveryRows): Promise<void>;
  clock: Clock;
  logger: Logger;
  /** Take over every lease at start: true when this is the only node (embedded). */
  isSoleNode: boolean;
}) {
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let isClosed = false;

  const drain = async (takeOverAll: boolean) => {
    for (;;) {
      const now = deps.clock.now();
      const staleBefore = takeOverAll ? new Date(now.getTime() + 1) : new Date(now.getTime() - DELIVERY_LEASE_MS);
      const batch = await deps.deliveries.claim(now, staleBefore, BATCH);
      if (batch.length === 0) return;
      // Each row goes in the statement that stores its notification (docs/decisions/0035): a
      // process killed mid-batch leaves exactly the rows whose notification is not stored.
      await deps.deliver(batch, {
        owed: deps.deliveries.owed,
        done: (messageIds) => deps.deliveries.complete(messageIds),
      });
      if (batch.length < BATCH) return;
    }
  };

  const start = (takeOverAll = false) => {
    if (isClosed) return;
    if (running) {
      again = true;
      return;
    }
    running = drain(takeOverAll)
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'chat: delivery drain failed'))
      .finally(() => {
        running = undefined;
        if (again && !isClosed) {
          again = false;
          setImmediate(() => start());
        }
      });
  };

  return {
    /** A message was stored: drain soon (many sends in one tick make one drain). */
    kick() {
      if (running) again = true;
      else setImmediate(() => start());
    },
    /** At start: what a previous process left (all of it when this is the only node), then every lease period. */
    begin() {
      start(deps.isSoleNode);
      timer = setInterval(() => start(), DELIVERY_LEASE_MS);
      timer.unref();
    },
    /** Stops taking new batches and waits for the one running. */
    async close() {
      isClosed = true;
      clearInterval(timer);
      await running;
    },
    /** Resolves when nothing is being drained (tests). */
    async whenIdle() {
      while (running) await running;
    },
  };
}
