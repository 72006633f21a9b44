// Long on purpose: the one module that touches Dexie: the schema, its versions, each table's helpers.
/**
 * The device's copy of the user's data (ARCHITECTURE "Offline and sync", QUALITY 13, 19): one
 * IndexedDB database per signed-in user (`entreno-<userId>`), read first by the screens and
 * refreshed by the network. Only this module and the outbox/sync services touch Dexie; features
 * call the helpers below. The service worker reads the `outbox` table with `idb`, so its shape
 * (auto-increment key, plain objects) is a contract — see docs/decisions/0011-offline.md.
 */
import Dexie, { type EntityTable, liveQuery } from 'dexie';
import type { ChatMessage, ConversationSummary, GroupSummary, MessageStatus } from '#shared/chat/chat-schemas';
import type { MatchListItem } from '#shared/discovery/discovery-schemas';
import type { Notification } from '#shared/notifications/notification-schemas';
import type { OwnProfile, PublicProfile } from '#shared/profile/profile-views';
import type { Quedada } from '#shared/quedadas/quedada-schemas';
import type { QuedadaShare } from '#shared/quedadas/share-schemas';
import { LOCAL_DB_PREFIX, SESSION_DB_NAME } from '#shared/offline';

export { LOCAL_DB_PREFIX, SESSION_DB_NAME } from '#shared/offline';

/** A message as kept on the device: a server one, or ours still pending (`seq` null). */
export type StoredMessage = Omit<ChatMessage, 'status' | 'seq'> & {
  /** Primary key: the sender's clientId when there is one (so a pending copy and its server copy are one row), else `_id`. */
  key: string;
  status: MessageStatus;
  seq: number | null;
};

/** A match as the last list showed it; `position` keeps the server's order. */
export type StoredMatch = MatchListItem & { position: number };
/** A notification keyed by its `_id` (as `id`). */
export type StoredNotification = Notification & { id: string };
/** A profile of the last known deck, in deck order. */
export type StoredDeckProfile = PublicProfile & { position: number };
export type StoredOwnProfile = OwnProfile;
export type MetaRow = { key: string; value: string };
/** A photo picked in the unfinished profile wizard, kept so a reload or an evicted tab keeps it. */
export type StoredWizardPhoto = { position: number; blob: Blob; name: string; type: string };

/**
 * A quedada as kept on the device: the server's copy (key `_id`), or a proposal still in the
 * outbox (key: its clientId, `_id` empty). `sync` says whether the row waits for the server.
 */
export type StoredQuedada = Quedada & { key: string; sync: 'synced' | 'pending' | 'error' };

export type OutboxKind =
  | 'message'
  | 'swipe'
  | 'undoSwipe'
  | 'markRead'
  | 'notification'
  | 'quedada'
  | 'quedadaShare'
  | 'openSession'
  | 'group'
  | 'report';

/**
 * A link to one of the user's quedadas for someone they trust (issue #35, docs/decisions/0054):
 * the token lives only here (the server keeps its hash); `share` is the server's copy once sent.
 */
export type StoredShare = {
  /** The create's clientId. */
  key: string;
  /** The shared quedada's id, or the open session's (both UUIDs: never the same; docs/decisions/0054, session 17). */
  quedadaId: string;
  token: string;
  checkInAt: string | null;
  share: QuedadaShare | null;
  sync: 'synced' | 'pending' | 'error';
  createdAt: string;
};
export type OutboxStatus = 'pending' | 'failed';

/** The HTTP call that delivers an item: what the worker replays when no page is open. */
export type OutboxRequest = { method: 'POST' | 'PATCH' | 'DELETE'; path: string; json?: unknown };

/** One thing done offline, replayed in `id` order within its `scope` (a conversation, or `swipes`). */
export type OutboxItem = {
  id?: number;
  clientId: string;
  kind: OutboxKind;
  scope: string;
  /**
   * Path under /api, idempotent thanks to the clientId in its body: what is sent, stored once
   * (the worker replays it as it stands; a kind's `deliver` reads it too).
   */
  request: OutboxRequest;
  /** What the page needs beyond the request to apply or undo the item (never a copy of it). */
  payload?: Record<string, unknown>;
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
  wizardPhotos: EntityTable<StoredWizardPhoto, 'position'>;
  quedadas: EntityTable<StoredQuedada, 'key'>;
  quedadaShares: EntityTable<StoredShare, 'key'>;
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
  // Issue #20: the profile wizard's picked photos (its fields and step are a `meta` row).
  db.version(2).stores({ wizardPhotos: 'position' });
  // Quedadas (issue #21).
  db.version(3).stores({ quedadas: 'key, conversationId, _id, startsAt' });
  // «Compartir con alguien de confianza» (issue #35).
  db.version(4).stores({ quedadaShares: 'key, quedadaId' });
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

/** The open database when it belongs to `userId` (an answer for another user is not stored). */
export function dbFor(userId: string): LocalDb | null {
  return current?.userId === userId ? current.db : null;
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
  // A hidden message (a group's, from someone the reader blocked) comes without text and replaces
  // the copy that had it.
  const valid = messages.filter((message) => message._id && (message.text?.trim() || message.isHidden));
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

/**
 * Receipts as cursors (docs/decisions/0041): the other member's `readSeq` / `deliveredSeq` of
 * each conversation mark our own stored messages up to them read / delivered (never back).
 */
export async function applyReceiptCursors(db: LocalDb, conversations: readonly ConversationSummary[]): Promise<void> {
  const moving = conversations.filter((c) => (c.readSeq ?? 0) > 0 || (c.deliveredSeq ?? 0) > 0);
  if (moving.length === 0) return;
  await db.transaction('rw', db.messages, async () => {
    for (const conversation of moving) {
      const readSeq = conversation.readSeq ?? 0;
      const deliveredSeq = Math.max(conversation.deliveredSeq ?? 0, readSeq);
      await db.messages
        .where('[conversationId+seq]')
        .between([conversation.conversationId, 1], [conversation.conversationId, deliveredSeq], true, true)
        .filter((message) => message.senderId !== conversation.otherUser.userId)
        .modify((message) => {
          const seq = message.seq ?? 0;
          const status = seq <= readSeq ? 'read' : 'delivered';
          if (RANK[status] > RANK[message.status]) message.status = status;
          if (seq <= readSeq) message.read = true;
        });
    }
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

/**
 * The newest message of the conversation from the other person (theirs always carry a `seq`):
 * read from the end of the seq index, so a long thread is not read whole.
 */
export async function newestReceivedMessageId(
  db: LocalDb,
  conversationId: string,
  ownUserId: string,
): Promise<string | undefined> {
  const newest = await db.messages
    .where('[conversationId+seq]')
    .between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey])
    .reverse()
    .filter((message) => message.senderId !== ownUserId)
    .first();
  return newest?._id;
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

/** Conversations from the server or from the list's state (valtio proxies: stored as plain copies). */
export async function upsertConversations(db: LocalDb, list: readonly ConversationSummary[]): Promise<void> {
  if (list.length > 0) await db.conversations.bulkPut(plain([...list]));
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

/**
 * The device's copy of the groups (`saved:groups`) with a sync page's changes: changed groups
 * replace their copy or join it, removed ones leave, newest activity first (decision 0056,
 * session 17). The removed groups' messages go in `removeConversations`.
 */
export function mergeGroupLists(
  saved: readonly GroupSummary[],
  changed: readonly GroupSummary[],
  removedIds: readonly string[],
): GroupSummary[] {
  const byId = new Map(saved.map((group) => [group.conversationId, group]));
  for (const group of changed) byId.set(group.conversationId, group);
  for (const id of removedIds) byId.delete(id);
  return [...byId.values()].sort(
    (a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.conversationId.localeCompare(a.conversationId),
  );
}

/** The device's copy of the groups (null when this device never listed them). */
export async function readSavedGroups(db: LocalDb): Promise<GroupSummary[] | null> {
  const saved = await readMeta(db, SAVED_AT.groups).catch(() => undefined);
  if (!saved) return null;
  try {
    return JSON.parse(saved) as GroupSummary[];
  } catch {
    return null;
  }
}

export async function saveGroupChanges(
  db: LocalDb,
  changed: readonly GroupSummary[],
  removedIds: readonly string[],
): Promise<void> {
  if (changed.length === 0 && removedIds.length === 0) return;
  await db.transaction('rw', db.meta, async () => {
    const saved = (await readSavedGroups(db)) ?? [];
    await writeMeta(db, SAVED_AT.groups, JSON.stringify(mergeGroupLists(saved, changed, removedIds)));
  });
}

// ---- cursors ------------------------------------------------------------------------------------

export async function readMeta(db: LocalDb, key: string): Promise<string | undefined> {
  return (await db.meta.get(key))?.value;
}

export async function writeMeta(db: LocalDb, key: string, value: string): Promise<void> {
  await db.meta.put({ key, value });
}

// ---- the last known screens (QUALITY 19) --------------------------------------------------------
// Each list remembers that it was saved (a `meta` row), so an empty list ("no matches yet") shows
// offline as empty, and a list never loaded on this device as unknown (null).

export const SAVED_AT = {
  matches: 'saved:matches',
  notifications: 'saved:notifications',
  notificationsUnread: 'notifications:unread',
  deck: 'saved:deck',
  ownProfile: 'saved:ownProfile',
  /** The first page of conversations was answered once here (issue #22: offline, none is "empty"). */
  conversations: 'saved:conversations',
  /** The settings as the server last confirmed them, as JSON (issue #22: /config offline). */
  settings: 'saved:settings',
  /** The group chats of /messages as the server last listed them, as JSON (decision 0056). */
  groups: 'saved:groups',
} as const;

/**
 * A plain copy of data that came as JSON: the screens' state (valtio) turns the objects it holds
 * into proxies, which IndexedDB cannot clone.
 */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const withPosition = <T>(items: readonly T[]) => plain(items).map((item, position) => ({ ...item, position }));
const withoutPosition = <T extends { position: number }>(rows: readonly T[]): Omit<T, 'position'>[] =>
  [...rows].sort((a, b) => a.position - b.position).map(({ position: _position, ...item }) => item);

async function markSaved(db: LocalDb, key: string): Promise<void> {
  await db.meta.put({ key, value: new Date().toISOString() });
}

/** The matches list as the server sent it last (replaces the previous one). */
export async function saveMatches(db: LocalDb, matches: readonly MatchListItem[]): Promise<void> {
  await db.transaction('rw', db.matches, db.meta, async () => {
    await db.matches.clear();
    await db.matches.bulkPut(withPosition(matches));
    await markSaved(db, SAVED_AT.matches);
  });
}

/** The last known matches, or null when this device never loaded them. */
export async function readMatches(db: LocalDb): Promise<MatchListItem[] | null> {
  return db.transaction('r', db.matches, db.meta, async () => {
    if (!(await db.meta.get(SAVED_AT.matches))) return null;
    return withoutPosition(await db.matches.toArray());
  });
}

/** The deck as it stands (what is left of the last pages), in order; replaces the previous one. */
export async function saveDeck(db: LocalDb, profiles: readonly PublicProfile[]): Promise<void> {
  await db.transaction('rw', db.deckProfiles, db.meta, async () => {
    await db.deckProfiles.clear();
    await db.deckProfiles.bulkPut(withPosition(profiles));
    await markSaved(db, SAVED_AT.deck);
  });
}

/**
 * The other person's name per conversation, from what this device knows (its conversations and
 * matches): "Próximos entrenos" says with whom (issue #34), offline too.
 */
export async function readPartnerNames(db: LocalDb): Promise<Record<string, string>> {
  return db.transaction('r', db.conversations, db.matches, async () => {
    const names: Record<string, string> = {};
    for (const match of await db.matches.toArray()) {
      if (match.otherUser.name) names[match.conversationId] = match.otherUser.name;
    }
    for (const conversation of await db.conversations.toArray()) {
      if (conversation.otherUser.name) names[conversation.conversationId] = conversation.otherUser.name;
    }
    return names;
  });
}

/** The last known deck, or null when this device never loaded one. */
export async function readDeck(db: LocalDb): Promise<PublicProfile[] | null> {
  return db.transaction('r', db.deckProfiles, db.meta, async () => {
    if (!(await db.meta.get(SAVED_AT.deck))) return null;
    return withoutPosition(await db.deckProfiles.toArray());
  });
}

/** A profile swiped (or blocked) leaves the saved deck. */
export async function removeDeckProfile(db: LocalDb, userId: string): Promise<void> {
  await db.deckProfiles.delete(userId);
}

/** The own profile, or null when the user has none yet (the wizard). */
export async function saveOwnProfile(db: LocalDb, profile: OwnProfile | null): Promise<void> {
  await db.transaction('rw', db.ownProfile, db.meta, async () => {
    await db.ownProfile.clear();
    if (profile) await db.ownProfile.put(plain(profile));
    await markSaved(db, SAVED_AT.ownProfile);
  });
}

/** The last known own profile: `undefined` when never loaded here, `null` when there is none. */
export async function readOwnProfile(db: LocalDb, userId: string): Promise<OwnProfile | null | undefined> {
  return db.transaction('r', db.ownProfile, db.meta, async () => {
    if (!(await db.meta.get(SAVED_AT.ownProfile))) return undefined;
    return (await db.ownProfile.get(userId)) ?? null;
  });
}

const toNotificationRow = (notification: Notification): StoredNotification => ({
  ...plain(notification),
  id: notification._id,
});

/**
 * The first page of a filter as the server sent it: replaces what was known of that filter
 * (everything for `all`, that type otherwise), so a notification deleted elsewhere goes too.
 */
export async function saveNotificationPage(
  db: LocalDb,
  type: Notification['type'] | 'all',
  notifications: readonly Notification[],
): Promise<void> {
  await db.transaction('rw', db.notifications, db.meta, async () => {
    if (type === 'all') await db.notifications.clear();
    else await db.notifications.filter((row) => row.type === type).delete();
    await db.notifications.bulkPut(notifications.map(toNotificationRow));
    await markSaved(db, SAVED_AT.notifications);
  });
}

/** Notifications known one by one (a further page, a live one, a changed read state). */
export async function putNotifications(db: LocalDb, notifications: readonly Notification[]): Promise<void> {
  if (notifications.length > 0) await db.notifications.bulkPut(notifications.map(toNotificationRow));
}

export async function deleteNotification(db: LocalDb, id: string): Promise<void> {
  await db.notifications.delete(id);
}

export async function markAllNotificationsRead(db: LocalDb): Promise<void> {
  await db.notifications.toCollection().modify({ isRead: true });
}

/** The last known notifications, newest first, or null when this device never loaded them. */
export async function readNotifications(db: LocalDb): Promise<Notification[] | null> {
  return db.transaction('r', db.notifications, db.meta, async () => {
    if (!(await db.meta.get(SAVED_AT.notifications))) return null;
    const rows = await db.notifications.orderBy('createdAt').reverse().toArray();
    return rows.map(({ id: _id, ...notification }) => notification);
  });
}

// ---- quedadas -----------------------------------------------------------------------------------

/**
 * Server copies of quedadas: each replaces the pending row of its proposal (same clientId) and
 * any older copy; a copy older than the stored one, or not newer than a pending change, is skipped.
 */
export async function upsertQuedadas(db: LocalDb, list: readonly Quedada[]): Promise<void> {
  await db.transaction('rw', db.quedadas, async () => {
    for (const quedada of list) {
      await db.quedadas.delete(quedada.clientId);
      const stored = await db.quedadas.get(quedada._id);
      if (
        stored &&
        (stored.version > quedada.version || (stored.sync === 'pending' && stored.version === quedada.version))
      ) {
        continue;
      }
      await db.quedadas.put({ ...quedada, key: quedada._id, sync: 'synced' });
    }
  });
}

/** A conversation's quedadas on the device, newest first. */
export async function readQuedadas(db: LocalDb, conversationId: string): Promise<StoredQuedada[]> {
  const rows = await db.quedadas.where('conversationId').equals(conversationId).toArray();
  return rows.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Every quedada on the device (the upcoming list and the pair lines read it). */
export async function readAllQuedadas(db: LocalDb): Promise<StoredQuedada[]> {
  return db.quedadas.orderBy('startsAt').toArray();
}

// ---- outbox ---------------------------------------------------------------------------------------

/** Whether an item of `kind` still waits in `scope` (a read mark needs no second copy). */
export async function hasPendingOutboxItem(
  db: LocalDb,
  scope: string,
  kind: OutboxKind,
  matches: (item: OutboxItem) => boolean = () => true,
): Promise<boolean> {
  const count = await db.outbox
    .where('[scope+id]')
    .between([scope, Dexie.minKey], [scope, Dexie.maxKey])
    .filter((item) => item.kind === kind && item.status === 'pending' && matches(item))
    .count();
  return count > 0;
}

/** The payloads of the items of `kind` still waiting, oldest first (to show them over a server answer). */
export async function pendingOutboxPayloads(db: LocalDb, kind: OutboxKind): Promise<Array<Record<string, unknown>>> {
  const items = await db.outbox.where('kind').equals(kind).sortBy('id');
  return items.flatMap((item) => (item.status === 'pending' && item.payload ? [item.payload] : []));
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
