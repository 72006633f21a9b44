import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage, ConversationSummary, GroupSummary, SyncResponse } from '#shared/chat/chat-schemas';
import { type LocalDb, openLocalDb, readMessages, readSavedGroups } from './local-db.ts';
import { applySyncPage, SYNC_CURSOR_KEY, SyncService } from './sync.ts';

let db: LocalDb;
let counter = 0;
afterEach(async () => {
  db.close();
  await db.delete();
});

const conversation = (id: string): ConversationSummary => ({
  conversationId: id,
  otherUser: { userId: 'b', name: 'Marcos', photo: null },
  lastMessage: null,
  updatedAt: '2026-01-01T10:00:00.000Z',
  isPinned: false,
  isMuted: false,
  archived: false,
  swipeType: 'like',
  unreadCount: 0,
  status: 'active',
});

const message = (seq: number, conversationId = 'c1'): ChatMessage => ({
  _id: `m${seq}`,
  conversationId,
  sender_id: 'b',
  senderId: 'b',
  receiverId: 'a',
  text: `mensaje ${seq}`,
  timestamp: new Date(Date.UTC(2026, 0, 1, 10, seq)).toISOString(),
  read: false,
  status: 'sent',
  seq,
  clientId: `client-${seq}`,
  senderName: 'Marcos',
  senderPhoto: null,
});

const page = (cursor: string, hasMore: boolean, rest: Partial<SyncResponse> = {}): SyncResponse => ({
  success: true,
  cursor,
  hasMore,
  conversations: [],
  removedConversationIds: [],
  messages: [],
  groups: [],
  removedGroupIds: [],
  ...rest,
});

describe('sync', () => {
  it("marks our own messages read and delivered up to the other member's cursors (decision 0041)", async () => {
    counter += 1;
    db = openLocalDb(`sync-${counter}`);
    const mine = (seq: number): ChatMessage => ({
      ...message(seq),
      _id: `own${seq}`,
      sender_id: 'a',
      senderId: 'a',
      receiverId: 'b',
      clientId: `own-${seq}`,
    });
    await applySyncPage(
      db,
      page('10', false, { conversations: [conversation('c1')], messages: [mine(1), message(2), mine(3), mine(4)] }),
    );
    await applySyncPage(
      db,
      page('11', false, { conversations: [{ ...conversation('c1'), readSeq: 3, deliveredSeq: 4 }] }),
    );
    const stored = await readMessages(db, 'c1');
    expect(stored.map((m) => [m._id, m.status, m.read])).toEqual([
      ['own1', 'read', true],
      ['m2', 'sent', false],
      ['own3', 'read', true],
      ['own4', 'delivered', false],
    ]);
    // Never back: an older cursor changes nothing.
    await applySyncPage(
      db,
      page('12', false, { conversations: [{ ...conversation('c1'), readSeq: 1, deliveredSeq: 1 }] }),
    );
    expect((await readMessages(db, 'c1')).map((m) => m.status)).toEqual(['read', 'sent', 'read', 'delivered']);
  });

  it('pages from the saved cursor until hasMore is false and saves each cursor', async () => {
    counter += 1;
    db = openLocalDb(`sync-${counter}`);
    await db.meta.put({ key: SYNC_CURSOR_KEY, value: '5' });
    const fetchPage = vi
      .fn<(since: string) => Promise<SyncResponse>>()
      .mockResolvedValueOnce(
        page('8', true, { conversations: [conversation('c1')], messages: [message(1), message(2)] }),
      )
      .mockResolvedValueOnce(page('9', false, { messages: [message(2), message(3)] }));
    const sync = new SyncService({ db: () => db, fetchPage });
    await sync.run();
    expect(fetchPage.mock.calls.map(([since]) => since)).toEqual(['5', '8']);
    expect((await db.meta.get(SYNC_CURSOR_KEY))?.value).toBe('9');
    expect((await readMessages(db, 'c1')).map((row) => row.seq)).toEqual([1, 2, 3]);
    expect(sync.getSnapshot().status).toBe('idle');
  });

  it('keeps the last applied cursor when a page fails, and resumes from it', async () => {
    counter += 1;
    db = openLocalDb(`sync-${counter}`);
    const fetchPage = vi
      .fn<(since: string) => Promise<SyncResponse>>()
      .mockResolvedValueOnce(page('3', true, { messages: [message(1)] }))
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(page('4', false, { messages: [message(2)] }));
    const sync = new SyncService({ db: () => db, fetchPage });
    await sync.run();
    expect(sync.getSnapshot().status).toBe('error');
    expect((await db.meta.get(SYNC_CURSOR_KEY))?.value).toBe('3');
    await sync.run();
    expect(fetchPage.mock.calls.map(([since]) => since)).toEqual(['0', '3', '3']);
    expect((await readMessages(db, 'c1')).map((row) => row.seq)).toEqual([1, 2]);
  });

  it('drops removed conversations and their messages', async () => {
    counter += 1;
    db = openLocalDb(`sync-${counter}`);
    const fetchPage = vi
      .fn<(since: string) => Promise<SyncResponse>>()
      .mockResolvedValueOnce(page('1', false, { conversations: [conversation('c1')], messages: [message(1)] }))
      .mockResolvedValueOnce(page('2', false, { removedConversationIds: ['c1'] }));
    const sync = new SyncService({ db: () => db, fetchPage });
    await sync.run();
    await sync.run();
    expect(await db.conversations.count()).toBe(0);
    expect(await readMessages(db, 'c1')).toEqual([]);
  });

  it("keeps the groups' copy and messages; a group one is out of leaves with its messages", async () => {
    counter += 1;
    db = openLocalDb(`sync-${counter}`);
    const group = (id: string, updatedAt: string, title = 'Pierna'): GroupSummary => ({
      conversationId: id,
      kind: 'group',
      title,
      ownerId: 'a',
      status: 'active',
      isMuted: false,
      unreadCount: 1,
      lastSeq: 1,
      updatedAt,
      lastMessage: null,
      members: [],
    });
    const inGroup = (seq: number, conversationId: string): ChatMessage => ({
      ...message(seq, conversationId),
      receiverId: null,
    });
    await applySyncPage(
      db,
      page('1', false, {
        groups: [group('g1', '2026-01-01T10:00:00.000Z'), group('g2', '2026-01-01T11:00:00.000Z')],
        messages: [inGroup(1, 'g1'), inGroup(2, 'g2')],
      }),
    );
    expect((await readSavedGroups(db))?.map((item) => item.conversationId)).toEqual(['g2', 'g1']);
    expect((await readMessages(db, 'g1')).map((row) => row.text)).toEqual(['mensaje 1']);
    // A later page: g1 changed (now the newest), g2 left.
    await applySyncPage(
      db,
      page('2', false, {
        groups: [group('g1', '2026-01-01T12:00:00.000Z', 'Pierna y glúteo')],
        removedGroupIds: ['g2'],
      }),
    );
    expect((await readSavedGroups(db))?.map((item) => [item.conversationId, item.title])).toEqual([
      ['g1', 'Pierna y glúteo'],
    ]);
    expect(await readMessages(db, 'g2')).toEqual([]);
    expect(await readMessages(db, 'g1')).toHaveLength(1);
  });
});
