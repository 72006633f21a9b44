import { type IDBPDatabase, openDB } from 'idb';
import {
  LOCAL_DB_PREFIX,
  OUTBOX_DRAIN_MESSAGE,
  OUTBOX_SYNC_TAG,
  PERMANENT_FAILURE_STATUSES,
  SESSION_DB_NAME,
} from '#shared/offline';

type OutboxRow = {
  id: number;
  clientId: string;
  kind: string;
  scope: string;
  request: { method: string; path: string; json?: unknown };
  status: 'pending' | 'failed';
  attempts: number;
};

export type OutboxSyncDeps = {
  matchClients(): Promise<ReadonlyArray<{ postMessage(message: unknown): void }>>;
  openDb(name: string): Promise<IDBPDatabase | null>;
  fetch(input: string, init: RequestInit): Promise<Response>;
};

/** Thrown so the browser keeps the sync registration and tries again later. */
export class RetryLater extends Error {}

/**
 * Background Sync woke us: an open page (its leading tab) drains its own outbox, so with a page
 * open we only tell it to. With none, the worker replays the outbox itself over HTTP with the
 * token saved for remember-me sessions; the clientId in every body makes a replay harmless if
 * the page drains the same item later.
 */
export async function handleOutboxSync(deps: OutboxSyncDeps): Promise<'told-clients' | 'drained' | 'nothing'> {
  const clients = await deps.matchClients();
  if (clients.length > 0) {
    for (const client of clients) client.postMessage({ type: OUTBOX_DRAIN_MESSAGE });
    return 'told-clients';
  }
  const sessionDb = await deps.openDb(SESSION_DB_NAME);
  if (!sessionDb) return 'nothing';
  const session = (
    sessionDb.objectStoreNames.contains('session') ? await sessionDb.get('session', 'current') : undefined
  ) as { userId: string; token: string } | undefined;
  sessionDb.close();
  if (!session?.token) return 'nothing';
  const db = await deps.openDb(`${LOCAL_DB_PREFIX}${session.userId}`);
  if (!db) return 'nothing';
  try {
    const rows = ((await db.getAll('outbox')) as OutboxRow[])
      .filter((row) => row.status === 'pending')
      .sort((a, b) => a.id - b.id);
    const heldScopes = new Set<string>();
    let mustRetry = false;
    for (const row of rows) {
      if (heldScopes.has(row.scope)) continue;
      let response: Response;
      try {
        response = await deps.fetch(`/api/${row.request.path}`, {
          method: row.request.method,
          headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
          ...(row.request.json === undefined ? {} : { body: JSON.stringify(row.request.json) }),
        });
      } catch {
        throw new RetryLater('offline');
      }
      // A DELETE answered 404 (a notification already gone) has reached its goal: done, not refused.
      if (response.ok || (response.status === 404 && row.request.method === 'DELETE')) {
        const body = (await response.json().catch(() => null)) as { data?: Record<string, unknown> } | null;
        const tx = db.transaction(['outbox', 'messages'], 'readwrite');
        await tx.objectStore('outbox').delete(row.id);
        if (row.kind === 'message' && body?.data) {
          await tx.objectStore('messages').put({ ...body.data, key: row.clientId });
        }
        await tx.done;
      } else if (PERMANENT_FAILURE_STATUSES.has(response.status)) {
        const tx = db.transaction(['outbox', 'messages'], 'readwrite');
        await tx.objectStore('outbox').put({ ...row, status: 'failed', attempts: row.attempts + 1 });
        if (row.kind === 'message') {
          const message = await tx.objectStore('messages').get(row.clientId);
          if (message) await tx.objectStore('messages').put({ ...message, status: 'error' });
        }
        await tx.done;
      } else if (response.status === 401) {
        // The session is over: the page signs out and wipes at its next start.
        return 'nothing';
      } else {
        heldScopes.add(row.scope);
        mustRetry = true;
      }
    }
    if (mustRetry) throw new RetryLater('server busy');
    return 'drained';
  } finally {
    db.close();
  }
}

/** Opens an existing database without creating or upgrading it; null when it is not there. */
export async function openExisting(name: string): Promise<IDBPDatabase | null> {
  const known = await indexedDB.databases?.().catch(() => null);
  if (known && !known.some((entry) => entry.name === name)) return null;
  const db = await openDB(name);
  if (db.objectStoreNames.length === 0) {
    db.close();
    return null;
  }
  return db;
}

type SyncEvent = ExtendableEvent & { tag: string };

export function installOutboxSync(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('sync', (event) => {
    const syncEvent = event as SyncEvent;
    if (syncEvent.tag !== OUTBOX_SYNC_TAG) return;
    syncEvent.waitUntil(
      handleOutboxSync({
        matchClients: () => scope.clients.matchAll({ type: 'window', includeUncontrolled: true }),
        openDb: openExisting,
        fetch: (input, init) => fetch(input, init),
      }),
    );
  });
}
