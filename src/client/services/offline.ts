/**
 * The offline-first wiring of the page (ARCHITECTURE "Offline and sync", QUALITY 13, 14, 19, 20,
 * 23; docs/decisions/0011-offline.md): opens the signed-in user's IndexedDB database, builds the
 * app's outbox and sync over it, lets only the leading tab drain and catch up, writes live socket
 * events into the store, relays the leader's connection status to the other tabs, keeps the token
 * the worker needs for Background Sync (remember-me sessions only) and wipes everything at
 * sign-out.
 */
import Dexie from 'dexie';
import type { ConversationSummary, SyncResponse } from '#shared/chat/chat-schemas';
import type { OutboxKind } from './local-db.ts';
import { PERMANENT_FAILURE_STATUSES } from '#shared/offline';
import { ApiRequestError, requestJson } from './http.ts';
import { leader } from './leader.ts';
import {
  applyReceiptToDb,
  currentDb,
  type OutboxItem,
  SESSION_DB_NAME,
  selectLocalDb,
  upsertMessages,
  wipeLocalDb,
  watchLocal,
} from './local-db.ts';
import { type FailureKind, OUTBOX_DRAIN_MESSAGE, OUTBOX_SYNC_TAG, OutboxService } from './outbox.ts';
import { onSignIn, onSignOut, session } from './session.ts';
import { type ConnectionStatus, connection, SocketRequestError } from './socket.ts';
import { SyncService } from './sync.ts';
import { tokenStorage } from './token-storage.ts';

/** Sorts a failed delivery into permanent (refused), transient (retry with backoff) or offline. */
export function classifyFailure(error: unknown, isOnline: boolean): FailureKind {
  if (error instanceof ApiRequestError) {
    if (error.kind === 'http' && error.status !== undefined && PERMANENT_FAILURE_STATUSES.has(error.status))
      return 'permanent';
    if (error.kind === 'network' && !isOnline) return 'offline';
    return 'transient';
  }
  if (error instanceof SocketRequestError) {
    if (error.kind === 'refused' && error.status !== undefined && PERMANENT_FAILURE_STATUSES.has(error.status)) {
      return 'permanent';
    }
    return isOnline ? 'transient' : 'offline';
  }
  return isOnline ? 'transient' : 'offline';
}

const isBrowserOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

function requestBackgroundSync(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.ready
    .then((registration) => {
      const sync = (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })
        .sync;
      return sync?.register(OUTBOX_SYNC_TAG);
    })
    .catch(() => {
      // No Background Sync here: the page drains when it comes back online.
    });
}

/** The app's outbox: drained by the leading tab only. */
export const outbox = new OutboxService({
  db: currentDb,
  isOnline: isBrowserOnline,
  canDrain: () => leader.isLeader,
  classify: (error) => classifyFailure(error, isBrowserOnline()),
  send: (item: OutboxItem) =>
    requestJson(item.request.path, {
      method: item.request.method.toLowerCase(),
      ...(item.request.json === undefined ? {} : { json: item.request.json }),
      retry: 0,
    }),
  requestBackgroundSync,
  log: (message, error) => console.warn(`[outbox] ${message}`, error ?? ''),
});

/** The app's catch-up after every (re)connection. */
export const sync = new SyncService({
  db: currentDb,
  fetchPage: (since) => requestJson<SyncResponse>('sync', { searchParams: { since } }),
  log: (message, error) => console.warn(`[sync] ${message}`, error ?? ''),
});

// ---- the worker's copy of the token (docs/decisions/0011) ---------------------------------------

type WorkerSessionRow = { key: 'current'; userId: string; token: string };

function sessionDb() {
  const db = new Dexie(SESSION_DB_NAME) as Dexie & { session: Dexie.Table<WorkerSessionRow, string> };
  db.version(1).stores({ session: 'key' });
  return db;
}

/** Remember-me sessions only: a session-only login must not outlive its tab on disk. */
async function saveWorkerSession(): Promise<void> {
  const stored = tokenStorage.readToken();
  const userId = session.current()?.user.userId;
  const db = sessionDb();
  try {
    if (stored?.area === 'local' && userId) {
      await db.session.put({ key: 'current', userId, token: stored.token });
    } else {
      await db.session.clear();
    }
  } finally {
    db.close();
  }
}

// ---- the leader's status for the other tabs -----------------------------------------------------

const CONNECTION_CHANNEL = 'entreno-connection';
type ConnectionRelay = { type: 'status'; status: ConnectionStatus } | { type: 'ask' };

function relayConnectionStatus(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CONNECTION_CHANNEL);
  const tell = () => {
    if (leader.isLeader)
      channel.postMessage({ type: 'status', status: connection.getSnapshot() } satisfies ConnectionRelay);
  };
  connection.subscribe(tell);
  leader.subscribe(tell);
  channel.onmessage = (event: MessageEvent<ConnectionRelay>) => {
    if (event.data?.type === 'ask') tell();
    else if (event.data?.type === 'status' && !leader.isLeader) connection.mirror(event.data.status);
  };
  channel.postMessage({ type: 'ask' } satisfies ConnectionRelay);
}

// ---- start-up -----------------------------------------------------------------------------------

const ownUserId = () => session.current()?.user.userId ?? '';

function catchUpAndDrain(): void {
  if (!leader.isLeader || !currentDb()) return;
  void sync.run().finally(() => outbox.kick({ isFresh: true }));
}

let isStarted = false;

/**
 * Wires the offline layer once (app start-up, before the session is restored). A stored session
 * opens its database at once, so an offline start reads the last known data without waiting for
 * the server.
 */
export function startOffline(): void {
  if (isStarted || typeof window === 'undefined') return;
  isStarted = true;

  const userId = session.current()?.user.userId;
  if (userId) selectLocalDb(userId);

  onSignIn((active) => {
    selectLocalDb(active.user.userId);
    void saveWorkerSession();
    catchUpAndDrain();
  });
  onSignOut(async () => {
    outbox.stop();
    await wipeLocalDb();
  });
  tokenStorage.subscribe(() => {
    if (tokenStorage.readToken()) void saveWorkerSession();
  });

  let wasConnected = false;
  connection.subscribe(() => {
    const isConnected = connection.getSnapshot().status === 'connected';
    if (isConnected && !wasConnected) catchUpAndDrain();
    wasConnected = isConnected;
  });
  leader.subscribe(() => {
    if (leader.isLeader) catchUpAndDrain();
    else outbox.stop();
  });
  window.addEventListener('online', () => outbox.kick({ isFresh: true }));
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: string } | null)?.type === OUTBOX_DRAIN_MESSAGE) outbox.kick({ isFresh: true });
  });
  // Another tab wrote to the outbox: the leader picks it up.
  watchLocal(
    (db) => db.outbox.where('status').equals('pending').count(),
    (count) => {
      if (count > 0 && leader.isLeader) outbox.kick();
      if (count > 0 && !isBrowserOnline()) requestBackgroundSync();
    },
  );

  // Live events go to the store (the screens follow it through live queries).
  connection.on('newMessage', (message) => {
    const db = currentDb();
    if (db && message) void upsertMessages(db, [message]);
  });
  connection.on('messagesDelivered', (event) => {
    const db = currentDb();
    if (db) void applyReceiptToDb(db, { ...event, status: 'delivered' }, ownUserId());
  });
  connection.on('messagesRead', (event) => {
    const db = currentDb();
    if (db) void applyReceiptToDb(db, { ...event, status: 'read' }, ownUserId());
  });
  connection.on('conversationUpdated', (event) => {
    const db = currentDb();
    if (!db) return;
    const { conversationId, ...changed } = event;
    const patch = Object.fromEntries(Object.entries(changed).filter(([, value]) => value !== undefined));
    // A new conversation comes with every field: store it whole; otherwise patch the known one.
    const isWhole = event.otherUser !== undefined && event.updatedAt !== undefined && event.status !== undefined;
    void db.transaction('rw', db.conversations, async () => {
      const known = await db.conversations.get(conversationId);
      if (known) await db.conversations.put({ ...known, ...patch });
      else if (isWhole) await db.conversations.put(event as ConversationSummary);
    });
  });

  relayConnectionStatus();
  if (leader.isLeader) catchUpAndDrain();
}

/** The browser's online flag as a store, for the "Sin conexión" banner. */
export const networkStatus = {
  subscribe(listener: () => void): () => void {
    window.addEventListener('online', listener);
    window.addEventListener('offline', listener);
    return () => {
      window.removeEventListener('online', listener);
      window.removeEventListener('offline', listener);
    };
  },
  getSnapshot: isBrowserOnline,
};

/**
 * How many things the person did wait in the outbox (or failed), for "what is pending": only the
 * kinds given (the chat counts its messages, the deck its swipes), never the read receipts the app
 * queues by itself (issue #20: one message offline read "2 pendientes").
 */
export function watchPendingCount(kinds: readonly OutboxKind[], onValue: (count: number) => void): () => void {
  return watchLocal(
    (db) =>
      db.outbox
        .where('kind')
        .anyOf([...kinds])
        .count(),
    onValue,
  );
}
