import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '#shared/chat/chat-schemas';
import { applyReceiptToDb, type LocalDb, openLocalDb, readMessages, upsertMessages } from './local-db.ts';

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
