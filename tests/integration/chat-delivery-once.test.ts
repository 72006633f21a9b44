// @setup embedded
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryRepository } from '../../src/server/features/chat/delivery-repository.ts';
import { createSwipeRepository } from '../../src/server/features/swipes/swipe-repository.ts';
import { createMatchedPair, eventually, type MatchedPair, recordEvents } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi } from '../helpers/discovery-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * A message's notification exactly once (docs/decisions/0035, 0041): the recipient's
 * `notified_seq` cursor is moved past the message by the very statement that stores the
 * notification, so the cursor is the idempotency key — while the message is above it the
 * notification is owed, once the cursor passed it nothing more is written. (Before 0035 the
 * notification committed first and the record went in a second statement: a kill in between, or
 * two drains on one message, notified twice.)
 */
describe('a message notification is written once per message above the cursor', () => {
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
  /** Messages still owed to their recipient: above the recipient's `notified_seq`. */
  const pendingCount = async () =>
    Number(
      (
        await rows<{ n: number }>(sql`select count(*)::int as n from messages m
          join conversation_participants p on p.conversation_id = m.conversation_id and p.user_id = m.receiver_id
          where m.seq > p.notified_seq`)
      )[0]?.n,
    );
  /** The state a crash right after the acks leaves: the last `count` messages to b still owed. */
  const owe = (count: number) =>
    app.database.db.execute(sql`update conversation_participants p set notified_seq = c.last_seq - ${count}
      from conversations c where c.id = p.conversation_id and p.conversation_id = ${pair.conversationId}::uuid
        and p.user_id = ${pair.b.userId}::uuid`);

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

  it('sends notify the recipient once each, and leave nothing owed', async () => {
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

  it('two drains holding the same message (a node swept a dead one) write its notification once', async () => {
    const [message] = await rows<{ id: string }>(
      sql`select id from messages where conversation_id = ${pair.conversationId}::uuid order by seq desc limit 1`,
    );
    // The state a crash right after the ack leaves: the message stored, its notification owed.
    await owe(1);
    expect(await pendingCount()).toBe(1);
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

  it('a notification whose statement fails keeps its message owed for the next drain', async () => {
    const [message] = await rows<{ id: string }>(
      sql`select id from messages where conversation_id = ${pair.conversationId}::uuid order by seq desc limit 1`,
    );
    await owe(1);
    const deliveries = createDeliveryRepository(app.database.db);
    // An injected fault inside the statement, once the cursor moved: as with a process killed
    // mid-statement, nothing of it commits — neither the cursor nor the notification.
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
      // Three messages left owed at once (a crash right after their acks), then a fourth sent:
      // the drain it starts takes them together.
      await owe(3);
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

  it('a drain batch costs a read and the notifications, whatever it holds, and inserts no member row', async () => {
    const others = await Promise.all([
      createMatchedPair(api, { names: ['Carla', 'Diego'] }),
      createMatchedPair(api, { names: ['Elena', 'Fran'] }),
    ]);
    const pool = (app.database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
    const query = pool.query;
    const seen: string[] = [];
    pool.query = function (this: unknown, ...args: unknown[]) {
      const config = args[0] as string | { name?: string; text?: string };
      seen.push(typeof config === 'string' ? config : (config.name ?? config.text ?? ''));
      return query.apply(this, args);
    };
    try {
      await Promise.all(
        [pair, ...others].map((one, index) =>
          api.post(
            '/messages/messages',
            { conversationId: one.conversationId, receiverId: one.b.userId, text: 'hola', clientId: `cost-${index}` },
            one.a.token,
          ),
        ),
      );
      await eventually(async () => (await pendingCount()) === 0);
      await app.chat.whenDelivered();
    } finally {
      pool.query = query;
    }
    const claims = seen.filter((text) => text === 'chat_drain_claim').length;
    const notifications = seen.filter((text) => /notification_owed_chat_notified_seq/.test(text)).length;
    expect(claims).toBeGreaterThanOrEqual(1);
    expect(notifications).toBe(claims);
    // Every owed message was notified: no cursor is left to move by a third statement.
    expect(seen.filter((text) => text === 'chat_drain_complete')).toEqual([]);
    expect(seen.filter((text) => /insert into conversation_participants/i.test(text))).toEqual([]);
  });

  it('a match the chat never heard of (a crash after the swipe) has its member rows: its messages are notified', async () => {
    const [gala, hugo] = await Promise.all([api.userWithProfile({}, 'Gala'), api.userWithProfile({}, 'Hugo')]);
    const sessionOf = async (userId: string) =>
      (await rows<{ id: string }>(sql`select id from sessions where user_id = ${userId}::uuid limit 1`))[0]
        ?.id as string;
    // The swipes straight through the repository: no match event reaches the chat, as when the
    // process dies between the swipe's commit and the chat's handler.
    const swipes = createSwipeRepository(app.database.db);
    const like = async (from: string, to: string) =>
      swipes.record({
        swiperId: from,
        sessionId: await sessionOf(from),
        targetId: to,
        action: 'like',
        clientId: undefined,
        now: new Date(),
      });
    await like(gala.userId, hugo.userId);
    const made = await like(hugo.userId, gala.userId);
    const conversationId = made.status === 'recorded' ? made.match?.conversationId : undefined;
    expect(conversationId).toBeDefined();
    const members = await rows<{ user_id: string; notified_seq: number }>(
      sql`select user_id, notified_seq from conversation_participants where conversation_id = ${conversationId}::uuid`,
    );
    expect(members.map((member) => member.user_id).sort()).toEqual([gala.userId, hugo.userId].sort());
    const sent = await api.post(
      '/messages/messages',
      { conversationId, receiverId: hugo.userId, text: 'hola Hugo', clientId: 'no-event-1' },
      gala.token,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    await eventually(async () => (await pendingCount()) === 0);
    await app.chat.whenDelivered();
    expect(
      await rows<{ body: string }>(
        sql`select body from notifications where user_id = ${hugo.userId}::uuid and collapse_key = ${`conversation:${conversationId}`}`,
      ),
    ).toHaveLength(1);
  });
});
