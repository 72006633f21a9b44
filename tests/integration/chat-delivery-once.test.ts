import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryRepository } from '../../src/server/features/chat/delivery-repository.ts';
import { createMatchedPair, eventually, type MatchedPair, recordEvents } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi } from '../helpers/discovery-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * A message's notification exactly once (docs/decisions/0035): the `chat_deliveries` row is deleted
 * by the very statement that stores the notification, so the row is the idempotency key — while it
 * exists the notification is owed, once it is gone nothing more is written. (Before, the
 * notification committed first and the row went in a second statement: a kill in between, or two
 * drains on one row, notified twice.)
 */
describe('a message notification is written once per delivery row', () => {
  let app: TestApp;
  let api: DiscoveryApi;
  let pair: MatchedPair;

  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await app.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const conversationNotification = async (userId: string) =>
    rows<{ collapse_count: number; body: string }>(
      sql`select collapse_count, body from notifications
        where user_id = ${userId}::uuid and collapse_key = ${`conversation:${pair.conversationId}`}`,
    );
  const pendingCount = async () =>
    Number((await rows<{ n: number }>(sql`select count(*)::int as n from chat_deliveries`))[0]?.n);

  /** The third message's notice, as the drain hands it over. */
  const owedNotice = (messageId: string) => ({
    recipientId: pair.b.userId,
    messageId,
    conversationId: pair.conversationId,
    senderName: 'Ana',
    preview: 'tres',
  });

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
    pair = await createMatchedPair(api, { names: ['Ana', 'Bruno'] });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('sends notify the recipient once each, and leave no delivery row', async () => {
    for (const text of ['uno', 'dos', 'tres']) {
      const sent = await api.post(
        '/messages/messages',
        { conversationId: pair.conversationId, receiverId: pair.b.userId, text, clientId: `once-${text}` },
        pair.a.token,
      );
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      await eventually(async () => (await pendingCount()) === 0);
      await app.chat.whenDelivered();
    }
    expect(await conversationNotification(pair.b.userId)).toEqual([
      { collapse_count: 3, body: '3 mensajes nuevos de Ana' },
    ]);
    expect(await pendingCount()).toBe(0);
  });

  it('two drains holding the same row (a lease taken over) write its notification once', async () => {
    const [message] = await rows<{ id: string }>(
      sql`select id from messages where conversation_id = ${pair.conversationId}::uuid order by seq desc limit 1`,
    );
    // The state a crash right after the ack leaves: the message stored, its notification owed.
    await app.database.db.execute(sql`insert into chat_deliveries (message_id) values (${message?.id}::uuid)`);
    const deliveries = createDeliveryRepository(app.database.db);
    const notify = () =>
      app.notifications.notifications.notifyMessagesOnce([owedNotice(message?.id as string)], deliveries.owed);
    const outcomes = await Promise.all([notify(), notify(), notify()]);
    expect(outcomes.flat()).toHaveLength(1);
    expect(await conversationNotification(pair.b.userId)).toEqual([
      { collapse_count: 4, body: '4 mensajes nuevos de Ana' },
    ]);
    expect(await pendingCount()).toBe(0);
    // Gone: a later drain (a restart) owes nothing more.
    expect(await notify()).toEqual([]);
    expect((await conversationNotification(pair.b.userId))[0]?.collapse_count).toBe(4);
  });

  it('a notification whose statement fails keeps its row for the next drain', async () => {
    const [message] = await rows<{ id: string }>(
      sql`select id from messages where conversation_id = ${pair.conversationId}::uuid order by seq desc limit 1`,
    );
    await app.database.db.execute(sql`insert into chat_deliveries (message_id) values (${message?.id}::uuid)`);
    const deliveries = createDeliveryRepository(app.database.db);
    // An injected fault inside the statement, once the row is deleted: as with a process killed
    // mid-statement, nothing of it commits — neither the delete nor the notification.
    const owed = deliveries.owed;
    const failing = {
      name: `${owed.name}_failing`,
      text: `${owed.text}, 1 / (select count(*) - count(*) from users)`,
    };
    await expect(
      app.notifications.notifications.notifyMessagesOnce([owedNotice(message?.id as string)], failing),
    ).rejects.toThrow();
    expect(await pendingCount()).toBe(1);
    expect((await conversationNotification(pair.b.userId))[0]?.collapse_count).toBe(4);
  });

  it("a drain's batch writes one notification per conversation, counting every message it owes", async () => {
    const socket = await connectSocket(app, { token: pair.b.token });
    try {
      const events = recordEvents(socket);
      const [before] = await conversationNotification(pair.b.userId);
      const earlier = await rows<{ id: string }>(
        sql`select id from messages where conversation_id = ${pair.conversationId}::uuid order by seq limit 3`,
      );
      // Three messages left owed at once (a crash right after their acks; the last one's row is
      // still there from the test above), then a fourth sent: the drain it starts takes them
      // together (a drain on the lease timer in between would take the three).
      await app.database.db.execute(sql`insert into chat_deliveries (message_id)
        select unnest(${`{${earlier.map((row) => row.id).join(',')}}`}::uuid[]) on conflict do nothing`);
      const sent = await api.post(
        '/messages/messages',
        { conversationId: pair.conversationId, receiverId: pair.b.userId, text: 'cuatro', clientId: 'batch-cuatro' },
        pair.a.token,
      );
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      await eventually(async () => (await pendingCount()) === 0);
      await app.chat.whenDelivered();
      const total = (before?.collapse_count ?? 0) + 4;
      expect(await conversationNotification(pair.b.userId)).toEqual([
        { collapse_count: total, body: `${total} mensajes nuevos de Ana` },
      ]);
      const isLast = (event: { name: string; payload: unknown }) =>
        event.name === 'notification' && (event.payload as { body: string }).body === `${total} mensajes nuevos de Ana`;
      await eventually(() => events.some(isLast));
      const notified = events.filter((event) => event.name === 'notification');
      // One per batch (one message at a time gave four).
      expect(notified.length).toBeGreaterThanOrEqual(1);
      expect(notified.length).toBeLessThanOrEqual(2);
      expect((notified.at(-1)?.payload as { body?: string } | undefined)?.body).toBe(`${total} mensajes nuevos de Ana`);
    } finally {
      socket.disconnect();
    }
  });
});
