/**
 * The device's copy of the user's data (ARCHITECTURE "Offline and sync", QUALITY 13, 19): one
 * IndexedDB database per signed-in user (`entreno-<userId>`), read first by the screens and
 * refreshed by the network. Only this module and the outbox/sync services touch Dexie; features
 * call the helpers below. The service worker reads the `outbox` table with `idb`, so its shape
 * (auto-increment key, plain objects) is a contract — see docs/decisions/0011-offline.md.
 */
import Dexie, { type EntityTable, liveQuery } from 'dexie';
import type { ChatMessage, ConversationSummary, MessageStatus } from '#shared/chat/chat-schemas';
import { LOCAL_DB_PREFIX, SESSION_DB_NAME } from '#shared/offline';

export { LOCAL_DB_PREFIX, SESSION_DB_NAME } from '#shared/offline';

/** A message as kept on the device: a server one, or ours still pending (`seq` null). */
export type StoredMessage = Omit<ChatMessage, 'status' | 'seq'> & {
  /** Primary key: the sender's clientId when there is one (so a pending copy and its server copy are one row), else `_id`. */
  key: string;
  status: MessageStatus;
  seq: number | null;
};

export type StoredMatch = { matchId: string; conversationId: string; otherUser: unknown; createdAt: string };
export type StoredNotification = { id: string; createdAt: string } & Record<string, unknown>;
export type StoredDeckProfile = { userId: string; position: number } & Record<string, unknown>;
export type StoredOwnProfile = { userId: string } & Record<string, unknown>;
export type MetaRow = { key: string; value: string };

export type OutboxKind = 'message' | 'swipe' | 'markRead';
export type OutboxStatus = 'pending' | 'failed';

/** The HTTP call that delivers an item: what the worker replays when no page is open. */
export type OutboxRequest = { method: 'POST' | 'PATCH'; path: string; json?: unknown };

/** One thing done offline, replayed in `id` order within its `scope` (a conversation, or `swipes`). */
export type OutboxItem = {
  id?: number;
  clientId: string;
  kind: OutboxKind;
  scope: string;
  /** Path under /api, idempotent thanks to the clientId in its body. */
  request: OutboxRequest;
  payload: Record<string, unknown>;
  status: OutboxStatus;
  attempts: number;
  createdAt: string;
  lastError?: string;
};

export type LocalDb = Dexie & {
  conversations: EntityTable<ConversationSummary, 'conversationId'>;
  messages: EntityTable<StoredMessage, 'key'>;
  matches: EntityTable<StoredMatch, 'matchId'>;
  notifications: EntityTable<StoredNotification, 'id'>;
  deckProfiles: EntityTable<StoredDeckProfile, 'userId'>;
  ownProfile: EntityTable<StoredOwnProfile, 'userId'>;
  meta: EntityTable<MetaRow, 'key'>;
  outbox: EntityTable<OutboxItem, 'id'>;
};

export function localDbName(userId: string): string {
  return `${LOCAL_DB_PREFIX}${userId}`;
}

/** Opens (creating or upgrading) a user's database. New versions add a `version(n)` block below. */
export function openLocalDb(userId: string): LocalDb {
  const db = new Dexie(localDbName(userId)) as LocalDb;
  db.version(1).stores({
    conversations: 'conversationId, updatedAt',
    messages: 'key, conversationId, [conversationId+seq], _id, clientId',
    matches: 'matchId, conversationId',
    notifications: 'id, createdAt',
    deckProfiles: 'userId, position',
    ownProfile: 'userId',
    meta: 'key',
    outbox: '++id, clientId, [scope+id], status, kind',
  });
  return db;
}

// ---- the signed-in user's database --------------------------------------------------------------

let current: { userId: string; db: LocalDb } | null = null;
const dbListeners = new Set<() => void>();

/** The open database of the signed-in user, or null when nobody is signed in. */
export function currentDb(): LocalDb | null {
  return current?.db ?? null;
}

/** Follows the database switching (sign-in, sign-out); returns the unsubscribe. */
export function onDbChange(listener: () => void): () => void {
  dbListeners.add(listener);
  return () => dbListeners.delete(listener);
}

/** Opens the user's database (idempotent for the same user). */
export function selectLocalDb(userId: string): LocalDb {
  if (current?.userId === userId) return current.db;
  current?.db.close();
  current = { userId, db: openLocalDb(userId) };
  for (const listener of dbListeners) listener();
  return current.db;
}

/** Sign-out (QUALITY 23): closes and deletes the user's database, and the worker's session row. */
export async function wipeLocalDb(userId?: string): Promise<void> {
  const target = userId ?? current?.userId;
  if (current && (!userId || current.userId === userId)) {
    current.db.close();
    current = null;
    for (const listener of dbListeners) listener();
  }
  if (target) await Dexie.delete(localDbName(target));
  await Dexie.delete(SESSION_DB_NAME);
}

// ---- messages -----------------------------------------------------------------------------------

const RANK: Record<MessageStatus, number> = { error: 0, sending: 0, sent: 1, delivered: 2, read: 3 };

export function messageKey(message: Pick<ChatMessage, '_id' | 'clientId'>): string {
  return message.clientId || message._id;
}

/** The server's copy wins its fields; the status never goes back (a late `sent` after `read`). */
export function mergeMessage(
  existing: StoredMessage | undefined,
  incoming: ChatMessage | StoredMessage,
): StoredMessage {
  const senderId = incoming.senderId || incoming.sender_id;
  const next: StoredMessage = { ...incoming, senderId, key: messageKey(incoming) };
  if (!existing) return next;
  const existingStatus = existing.status === 'error' && next.seq !== null ? 'sent' : existing.status;
  if (existing.seq !== null && next.seq === null) return existing;
  const status = RANK[existingStatus] > RANK[next.status] ? existingStatus : next.status;
  return { ...existing, ...next, status, read: next.read || (existing.seq !== null && existing.read) };
}

/** Upserts server messages: one row per clientId (or `_id`), never a second copy. */
export async function upsertMessages(db: LocalDb, messages: readonly (ChatMessage | StoredMessage)[]): Promise<void> {
  const valid = messages.filter((message) => message._id && message.text?.trim());
  if (valid.length === 0) return;
  await db.transaction('rw', db.messages, async () => {
    const keys = valid.map(messageKey);
    const existing = await db.messages.bulkGet(keys);
    const byKey = new Map<string, StoredMessage>();
    valid.forEach((message, index) => {
      const key = keys[index] as string;
      byKey.set(key, mergeMessage(byKey.get(key) ?? existing[index], message));
    });
    // A message known by `_id` under another key (it arrived once without its clientId) is replaced.
    const strays = await db.messages
      .where('_id')
      .anyOf(valid.map((message) => message._id))
      .filter((row) => !byKey.has(row.key))
      .primaryKeys();
    if (strays.length > 0) await db.messages.bulkDelete(strays);
    await db.messages.bulkPut([...byKey.values()]);
  });
}

/** Server order (seq); our pending ones after them, in the order they were written. */
export function compareMessages(a: StoredMessage, b: StoredMessage): number {
  if (a.seq !== null && b.seq !== null) return a.seq - b.seq;
  if (a.seq !== null) return -1;
  if (b.seq !== null) return 1;
  return a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0;
}

export async function readMessages(db: LocalDb, conversationId: string): Promise<StoredMessage[]> {
  const rows = await db.messages.where('conversationId').equals(conversationId).toArray();
  return rows.sort(compareMessages);
}

/** Receipts for our own messages (`messageIds` absent: all of ours in the conversation). */
export async function applyReceiptToDb(
  db: LocalDb,
  receipt: { conversationId: string; messageIds?: readonly string[] | undefined; status: 'delivered' | 'read' },
  ownUserId: string,
): Promise<void> {
  await db.transaction('rw', db.messages, async () => {
    const ids = receipt.messageIds ? new Set(receipt.messageIds) : null;
    await db.messages
      .where('conversationId')
      .equals(receipt.conversationId)
      .filter((row) => row.senderId === ownUserId && row.seq !== null && (!ids || ids.has(row._id)))
      .modify((row) => {
        if (RANK[receipt.status] > RANK[row.status]) row.status = receipt.status;
        if (receipt.status === 'read') row.read = true;
      });
  });
}

// ---- conversations ------------------------------------------------------------------------------

export async function upsertConversations(db: LocalDb, list: readonly ConversationSummary[]): Promise<void> {
  if (list.length > 0) await db.conversations.bulkPut([...list]);
}

export async function removeConversations(db: LocalDb, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.transaction('rw', db.conversations, db.messages, async () => {
    await db.conversations.bulkDelete([...ids]);
    await db.messages
      .where('conversationId')
      .anyOf([...ids])
      .delete();
  });
}

// ---- cursors ------------------------------------------------------------------------------------

export async function readMeta(db: LocalDb, key: string): Promise<string | undefined> {
  return (await db.meta.get(key))?.value;
}

// ---- outbox ---------------------------------------------------------------------------------------

/** Whether an item of `kind` still waits in `scope` (a read mark needs no second copy). */
export async function hasPendingOutboxItem(db: LocalDb, scope: string, kind: OutboxKind): Promise<boolean> {
  const count = await db.outbox
    .where('[scope+id]')
    .between([scope, Dexie.minKey], [scope, Dexie.maxKey])
    .filter((item) => item.kind === kind && item.status === 'pending')
    .count();
  return count > 0;
}

// ---- live queries -------------------------------------------------------------------------------

/**
 * Runs `query` against the current user's database now and after every change to what it read —
 * also changes made by other tabs (Dexie broadcasts them). Follows sign-in/sign-out. Returns the
 * unsubscribe.
 */
export function watchLocal<T>(query: (db: LocalDb) => Promise<T>, onValue: (value: T) => void): () => void {
  let subscription: { unsubscribe(): void } | null = null;
  const start = () => {
    subscription?.unsubscribe();
    subscription = null;
    const db = currentDb();
    if (!db) return;
    subscription = liveQuery(() => query(db)).subscribe({
      next: onValue,
      error: (error) => console.warn('[local-db] a live query failed', error),
    });
  };
  start();
  const stop = onDbChange(start);
  return () => {
    stop();
    subscription?.unsubscribe();
  };
}
