/**
 * Catching up (QUALITY 14, docs/decisions/0010): at start-up and after every (re)connection the
 * leading tab asks `GET /api/sync?since=<cursor>` until `hasMore` is false, applies each page to
 * the local store (upserts by id and seq, no duplicates) and saves the page's cursor in the same
 * transaction — so a crash mid-way resumes from the last applied page, never skips one.
 */
import type { SyncResponse } from '#shared/chat/chat-schemas';
import {
  applyReceiptCursors,
  type LocalDb,
  readMeta,
  removeConversations,
  saveGroupChanges,
  upsertConversations,
  upsertMessages,
} from './local-db.ts';

export const SYNC_CURSOR_KEY = 'sync-cursor';

export type SyncStatus =
  | { status: 'idle'; lastSyncedAt: number | null }
  | { status: 'syncing' }
  | { status: 'error'; error: unknown };

export type SyncDependencies = {
  db(): LocalDb | null;
  fetchPage(since: string): Promise<SyncResponse>;
  now?(): number;
  log?(message: string, error?: unknown): void;
};

/** Applies one sync page and its cursor atomically. */
export async function applySyncPage(db: LocalDb, page: SyncResponse): Promise<void> {
  await db.transaction('rw', db.conversations, db.messages, db.meta, async () => {
    await upsertConversations(db, page.conversations);
    await removeConversations(db, page.removedConversationIds);
    await upsertMessages(db, page.messages);
    await applyReceiptCursors(db, page.conversations);
    // The groups (decision 0056, session 17): the list's copy, and out of a group, its messages.
    await saveGroupChanges(db, page.groups ?? [], page.removedGroupIds ?? []);
    await removeConversations(db, page.removedGroupIds ?? []);
    await db.meta.put({ key: SYNC_CURSOR_KEY, value: page.cursor });
  });
}

export class SyncService {
  private status: SyncStatus = { status: 'idle', lastSyncedAt: null };
  private readonly listeners = new Set<() => void>();
  private running: Promise<void> | null = null;
  private isAgainNeeded = false;

  constructor(private readonly deps: SyncDependencies) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): SyncStatus => this.status;

  private setStatus(next: SyncStatus) {
    this.status = next;
    for (const listener of this.listeners) listener();
  }

  /** Pulls every page since the saved cursor; a call during a run asks for one more run after it. */
  run(): Promise<void> {
    if (this.running) {
      this.isAgainNeeded = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.isAgainNeeded = false;
        await this.pull();
      } while (this.isAgainNeeded);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pull(): Promise<void> {
    const db = this.deps.db();
    if (!db) return;
    this.setStatus({ status: 'syncing' });
    try {
      let since = (await readMeta(db, SYNC_CURSOR_KEY)) ?? '0';
      for (;;) {
        const page = await this.deps.fetchPage(since);
        if (this.deps.db() !== db) return;
        await applySyncPage(db, page);
        // A server that answers the same cursor with more to come would loop for ever.
        if (!page.hasMore || page.cursor === since) break;
        since = page.cursor;
      }
      this.setStatus({ status: 'idle', lastSyncedAt: this.deps.now?.() ?? Date.now() });
    } catch (error) {
      this.deps.log?.('sync: could not catch up', error);
      this.setStatus({ status: 'error', error });
    }
  }
}
