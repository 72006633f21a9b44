/**
 * The outbox (ARCHITECTURE "Offline and sync", QUALITY 13): what the user did offline — send a
 * message, swipe, mark read — is written to IndexedDB in the same transaction as its optimistic
 * change, with a client-generated id the server treats as its idempotency key. A drain loop,
 * shaped like bluesky's chat agent (STYLE.md: a status machine with `subscribe/getSnapshot`),
 * replays the items in the order they were written, per scope (a conversation, or the swipes),
 * with exponential backoff and jitter. Only the leading tab drains (leader.ts). A permanent
 * refusal (400/403/404…) marks the item failed — shown as "Error al enviar" with a retry — and is
 * never silently dropped. Features register a handler per kind, so this module knows no feature.
 */
import type { LocalDb, OutboxItem, OutboxKind } from './local-db.ts';

export { OUTBOX_DRAIN_MESSAGE, OUTBOX_SYNC_TAG } from '#shared/offline';

export const OUTBOX_BACKOFF_BASE_MS = 1000;
export const OUTBOX_BACKOFF_MAX_MS = 60_000;

export type OutboxDrainStatus =
  | { status: 'idle' }
  | { status: 'draining' }
  | { status: 'waiting-backoff'; attempt: number; retryAt: number }
  | { status: 'paused-offline' };

/** How a failed delivery is treated: refused for good, worth retrying later, or no network at all. */
export type FailureKind = 'permanent' | 'transient' | 'offline';

export type OutboxHandler = {
  /** Sends the item (with its clientId) and resolves with the server's answer; default: its `request` over HTTP. */
  deliver?(item: OutboxItem): Promise<unknown>;
  /** Applies the answer to the local store, in the transaction that removes the item. */
  apply?(db: LocalDb, item: OutboxItem, result: unknown): Promise<void>;
  /** Shows the refusal (e.g. the message becomes "Error al enviar"), in the transaction that marks it failed. */
  fail?(db: LocalDb, item: OutboxItem): Promise<void>;
  /** After the transaction: events for the UI (a swipe that turned into a match). */
  after?(item: OutboxItem, result: unknown): void;
};

export type OutboxDependencies = {
  db(): LocalDb | null;
  /** True while a request has a chance (the browser says it is online). */
  isOnline(): boolean;
  /** True in the leading tab only: one drain per browser. */
  canDrain(): boolean;
  classify(error: unknown): FailureKind;
  /** The default delivery: the item's `request` over HTTP. */
  send(item: OutboxItem): Promise<unknown>;
  /** Asks the worker to wake us up when the network returns (Background Sync). */
  requestBackgroundSync?(): void;
  random?(): number;
  now?(): number;
  setTimer?(callback: () => void, ms: number): unknown;
  clearTimer?(handle: unknown): void;
  log?(message: string, error?: unknown): void;
};

export type NewOutboxItem = Pick<OutboxItem, 'clientId' | 'kind' | 'scope' | 'payload' | 'request'>;

/** The delay before retry number `attempt` (1, 2, …): exponential, capped, with jitter in [½, 1]. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(OUTBOX_BACKOFF_MAX_MS, OUTBOX_BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export class OutboxService {
  private status: OutboxDrainStatus = { status: 'idle' };
  private readonly listeners = new Set<() => void>();
  private readonly handlers = new Map<OutboxKind, OutboxHandler>();
  private timer: unknown;
  private attempt = 0;
  private isRerunNeeded = false;
  /** The clientId being delivered right now: too late to withdraw it. */
  private inFlight: string | null = null;

  constructor(private readonly deps: OutboxDependencies) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): OutboxDrainStatus => this.status;

  private setStatus(next: OutboxDrainStatus) {
    if (JSON.stringify(next) === JSON.stringify(this.status)) return;
    this.status = next;
    for (const listener of this.listeners) listener();
  }

  /** How items of `kind` are delivered; returns the unregister. */
  register(kind: OutboxKind, handler: OutboxHandler): () => void {
    this.handlers.set(kind, handler);
    this.kick();
    return () => this.handlers.delete(kind);
  }

  /**
   * Writes the item and the optimistic `change` in one transaction (both or neither), then starts
   * a drain. Returns false when nobody is signed in.
   */
  async enqueue(entry: NewOutboxItem, change?: (db: LocalDb) => Promise<void>): Promise<boolean> {
    const db = this.deps.db();
    if (!db) return false;
    await db.transaction('rw', db.tables, async () => {
      await change?.(db);
      await db.outbox.add({
        ...entry,
        status: 'pending',
        attempts: 0,
        createdAt: new Date(this.now()).toISOString(),
      });
    });
    if (!this.deps.isOnline()) this.deps.requestBackgroundSync?.();
    this.kick();
    return true;
  }

  /** "Reintentar": a failed item (by clientId) goes back to pending, with the optimistic `change`. */
  async retry(clientId: string, change?: (db: LocalDb) => Promise<void>): Promise<void> {
    const db = this.deps.db();
    if (!db) return;
    await db.transaction('rw', db.tables, async () => {
      await change?.(db);
      await db.outbox.where('clientId').equals(clientId).modify({ status: 'pending', attempts: 0 });
    });
    this.kick({ isFresh: true });
  }

  /**
   * Takes back an item not sent yet ("Deshacer" of a swipe still in the outbox, 0023): removes it,
   * with the optimistic `change`, in one transaction, so nothing of it ever reaches the server.
   * False when it is too late — being delivered right now, or already delivered (gone) — and the
   * caller must undo it on the server instead.
   */
  async withdraw(clientId: string, change?: (db: LocalDb) => Promise<void>): Promise<boolean> {
    const db = this.deps.db();
    if (!db || this.inFlight === clientId) return false;
    return db.transaction('rw', db.tables, async () => {
      // deliverOne marks its item in flight before it reads it again: a check here, inside the
      // transaction its read waits for, decides which of the two wins.
      if (this.inFlight === clientId) return false;
      const item = await db.outbox.where('clientId').equals(clientId).first();
      if (!item) return false;
      await db.outbox.delete(item.id as number);
      await change?.(db);
      return true;
    });
  }

  /**
   * Starts a drain if none runs. `isFresh` (a connection came back, the user retried) skips a
   * waiting backoff.
   */
  kick(options: { isFresh?: boolean } = {}): void {
    if (this.status.status === 'draining') {
      this.isRerunNeeded = true;
      return;
    }
    if (this.status.status === 'waiting-backoff') {
      if (!options.isFresh) return;
      this.clearTimer();
    }
    void this.drain();
  }

  /** Stops waiting (sign-out, leadership lost); a later kick starts again. */
  stop(): void {
    this.clearTimer();
    this.attempt = 0;
    if (this.status.status !== 'draining') this.setStatus({ status: 'idle' });
  }

  private clearTimer() {
    if (this.timer === undefined) return;
    if (this.deps.clearTimer) this.deps.clearTimer(this.timer);
    else clearTimeout(this.timer as ReturnType<typeof setTimeout>);
    this.timer = undefined;
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  private async drain(): Promise<void> {
    if (!this.deps.canDrain()) return this.setStatus({ status: 'idle' });
    if (!this.deps.isOnline()) return this.setStatus({ status: 'paused-offline' });
    this.setStatus({ status: 'draining' });
    try {
      do {
        this.isRerunNeeded = false;
        const outcome = await this.drainOnce();
        if (outcome === 'stop') return;
      } while (this.isRerunNeeded);
      this.attempt = 0;
      this.setStatus({ status: 'idle' });
    } catch (error) {
      this.deps.log?.('outbox: the drain failed', error);
      this.scheduleBackoff();
    }
  }

  /** One pass over the pending items, oldest first; 'stop' when it waits (offline, backoff). */
  private async drainOnce(): Promise<'done' | 'stop'> {
    for (;;) {
      const db = this.deps.db();
      if (!db || !this.deps.canDrain()) {
        this.setStatus({ status: 'idle' });
        return 'stop';
      }
      const pending = await db.outbox.where('status').equals('pending').sortBy('id');
      if (pending.length === 0) return 'done';
      // A scope whose head failed for now keeps its later items back: order within a conversation.
      const heldScopes = new Set<string>();
      let isWaiting = false;
      for (const item of pending) {
        if (heldScopes.has(item.scope)) continue;
        const result = await this.deliverOne(db, item);
        if (result === 'offline') {
          this.setStatus({ status: 'paused-offline' });
          this.deps.requestBackgroundSync?.();
          return 'stop';
        }
        if (result === 'transient') {
          heldScopes.add(item.scope);
          isWaiting = true;
        }
      }
      if (isWaiting) {
        this.scheduleBackoff();
        return 'stop';
      }
    }
  }

  private async deliverOne(db: LocalDb, item: OutboxItem): Promise<'sent' | 'failed' | 'withdrawn' | FailureKind> {
    this.inFlight = item.clientId;
    try {
      // Read again: the item may have been withdrawn since this pass listed it.
      const current = await db.outbox.get(item.id as number);
      if (current?.status !== 'pending') return 'withdrawn';
      return await this.send(db, item);
    } finally {
      this.inFlight = null;
    }
  }

  private async send(db: LocalDb, item: OutboxItem): Promise<'sent' | 'failed' | FailureKind> {
    const handler = this.handlers.get(item.kind) ?? {};
    let result: unknown;
    try {
      result = await (handler.deliver ? handler.deliver(item) : this.deps.send(item));
    } catch (error) {
      const kind = this.deps.classify(error);
      if (kind === 'permanent') {
        this.deps.log?.(`outbox: ${item.kind} ${item.clientId} refused`, error);
        await db.transaction('rw', db.tables, async () => {
          await db.outbox.update(item.id as number, {
            status: 'failed',
            attempts: item.attempts + 1,
            lastError: error instanceof Error ? error.message : String(error),
          });
          await handler.fail?.(db, item);
        });
        return 'failed';
      }
      if (kind === 'transient') await db.outbox.update(item.id as number, { attempts: item.attempts + 1 });
      return kind;
    }
    await db.transaction('rw', db.tables, async () => {
      await handler.apply?.(db, item, result);
      await db.outbox.delete(item.id as number);
    });
    this.attempt = 0;
    try {
      handler.after?.(item, result);
    } catch (error) {
      this.deps.log?.('outbox: an after-hook failed', error);
    }
    return 'sent';
  }

  private scheduleBackoff() {
    this.attempt += 1;
    const delay = backoffDelay(this.attempt, this.deps.random ?? Math.random);
    this.setStatus({ status: 'waiting-backoff', attempt: this.attempt, retryAt: this.now() + delay });
    const run = () => {
      this.timer = undefined;
      if (this.status.status === 'waiting-backoff') void this.drain();
    };
    this.timer = this.deps.setTimer ? this.deps.setTimer(run, delay) : setTimeout(run, delay);
  }
}
