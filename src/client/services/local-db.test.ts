import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { proxy } from 'valtio';
import type { ChatMessage, ConversationSummary } from '#shared/chat/chat-schemas';
import type { MatchListItem } from '#shared/discovery/discovery-schemas';
import type { Notification } from '#shared/notifications/notification-schemas';
import type { OwnProfile, PublicProfile } from '#shared/profile/profile-views';
import {
  applyReceiptToDb,
  currentDb,
  dbFor,
  deleteNotification,
  type LocalDb,
  localDbName,
  markAllNotificationsRead,
  newestReceivedMessageId,
  openLocalDb,
  putNotifications,
  readDeck,
  readMatches,
  readMessages,
  readNotifications,
  readOwnProfile,
  removeDeckProfile,
  saveDeck,
  saveMatches,
  saveNotificationPage,
  saveOwnProfile,
  selectLocalDb,
  upsertConversations,
  upsertMessages,
  wipeLocalDb,
} from './local-db.ts';

let counter = 0;
let db: LocalDb;

function fresh(): LocalDb {
  counter += 1;
  db = openLocalDb(`test-user-${counter}`);
  return db;
}

afterEach(async () => {
  db?.close();
  await db?.delete();
});

function serverMessage(seq: number, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    _id: `m${seq}`,
    conversationId: 'c1',
    sender_id: 'a',
    senderId: 'a',
    receiverId: 'b',
    text: `hola ${seq}`,
    timestamp: new Date(Date.UTC(2026, 0, 1, 10, seq)).toISOString(),
    read: false,
    status: 'sent',
    seq,
    clientId: null,
    senderName: 'Lucía',
    senderPhoto: null,
    ...overrides,
  };
}

describe('local store: messages', () => {
  it('orders by seq whatever the arrival order, pending ones last', async () => {
    fresh();
    await db.messages.put({
      ...serverMessage(0),
      _id: 'local:p',
      key: 'p',
      clientId: 'p',
      seq: null,
      status: 'sending',
    });
    await upsertMessages(db, [serverMessage(3), serverMessage(1), serverMessage(2)]);
    const rows = await readMessages(db, 'c1');
    expect(rows.map((row) => row.seq)).toEqual([1, 2, 3, null]);
  });

  it('replaces a kept message with its hidden copy (a group member the reader blocked)', async () => {
    fresh();
    await upsertMessages(db, [serverMessage(1)]);
    await upsertMessages(db, [serverMessage(1, { text: '', isHidden: true })]);
    expect(await readMessages(db, 'c1')).toMatchObject([{ seq: 1, text: '', isHidden: true }]);
  });

  it('finds the newest message from the other person, past our own and our pending ones', async () => {
    fresh();
    const ours = { senderId: 'b', sender_id: 'b', receiverId: 'a' };
    expect(await newestReceivedMessageId(db, 'c1', 'b')).toBeUndefined();
    await upsertMessages(db, [
      serverMessage(2),
      serverMessage(1),
      serverMessage(3, ours),
      serverMessage(9, { conversationId: 'c2' }),
    ]);
    await db.messages.put({
      ...serverMessage(0, ours),
      _id: 'local:p',
      key: 'p',
      clientId: 'p',
      seq: null,
      status: 'sending',
    });
    expect(await newestReceivedMessageId(db, 'c1', 'b')).toBe('m2');
    expect(await newestReceivedMessageId(db, 'c1', 'a')).toBe('m3');
  });

  it('upserts by id: the same message twice is one row with the newer fields', async () => {
    fresh();
    await upsertMessages(db, [serverMessage(1)]);
    await upsertMessages(db, [serverMessage(1, { status: 'delivered' }), serverMessage(1)]);
    const rows = await readMessages(db, 'c1');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe('delivered');
  });

  it('dedupes by clientId: the server copy replaces the pending one, never a second row', async () => {
    fresh();
    await db.messages.put({
      ...serverMessage(0),
      _id: 'local:k1',
      key: 'k1',
      clientId: 'k1',
      seq: null,
      status: 'sending',
    });
    await upsertMessages(db, [serverMessage(7, { clientId: 'k1' })]);
    await upsertMessages(db, [serverMessage(7, { clientId: 'k1' })]);
    const rows = await readMessages(db, 'c1');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ _id: 'm7', seq: 7, status: 'sent' });
  });

  it('never moves a status back, and ignores empty texts', async () => {
    fresh();
    await upsertMessages(db, [serverMessage(1, { status: 'read', read: true })]);
    await upsertMessages(db, [serverMessage(1, { status: 'sent' }), serverMessage(2, { text: '  ' })]);
    const rows = await readMessages(db, 'c1');
    expect(rows.map((row) => row.status)).toEqual(['read']);
  });

  it('applies receipts to our own stored messages only', async () => {
    fresh();
    await upsertMessages(db, [serverMessage(1), serverMessage(2, { senderId: 'b', sender_id: 'b' })]);
    await applyReceiptToDb(db, { conversationId: 'c1', status: 'read' }, 'a');
    const rows = await readMessages(db, 'c1');
    expect(rows.map((row) => row.status)).toEqual(['read', 'sent']);
  });
});

// ---- the last known screens (QUALITY 19) --------------------------------------------------------

function match(n: number): MatchListItem {
  return {
    matchId: `m${n}`,
    conversationId: `c${n}`,
    timestamp: new Date(Date.UTC(2026, 0, n)).toISOString(),
    otherUser: {
      userId: `u${n}`,
      name: `Persona ${n}`,
      age: 30,
      photos: [],
      location: { city: 'Madrid' },
      compatibilityScore: 80,
      training: { goals: [] },
    },
    lastMessage: null,
    isRecent: true,
  };
}

function notice(id: string, patch: Partial<Notification> = {}): Notification {
  return {
    _id: id,
    type: 'system',
    priority: 'normal',
    title: `Aviso ${id}`,
    body: 'Texto',
    isRead: false,
    createdAt: '2026-01-01T09:00:00.000Z',
    referenceId: null,
    referenceType: null,
    ...patch,
  };
}

const profileOf = (n: number) => ({ id: `p${n}`, userId: `u${n}`, name: `Persona ${n}` }) as unknown as PublicProfile;

describe('local store: conversations', () => {
  it('stores conversations held in the screen state (valtio proxies), as the pin and mute toggles do', async () => {
    fresh();
    const state = proxy<{ conversations: ConversationSummary[] }>({
      conversations: [
        {
          conversationId: 'c1',
          otherUser: { userId: 'b', name: 'Marcos', photo: null },
          lastMessage: { text: 'hola', timestamp: '2026-01-01T10:00:00.000Z', senderId: 'b', read: false },
          updatedAt: '2026-01-01T10:00:00.000Z',
          isPinned: false,
          isMuted: false,
          archived: false,
          swipeType: 'superlike',
          unreadCount: 1,
          status: 'active',
        },
      ],
    });
    // A patched copy, as the list's optimistic toggles make it: its nested objects are still proxies.
    const held = state.conversations[0] as ConversationSummary;
    await upsertConversations(db, [{ ...held, isPinned: true }]);
    expect(await db.conversations.get('c1')).toMatchObject({ isPinned: true, otherUser: { name: 'Marcos' } });
  });
});

describe('local store: the last known screens', () => {
  it('keeps the matches in the server order, tells "never loaded" from "none", and replaces them', async () => {
    fresh();
    expect(await readMatches(db)).toBeNull();
    await saveMatches(db, []);
    expect(await readMatches(db)).toEqual([]);
    await saveMatches(db, [match(3), match(1), match(2)]);
    expect((await readMatches(db))?.map((item) => item.matchId)).toEqual(['m3', 'm1', 'm2']);
    expect((await readMatches(db))?.[0]).toEqual(match(3));
    await saveMatches(db, [match(2)]);
    expect((await readMatches(db))?.map((item) => item.matchId)).toEqual(['m2']);
  });

  it('keeps the deck in order and drops a swiped profile', async () => {
    fresh();
    expect(await readDeck(db)).toBeNull();
    await saveDeck(db, [profileOf(2), profileOf(1), profileOf(3)]);
    await removeDeckProfile(db, 'u1');
    expect((await readDeck(db))?.map((item) => item.userId)).toEqual(['u2', 'u3']);
    await saveDeck(db, [profileOf(4)]);
    expect((await readDeck(db))?.map((item) => item.userId)).toEqual(['u4']);
  });

  it('keeps the own profile, or that there is none', async () => {
    fresh();
    expect(await readOwnProfile(db, 'me')).toBeUndefined();
    await saveOwnProfile(db, null);
    expect(await readOwnProfile(db, 'me')).toBeNull();
    const profile = { userId: 'me', name: 'Lucía' } as unknown as OwnProfile;
    await saveOwnProfile(db, profile);
    expect(await readOwnProfile(db, 'me')).toEqual(profile);
  });

  it('keeps notifications newest first; a first page replaces only its filter', async () => {
    fresh();
    expect(await readNotifications(db)).toBeNull();
    await saveNotificationPage(db, 'all', [
      notice('a', { createdAt: '2026-01-01T09:00:00.000Z' }),
      notice('b', { type: 'match', createdAt: '2026-01-02T09:00:00.000Z' }),
      notice('c', { type: 'match', createdAt: '2026-01-03T09:00:00.000Z' }),
    ]);
    expect((await readNotifications(db))?.map((item) => item._id)).toEqual(['c', 'b', 'a']);
    expect((await readNotifications(db))?.[0]).toEqual(
      notice('c', { type: 'match', createdAt: '2026-01-03T09:00:00.000Z' }),
    );
    // "c" was deleted elsewhere: the next first page of matches no longer lists it.
    await saveNotificationPage(db, 'match', [notice('b', { type: 'match', createdAt: '2026-01-02T09:00:00.000Z' })]);
    expect((await readNotifications(db))?.map((item) => item._id)).toEqual(['b', 'a']);
    await putNotifications(db, [notice('d', { createdAt: '2026-01-04T09:00:00.000Z' })]);
    await deleteNotification(db, 'a');
    await markAllNotificationsRead(db);
    const rows = await readNotifications(db);
    expect(rows?.map((item) => [item._id, item.isRead])).toEqual([
      ['d', true],
      ['b', true],
    ]);
    await saveNotificationPage(db, 'all', []);
    expect(await readNotifications(db)).toEqual([]);
  });
});

describe('local store: one database per user', () => {
  it('stores only for the signed-in user and wipes everything at sign-out', async () => {
    const own = selectLocalDb('wipe-me');
    expect(dbFor('wipe-me')).toBe(own);
    expect(dbFor('someone-else')).toBeNull();
    await saveMatches(own, [match(1)]);
    await saveOwnProfile(own, { userId: 'wipe-me' } as unknown as OwnProfile);
    await wipeLocalDb();
    expect(currentDb()).toBeNull();
    expect(dbFor('wipe-me')).toBeNull();
    expect(await Dexie.exists(localDbName('wipe-me'))).toBe(false);
    // A new sign-in of the same user starts from nothing.
    const again = selectLocalDb('wipe-me');
    expect(await readMatches(again)).toBeNull();
    expect(await readOwnProfile(again, 'wipe-me')).toBeUndefined();
    await wipeLocalDb();
  });
});
