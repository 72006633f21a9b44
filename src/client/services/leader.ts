/**
 * One leading tab per browser (QUALITY 20): only the leader opens the socket and drains the
 * outbox; the other tabs follow through IndexedDB (Dexie's live queries see every tab's writes).
 * Web Locks first: the leader holds the `entreno-leader` lock for as long as it lives, and the
 * browser hands it to a waiting tab when the leader closes or crashes. Without Web Locks, a
 * BroadcastChannel heartbeat: the leader beats every second; a tab that hears none for three
 * claims leadership, and of two claimants the smaller id wins.
 */
export const LEADER_LOCK_NAME = 'entreno-leader';
export const LEADER_CHANNEL_NAME = 'entreno-leader';
export const HEARTBEAT_MS = 1000;
export const HEARTBEAT_TIMEOUT_MS = 3000;

export type LeaderStatus = { status: 'electing' } | { status: 'leader' } | { status: 'follower' };

type LockManagerLike = {
  request(name: string, options: { mode: 'exclusive' }, callback: () => Promise<void>): Promise<unknown>;
};
type ChannelLike = {
  postMessage(message: unknown): void;
  close(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
};

export type LeaderDependencies = {
  locks?: LockManagerLike | undefined;
  createChannel?: (() => ChannelLike) | undefined;
  id?: string;
  setInterval?(callback: () => void, ms: number): unknown;
  clearInterval?(handle: unknown): void;
  now?(): number;
};

type Beat = { type: 'beat' | 'claim' | 'resign'; id: string };

export class LeaderElection {
  private status: LeaderStatus = { status: 'electing' };
  private readonly listeners = new Set<() => void>();
  private releaseLock: (() => void) | null = null;
  private channel: ChannelLike | null = null;
  private ticker: unknown;
  private lastBeatAt = 0;
  private isStarted = false;
  private readonly id: string;

  constructor(private readonly deps: LeaderDependencies) {
    this.id = deps.id ?? Math.random().toString(36).slice(2);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): LeaderStatus => this.status;

  get isLeader(): boolean {
    return this.status.status === 'leader';
  }

  private setStatus(next: LeaderStatus) {
    if (next.status === this.status.status) return;
    this.status = next;
    for (const listener of this.listeners) listener();
  }

  /** Joins the election (idempotent). */
  start(): void {
    if (this.isStarted) return;
    this.isStarted = true;
    if (this.deps.locks) this.startWithLocks(this.deps.locks);
    else if (this.deps.createChannel) this.startWithChannel(this.deps.createChannel());
    else this.setStatus({ status: 'leader' });
  }

  /** Leaves the election (page hidden for good, tests); another tab takes over. */
  stop(): void {
    this.isStarted = false;
    this.releaseLock?.();
    this.releaseLock = null;
    if (this.channel) {
      if (this.isLeader) this.channel.postMessage({ type: 'resign', id: this.id } satisfies Beat);
      this.channel.close();
      this.channel = null;
    }
    if (this.ticker !== undefined) (this.deps.clearInterval ?? clearInterval)(this.ticker as never);
    this.ticker = undefined;
    this.setStatus({ status: 'electing' });
  }

  private startWithLocks(locks: LockManagerLike) {
    this.setStatus({ status: 'follower' });
    void locks
      .request(LEADER_LOCK_NAME, { mode: 'exclusive' }, () => {
        if (!this.isStarted) return Promise.resolve();
        this.setStatus({ status: 'leader' });
        // Held until this tab goes away or stops.
        return new Promise<void>((resolve) => {
          this.releaseLock = resolve;
        });
      })
      .catch(() => this.setStatus({ status: 'leader' }));
  }

  private startWithChannel(channel: ChannelLike) {
    this.channel = channel;
    this.setStatus({ status: 'follower' });
    const now = () => this.deps.now?.() ?? Date.now();
    this.lastBeatAt = now();
    channel.onmessage = (event) => {
      const beat = event.data as Beat;
      if (!beat || beat.id === this.id) return;
      if (beat.type === 'resign') {
        this.lastBeatAt = 0;
        return;
      }
      if (this.isLeader && beat.id > this.id) {
        channel.postMessage({ type: 'beat', id: this.id } satisfies Beat);
        return;
      }
      this.lastBeatAt = now();
      if (this.isLeader) this.setStatus({ status: 'follower' });
    };
    channel.postMessage({ type: 'claim', id: this.id } satisfies Beat);
    this.ticker = (this.deps.setInterval ?? setInterval)(() => {
      if (this.isLeader) channel.postMessage({ type: 'beat', id: this.id } satisfies Beat);
      else if (now() - this.lastBeatAt >= HEARTBEAT_TIMEOUT_MS) {
        this.setStatus({ status: 'leader' });
        channel.postMessage({ type: 'claim', id: this.id } satisfies Beat);
      }
    }, HEARTBEAT_MS);
    if (typeof window !== 'undefined') {
      window.addEventListener('pagehide', () => {
        if (this.isLeader) channel.postMessage({ type: 'resign', id: this.id } satisfies Beat);
      });
    }
  }
}

/** The page's election: Web Locks where the browser has them, else BroadcastChannel. */
export const leader = new LeaderElection({
  locks: typeof navigator !== 'undefined' && 'locks' in navigator ? (navigator.locks as LockManagerLike) : undefined,
  createChannel:
    typeof BroadcastChannel !== 'undefined'
      ? () => new BroadcastChannel(LEADER_CHANNEL_NAME) as unknown as ChannelLike
      : undefined,
});
