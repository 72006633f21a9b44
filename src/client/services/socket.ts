// Long on purpose: the connection's status machine, acknowledgements and reconnection go together.
/**
 * The real-time connection (spec 001 §4 "Real-time connection", §7 "Real-time socket"), shaped
 * like bluesky's chat agent (STYLE.md): a plain class with a status machine and
 * `subscribe/getSnapshot` for `useSyncExternalStore`. It opens on sign-in, closes on sign-out,
 * keeps the joined conversation rooms (at most 20, joined five at a time) and rejoins them after
 * every reconnect, and tells the server whether a client of this user is on screen
 * (notifications README: presence). The spec's alias event names reach the canonical listeners
 * (docs/decisions/0013).
 */
import type { Socket } from 'socket.io-client';
import { TOKEN_INVALIDATED_EVENT } from '#shared/auth/auth-constants';
import {
  type ClientToServerEvents,
  canonicalEventName,
  type ServerToClientEvents,
  type SocketAck,
} from '#shared/chat/socket-events';
import { leader } from './leader.ts';
import { onSignIn, onSignOut, session, signOut } from './session.ts';
import { tokenStorage } from './token-storage.ts';

/** Spec 001 §9: connect timeout 60 s; reconnection unlimited with a delay of 1 to 5 s. */
export const SOCKET_CONNECT_TIMEOUT_MS = 60_000;
export const SOCKET_RECONNECT_DELAY_MS = 1000;
export const SOCKET_RECONNECT_DELAY_MAX_MS = 5000;
/**
 * Socket.IO's reconnection: never gives up, 1 to 5 s apart. Not the other service's "5 retries"
 * of spec 001 §4/§9, which would leave an offline-first app disconnected for good (decision 0048).
 */
export const SOCKET_RECONNECTION = {
  reconnection: true,
  reconnectionAttempts: Number.POSITIVE_INFINITY,
  reconnectionDelay: SOCKET_RECONNECT_DELAY_MS,
  reconnectionDelayMax: SOCKET_RECONNECT_DELAY_MAX_MS,
  randomizationFactor: 0.5,
} as const;
/** Spec 001 §9: at most 20 joined rooms, the oldest dropped. */
export const MAX_JOINED_ROOMS = 20;
/** Spec 001 §9: conversations are joined in batches of 5. */
export const JOIN_BATCH_SIZE = 5;
/** How long an acknowledged emit waits before it fails. */
export const SOCKET_ACK_TIMEOUT_MS = 10_000;

export type ConnectionStatus =
  | { status: 'connecting' }
  | { status: 'connected'; socketId: string }
  | { status: 'reconnecting'; attempt: number }
  | { status: 'disconnected'; reason: 'signed_out' | 'server' | 'auth_failed' };

/** Events whose last argument is an acknowledgement callback. */
type AckEvents = {
  [E in keyof ClientToServerEvents]: [NonNullable<Parameters<ClientToServerEvents[E]>[1]>] extends [never] ? never : E;
}[keyof ClientToServerEvents];
type AckPayload<E extends AckEvents> = Parameters<ClientToServerEvents[E]>[0];
type AckResult<E extends AckEvents> =
  NonNullable<Parameters<ClientToServerEvents[E]>[1]> extends (result: infer R) => void ? R : never;
/** The `ok: true` branch of an event's acknowledgement. */
export type AckSuccess<E extends AckEvents> = Extract<AckResult<E>, { ok: true }>;

/** Why an acknowledged emit failed: not connected, no answer in time, or the server's refusal. */
export class SocketRequestError extends Error {
  override name = 'SocketRequestError';
  constructor(
    readonly kind: 'offline' | 'timeout' | 'refused',
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

type ChatSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type AnyHandler = (...args: unknown[]) => void;

/** The part of a Socket.IO client socket this service uses, so tests can pass a fake. */
export interface SocketLike {
  readonly id?: string | undefined;
  readonly connected: boolean;
  /** True while Socket.IO will reconnect by itself. */
  readonly active: boolean;
  on(event: string, handler: AnyHandler): unknown;
  onAny(handler: (event: string, ...args: unknown[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  /** Emits that Socket.IO drops rather than buffers when the transport cannot take them now. */
  readonly volatile: { emit(event: string, ...args: unknown[]): unknown };
  timeout(ms: number): { emit(event: string, ...args: unknown[]): unknown };
  connect(): unknown;
  disconnect(): unknown;
  readonly io: { on(event: string, handler: AnyHandler): unknown };
}

export type SocketAuthPayload = { token: string | undefined; visible: boolean };

export type ConnectionDependencies = {
  /** Builds (and starts connecting) a socket; `auth` is read again on every reconnect. */
  createSocket(auth: (callback: (data: SocketAuthPayload) => void) => void): SocketLike | Promise<SocketLike>;
  readToken(): string | undefined;
  isVisible(): boolean;
  onTokenInvalidated(): void;
  /**
   * The server refused the handshake. The token may have been revoked before the socket could hear
   * `token_invalidated` (a logout elsewhere while the app was still connecting): ask the server now
   * rather than at the next 30-second session check.
   */
  onRefused?(): void;
  /** False in a tab that does not lead (leader.ts): only the leading tab holds a socket. */
  canOpen?(): boolean;
  log?(message: string, error?: unknown): void;
};

type StatusListener = () => void;

/** The connection: one socket at a time, its status, the rooms to keep and the event fan-out. */
export class ConnectionService {
  private status: ConnectionStatus = { status: 'disconnected', reason: 'signed_out' };
  private readonly listeners = new Set<StatusListener>();
  private readonly handlers = new Map<string, Set<AnyHandler>>();
  /** Joined conversation ids, oldest first, with how many holders (screens) keep each. */
  private rooms = new Map<string, number>();
  /** The batches of joins still to send on the current connection, in order. */
  private joinQueue: Promise<void> = Promise.resolve();
  /** Bumped by every connect and close: batches queued for an earlier connection are skipped. */
  private connectionEpoch = 0;
  private socket: SocketLike | null = null;
  /** Bumped by every open/close so a socket created for an older session is thrown away. */
  private generation = 0;
  private hasConnectedOnce = false;
  /** The token the current socket was opened with. */
  private openedWith: string | undefined;

  constructor(private readonly deps: ConnectionDependencies) {}

  // ---- useSyncExternalStore ------------------------------------------------------------------

  subscribe = (listener: StatusListener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): ConnectionStatus => this.status;

  get isConnected(): boolean {
    return this.status.status === 'connected';
  }

  get joinedRooms(): readonly string[] {
    return [...this.rooms.keys()];
  }

  private setStatus(next: ConnectionStatus) {
    const current = this.status;
    if (JSON.stringify(current) === JSON.stringify(next)) return;
    this.status = next;
    for (const listener of this.listeners) listener();
  }

  // ---- lifecycle --------------------------------------------------------------------------------

  /** Opens the socket (idempotent while one is open); without a token it stays disconnected. */
  async open(): Promise<void> {
    const token = this.deps.readToken();
    if (!token || this.deps.canOpen?.() === false) return;
    if (this.openedWith === token && this.status.status !== 'disconnected') return;
    // Another session (or a refused one): start again with the token now stored.
    if (this.socket) this.close();
    this.openedWith = token;
    const generation = ++this.generation;
    this.hasConnectedOnce = false;
    this.setStatus({ status: 'connecting' });
    let socket: SocketLike;
    try {
      socket = await this.deps.createSocket((callback) =>
        callback({ token: this.deps.readToken(), visible: this.deps.isVisible() }),
      );
    } catch (error) {
      this.deps.log?.('socket: could not be created', error);
      if (generation === this.generation) {
        this.openedWith = undefined;
        this.setStatus({ status: 'disconnected', reason: 'server' });
      }
      return;
    }
    if (generation !== this.generation) {
      socket.disconnect();
      return;
    }
    this.socket = socket;
    this.wire(socket, generation);
    if (socket.connected) this.handleConnect(socket);
  }

  /** Closes the socket and forgets the rooms (sign-out). */
  close(): void {
    this.generation++;
    const socket = this.socket;
    this.socket = null;
    this.openedWith = undefined;
    this.rooms.clear();
    this.connectionEpoch++;
    this.hasConnectedOnce = false;
    socket?.disconnect();
    this.setStatus({ status: 'disconnected', reason: 'signed_out' });
  }

  private wire(socket: SocketLike, generation: number) {
    const isCurrent = () => generation === this.generation && this.socket === socket;
    socket.on('connect', () => {
      if (isCurrent()) this.handleConnect(socket);
    });
    socket.on('disconnect', (reason) => {
      if (!isCurrent()) return;
      // A server-side disconnect is final for Socket.IO (no automatic reconnect).
      if (reason === 'io server disconnect') this.setStatus({ status: 'disconnected', reason: 'server' });
      else if (reason !== 'io client disconnect') this.setStatus({ status: 'reconnecting', attempt: 0 });
    });
    socket.on('connect_error', (error) => {
      if (!isCurrent()) return;
      if (socket.active) {
        if (this.status.status !== 'connecting' || this.hasConnectedOnce) {
          this.setStatus({ status: 'reconnecting', attempt: this.attempt() });
        }
      } else {
        // The server refused the handshake (token rejected): no retry until the next sign-in.
        this.deps.log?.('socket: connection refused', error);
        this.setStatus({ status: 'disconnected', reason: 'auth_failed' });
        this.deps.onRefused?.();
      }
    });
    socket.io.on('reconnect_attempt', (attempt) => {
      if (isCurrent()) this.setStatus({ status: 'reconnecting', attempt: Number(attempt) || 1 });
    });
    socket.onAny((event, ...args) => {
      if (!isCurrent()) return;
      if (event === TOKEN_INVALIDATED_EVENT) {
        this.deps.onTokenInvalidated();
      }
      this.dispatch(event, args);
    });
  }

  private attempt(): number {
    return this.status.status === 'reconnecting' ? this.status.attempt : 1;
  }

  private handleConnect(socket: SocketLike) {
    this.hasConnectedOnce = true;
    this.setStatus({ status: 'connected', socketId: socket.id ?? '' });
    // A new connection has no rooms on the server: join every kept one again.
    this.connectionEpoch++;
    this.joinQueue = Promise.resolve();
    this.sendJoins(this.joinedRooms);
  }

  /**
   * Sends `joinConversation` five at a time, the next five once the server has answered (or failed
   * to answer) the previous ones. A room left meanwhile, or a newer socket, skips the rest; a join
   * the server refuses forgets the room, so it is not tried again on every reconnect.
   */
  private sendJoins(conversationIds: readonly string[]) {
    const socket = this.socket;
    if (!socket?.connected || conversationIds.length === 0) return;
    const epoch = this.connectionEpoch;
    const isCurrent = () => this.socket === socket && socket.connected && this.connectionEpoch === epoch;
    const batches: string[][] = [];
    for (let start = 0; start < conversationIds.length; start += JOIN_BATCH_SIZE) {
      batches.push(conversationIds.slice(start, start + JOIN_BATCH_SIZE));
    }
    for (const batch of batches) {
      this.joinQueue = this.joinQueue.then(async () => {
        if (!isCurrent()) return;
        const kept = batch.filter((conversationId) => this.rooms.has(conversationId));
        await Promise.all(
          kept.map((conversationId) =>
            this.request('joinConversation', { conversationId }).catch((error: unknown) => {
              if (error instanceof SocketRequestError && error.kind === 'refused' && isCurrent()) {
                this.rooms.delete(conversationId);
              }
              this.deps.log?.(`socket: joining ${conversationId} failed`, error);
            }),
          ),
        );
      });
    }
  }

  private dispatch(event: string, args: unknown[]) {
    // `message`, `typing`, `conversationsUpdated` are the same events under the spec's other names.
    const set = this.handlers.get(canonicalEventName(event));
    if (!set) return;
    for (const handler of [...set]) {
      try {
        handler(...args);
      } catch (error) {
        this.deps.log?.(`socket: a "${event}" handler failed`, error);
      }
    }
  }

  // ---- features ---------------------------------------------------------------------------------

  /** Listens to a server event across reconnects and sockets; returns the unsubscribe. */
  on<E extends keyof ServerToClientEvents>(event: E, handler: ServerToClientEvents[E]): () => void {
    let set = this.handlers.get(event);
    if (!set) {
      set = new Set();
      this.handlers.set(event, set);
    }
    const stored = handler as unknown as AnyHandler;
    set.add(stored);
    return () => set.delete(stored);
  }

  /**
   * Keeps conversation rooms joined (now and after every reconnect) for one more holder each: the
   * most recently joined stay, past 20 the oldest are left. New rooms are joined in batches of 5.
   */
  joinConversations(conversationIds: readonly string[]): void {
    const fresh: string[] = [];
    for (const conversationId of conversationIds) {
      const holders = this.rooms.get(conversationId) ?? 0;
      this.rooms.delete(conversationId);
      this.rooms.set(conversationId, holders + 1);
      if (holders === 0 && !fresh.includes(conversationId)) fresh.push(conversationId);
    }
    for (const dropped of [...this.rooms.keys()].slice(0, Math.max(0, this.rooms.size - MAX_JOINED_ROOMS))) {
      this.rooms.delete(dropped);
      const index = fresh.indexOf(dropped);
      if (index >= 0) fresh.splice(index, 1);
      else this.emitIfConnected('leaveConversation', { conversationId: dropped });
    }
    this.sendJoins(fresh);
  }

  joinConversation(conversationId: string): void {
    this.joinConversations([conversationId]);
  }

  /** One holder lets the rooms go; a room is left when its last holder does. */
  leaveConversations(conversationIds: readonly string[]): void {
    for (const conversationId of conversationIds) {
      const holders = this.rooms.get(conversationId);
      if (holders === undefined) continue;
      if (holders > 1) {
        this.rooms.set(conversationId, holders - 1);
        continue;
      }
      this.rooms.delete(conversationId);
      this.emitIfConnected('leaveConversation', { conversationId });
    }
  }

  leaveConversation(conversationId: string): void {
    this.leaveConversations([conversationId]);
  }

  /** Fire-and-forget (typing, receipts): dropped when not connected. Returns whether it was sent. */
  emitIfConnected<E extends keyof ClientToServerEvents>(
    event: E,
    ...args: Parameters<ClientToServerEvents[E]>
  ): boolean {
    const socket = this.socket;
    if (!socket?.connected) return false;
    socket.emit(event, ...args);
    return true;
  }

  /**
   * A volatile emit (typing): dropped when not connected, and by Socket.IO when the transport is
   * busy at this instant. Returns whether it was handed to a connected socket.
   */
  emitVolatile<E extends keyof ClientToServerEvents>(event: E, ...args: Parameters<ClientToServerEvents[E]>): boolean {
    const socket = this.socket;
    if (!socket?.connected) return false;
    socket.volatile.emit(event, ...args);
    return true;
  }

  /**
   * An emit that waits for the server's acknowledgement: resolves with its `ok: true` answer,
   * rejects with SocketRequestError when offline, on time-out or when the server refuses.
   */
  request<E extends AckEvents>(
    event: E,
    payload: AckPayload<E>,
    timeoutMs = SOCKET_ACK_TIMEOUT_MS,
  ): Promise<AckSuccess<E>> {
    const socket = this.socket;
    if (!socket?.connected) return Promise.reject(new SocketRequestError('offline', ''));
    return new Promise((resolve, reject) => {
      socket.timeout(timeoutMs).emit(event, payload, (error: unknown, result: SocketAck | undefined) => {
        if (error || !result) reject(new SocketRequestError('timeout', ''));
        else if (result.ok) resolve(result as AckSuccess<E>);
        else reject(new SocketRequestError('refused', result.message, result.status));
      });
    });
  }

  /**
   * A following tab has no socket; it shows the leading tab's status (offline.ts relays it), and
   * only while it holds no socket of its own.
   */
  mirror(status: ConnectionStatus): void {
    if (!this.socket) this.setStatus(status);
  }

  /** Presence for the notifications feature: pushes go only to users with no visible client. */
  reportVisibility(isVisible: boolean): void {
    this.emitIfConnected(isVisible ? 'presence:visible' : 'presence:hidden');
  }
}

// ---- the browser instance --------------------------------------------------------------------

async function createBrowserSocket(auth: (callback: (data: SocketAuthPayload) => void) => void): Promise<SocketLike> {
  // Loaded on sign-in only, so public pages do not ship the Socket.IO client.
  const { io } = await import('socket.io-client');
  const socket: ChatSocket = io({
    path: '/socket.io',
    auth,
    transports: ['polling', 'websocket'],
    // Long-polling needs every request of one connection on the node holding its session: the
    // load balancer hashes this random value (deploy/nginx/entreno.conf.template), while plain
    // HTTP calls stay round robin.
    // (getRandomValues, not randomUUID: the latter needs a secure context.)
    query: { route: Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) => byte.toString(16)).join('') },
    timeout: SOCKET_CONNECT_TIMEOUT_MS,
    ...SOCKET_RECONNECTION,
  });
  return socket as unknown as SocketLike;
}

/** The app's one connection. */
export const connection = new ConnectionService({
  createSocket: createBrowserSocket,
  readToken: () => tokenStorage.readToken()?.token,
  isVisible: () => typeof document === 'undefined' || document.visibilityState === 'visible',
  onTokenInvalidated: () => void signOut('auth_required'),
  onRefused: () =>
    void session.checkSession().then((result) => {
      if (result.status === 'invalid') void signOut('session_check');
    }),
  canOpen: () => leader.isLeader,
  log: (message, error) => console.warn(`[socket] ${message}`, error ?? ''),
});

let isConnectionStarted = false;

/**
 * Wires the connection to the session once (app start-up, before the session is restored):
 * open on sign-in, close on sign-out, presence on visibility changes.
 */
export function startConnection(): void {
  if (isConnectionStarted || typeof window === 'undefined') return;
  isConnectionStarted = true;
  onSignIn(() => void connection.open());
  onSignOut(() => connection.close());
  // Only the leading tab holds the socket; a tab that becomes leader opens it (QUALITY 20).
  leader.subscribe(() => {
    if (leader.isLeader) void connection.open();
  });
  leader.start();
  document.addEventListener('visibilitychange', () =>
    connection.reportVisibility(document.visibilityState === 'visible'),
  );
  if (tokenStorage.readToken()) void connection.open();
}
