// @setup embedded
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ConversationSummary, SyncResponse } from '#shared/chat/chat-schemas';
import { CHAT_MESSAGES } from '#shared/chat/chat-messages';
import {
  createMatchedPair,
  emitWithAck,
  eventually,
  type MatchedPair,
  nextEventMatching,
  recordEvents,
} from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { connectSocket, nextEvent, roundTrip } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, SECOND } from '../helpers/test-clock.ts';

describe('chat (spec 001 §3, §4, §5, §7)', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createDiscoveryApi(app);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
    // A fresh rate-limit window for every test.
    clock.advance(11 * SECOND);
  });
  afterAll(async () => {
    await app?.close();
  });

  const connect = async (user: TestUser) => {
    const socket = await connectSocket(app, { token: user.token });
    sockets.push(socket);
    return socket;
  };
  const send = (user: TestUser, body: Record<string, unknown>) => api.post('/messages/messages', body, user.token);
  const sendText = (pair: MatchedPair, from: 'a' | 'b', text: string, clientId?: string) => {
    const sender = pair[from];
    const receiver = from === 'a' ? pair.b : pair.a;
    return send(sender, {
      conversationId: pair.conversationId,
      receiverId: receiver.userId,
      text,
      ...(clientId ? { clientId } : {}),
    });
  };
  const patch = (user: TestUser, path: string, body?: unknown) =>
    api.call('PATCH', path, { token: user.token, ...(body === undefined ? {} : { body }) });
  const messagesOf = async (user: TestUser, conversationId: string, query = '') => {
    const response = await api.get(`/messages/conversations/${conversationId}/messages${query}`, user.token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as unknown as { messages: ChatMessage[]; hasMore: boolean };
  };
  const conversationsOf = async (user: TestUser, query = '') => {
    const response = await api.get(`/messages/conversations${query}`, user.token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as unknown as {
      conversations: ConversationSummary[];
      pagination: { page: number; limit: number; total: number; hasMore: boolean };
    };
  };
  const unreadOf = async (user: TestUser) =>
    (await api.get('/messages/messages/unread/count', user.token)).body.unreadCount as number;
  const countMessages = async (conversationId: string) => {
    const result = await app.database.db.execute(
      sql`select count(*)::int as n from messages where conversation_id = ${conversationId}::uuid`,
    );
    return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n);
  };

  it('sends over HTTP: 201 with the stored message, to every socket of the recipient and the sender’s others', async () => {
    const pair = await createMatchedPair(api);
    const [b1, b2, a2] = [await connect(pair.b), await connect(pair.b), await connect(pair.a)];
    const received = [nextEvent<ChatMessage>(b1, 'newMessage'), nextEvent<ChatMessage>(b2, 'newMessage')];
    const echoed = nextEvent<ChatMessage>(a2, 'newMessage');
    const updated = nextEvent<Record<string, unknown>>(b1, 'conversationUpdated');
    const unread = nextEventMatching<Record<string, unknown>>(b1, 'unreadCountUpdated', (e) => e.kind === 'messages');

    const response = await sendText(pair, 'a', '  ¿Entrenamos mañana a las 7?  ');
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const data = response.body.data as ChatMessage;
    expect(data).toMatchObject({
      conversationId: pair.conversationId,
      senderId: pair.a.userId,
      sender_id: pair.a.userId,
      receiverId: pair.b.userId,
      text: '¿Entrenamos mañana a las 7?',
      timestamp: clock.now().toISOString(),
      status: 'sent',
      read: false,
      seq: 1,
      clientId: null,
      senderName: 'Ana',
    });
    expect(data._id).toMatch(/^[0-9a-f-]{36}$/);
    for (const message of await Promise.all(received)) expect(message).toEqual(data);
    expect(await echoed).toEqual(data);
    expect(await updated).toMatchObject({
      conversationId: pair.conversationId,
      lastMessage: { text: data.text, senderId: pair.a.userId, read: false },
      unreadCount: 1,
    });
    expect(await unread).toEqual({
      kind: 'messages',
      unreadCount: 1,
      conversationId: pair.conversationId,
      conversationUnreadCount: 1,
    });
  });

  it('sends over the socket: the ack carries id and seq; the sending socket gets no echo', async () => {
    const pair = await createMatchedPair(api);
    const a1 = await connect(pair.a);
    const a1Events = recordEvents(a1);
    const b1 = await connect(pair.b);
    const received = nextEvent<ChatMessage>(b1, 'newMessage');
    const ack = await emitWithAck<{ ok: boolean; data: ChatMessage }>(a1, 'sendMessage', {
      conversationId: pair.conversationId,
      text: 'Hola',
      clientId: 'outbox-socket-1',
    });
    expect(ack.ok).toBe(true);
    expect(ack.data).toMatchObject({ seq: 1, clientId: 'outbox-socket-1', text: 'Hola', status: 'sent' });
    expect(await received).toEqual(ack.data);
    await roundTrip(a1);
    expect(a1Events.filter((event) => event.name === 'newMessage')).toEqual([]);
  });

  it('treats clientId as an idempotency key: one row, one emit, the original answered', async () => {
    const pair = await createMatchedPair(api);
    const b1 = await connect(pair.b);
    const events = recordEvents(b1);
    const first = await sendText(pair, 'a', 'Uno', 'client-abc');
    expect(first.status).toBe(201);
    const again = await sendText(pair, 'a', 'Uno (reenviado)', 'client-abc');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    const a1 = await connect(pair.a);
    const overSocket = await emitWithAck<{ ok: boolean; data: ChatMessage }>(a1, 'sendMessage', {
      conversationId: pair.conversationId,
      text: 'Uno',
      clientId: 'client-abc',
    });
    expect(overSocket.data).toEqual(first.body.data);
    // The first send's announcement came; the replay's would follow its ack at once: flush b1's connection.
    await eventually(() => events.some((event) => event.name === 'newMessage'));
    await roundTrip(b1);
    expect(events.filter((event) => event.name === 'newMessage')).toHaveLength(1);
    expect(await countMessages(pair.conversationId)).toBe(1);
  });

  it('refuses blank and too-long text, wrong receivers and malformed bodies, with Spanish messages', async () => {
    const pair = await createMatchedPair(api);
    expect((await sendText(pair, 'a', '   ')).body).toMatchObject({
      success: false,
      message: CHAT_MESSAGES.emptyMessage,
    });
    const tooLong = await sendText(pair, 'a', 'x'.repeat(2001));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe(CHAT_MESSAGES.messageTooLong);
    expect((await sendText(pair, 'a', 'y'.repeat(2000))).status).toBe(201);
    const wrongReceiver = await send(pair.a, {
      conversationId: pair.conversationId,
      receiverId: pair.a.userId,
      text: 'hola',
    });
    expect(wrongReceiver.status).toBe(400);
    for (const body of [{}, { conversationId: 5 }, { ...{ conversationId: pair.conversationId }, extra: 1 }, []]) {
      const response = await send(pair.a, body as Record<string, unknown>);
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
    }
    const a1 = await connect(pair.a);
    const blank = await emitWithAck(a1, 'sendMessage', { conversationId: pair.conversationId, text: ' ' });
    expect(blank).toMatchObject({ ok: false, message: CHAT_MESSAGES.emptyMessage, status: 400 });
    for (const payload of [null, 42, 'texto', { __proto__: { text: 'x' } }, { conversationId: 'nope', text: 'x' }]) {
      expect(await emitWithAck(a1, 'sendMessage', payload)).toMatchObject({ ok: false, status: 400 });
    }
    // No acknowledgement asked and a bad payload: dropped, and the connection still works.
    a1.emit('sendMessage', { bad: true });
    a1.emit('markMessagesRead', 'x');
    a1.emit('typing', null);
    expect(await emitWithAck(a1, 'joinConversation', { conversationId: pair.conversationId })).toEqual({ ok: true });
    expect(await countMessages(pair.conversationId)).toBe(1);
  });

  it('gives each conversation one gap-free sequence under concurrent sends from both sides', async () => {
    const pair = await createMatchedPair(api);
    const [a1, b1] = [await connect(pair.a), await connect(pair.b)];
    const sends = Array.from({ length: 24 }, (_, index) => {
      const socket = index % 2 === 0 ? a1 : b1;
      return index % 3 === 0
        ? sendText(pair, index % 2 === 0 ? 'a' : 'b', `http ${index}`).then((r) => (r.body.data as ChatMessage).seq)
        : emitWithAck<{ data: ChatMessage }>(socket, 'sendMessage', {
            conversationId: pair.conversationId,
            text: `socket ${index}`,
          }).then((ack) => ack.data.seq);
    });
    const seqs = await Promise.all(sends);
    expect([...seqs].sort((x, y) => x - y)).toEqual(Array.from({ length: 24 }, (_, index) => index + 1));
    const { messages } = await messagesOf(pair.a, pair.conversationId);
    expect(messages.map((message) => message.seq)).toEqual(Array.from({ length: 24 }, (_, index) => index + 1));
  });

  it('pages messages: page 1 is the newest 50, oldest to newest; page 2 and ?before= go back', async () => {
    const pair = await createMatchedPair(api);
    for (let index = 1; index <= 60; index += 1) {
      if (index % 25 === 0) clock.advance(11 * SECOND);
      expect((await sendText(pair, index % 2 ? 'a' : 'b', `m${index}`)).status).toBe(201);
    }
    const page1 = await messagesOf(pair.b, pair.conversationId);
    expect(page1.hasMore).toBe(true);
    expect(page1.messages.map((message) => message.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 11));
    expect(page1.messages[0]).toMatchObject({ text: 'm11', senderName: 'Ana' });
    expect(page1.messages[1]).toMatchObject({ text: 'm12', senderName: 'Bruno' });
    const page2 = await messagesOf(pair.b, pair.conversationId, '?page=2');
    expect(page2).toMatchObject({ hasMore: false });
    expect(page2.messages.map((message) => message.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    const keyset = await messagesOf(pair.b, pair.conversationId, '?before=11&limit=5');
    expect(keyset.messages.map((message) => message.seq)).toEqual([6, 7, 8, 9, 10]);
    expect(keyset.hasMore).toBe(true);
    expect(
      (await api.get(`/messages/conversations/${pair.conversationId}/messages?limit=0`, pair.b.token)).status,
    ).toBe(400);
  });

  it('limits sends per user (429 with Retry-After), sockets included', async () => {
    const pair = await createMatchedPair(api);
    for (let index = 0; index < 30; index += 1) expect((await sendText(pair, 'a', `r${index}`)).status).toBe(201);
    const limited = await sendText(pair, 'a', 'uno más');
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(CHAT_MESSAGES.sendRateLimited);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const a1 = await connect(pair.a);
    const overSocket = await emitWithAck<{ retryAfterS?: number }>(a1, 'sendMessage', {
      conversationId: pair.conversationId,
      text: 'por socket',
    });
    expect(overSocket).toMatchObject({ ok: false, status: 429 });
    // The socket's answer says when to send again, as the HTTP one's Retry-After does.
    expect(overSocket.retryAfterS).toBeGreaterThan(0);
    // The other user is not limited.
    expect((await sendText(pair, 'b', 'yo sí')).status).toBe(201);
  });

  it('marks a conversation read up to the message the reader was shown, never what came after (decision 0040)', async () => {
    const pair = await createMatchedPair(api);
    const shown = (await sendText(pair, 'a', 'visto')).body.data as ChatMessage;
    const later = (await sendText(pair, 'a', 'llegó después')).body.data as ChatMessage;
    const path = `/messages/conversations/${pair.conversationId}/read`;

    // A mark made when only the first message was on screen, replayed after the second arrived.
    const marked = await patch(pair.b, path, { upToMessageId: shown._id });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    expect(marked.body).toEqual({ success: true, unreadCount: 1 });
    const statuses = (await messagesOf(pair.a, pair.conversationId)).messages.map((m) => [m.text, m.read]);
    expect(statuses).toEqual([
      ['visto', true],
      ['llegó después', false],
    ]);
    // An id that is not this conversation's marks nothing; a malformed one is a Spanish 400.
    const other = await createMatchedPair(api, { a: pair.b, names: ['', 'Carmen'] });
    expect((await patch(pair.b, path, { upToMessageId: other.conversationId })).body).toEqual({
      success: true,
      unreadCount: 1,
    });
    for (const body of [{ upToMessageId: 'no-es-un-id' }, { upToMessageId: later._id, extra: true }]) {
      const refused = await patch(pair.b, path, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body).toMatchObject({
        success: false,
        message: CHAT_MESSAGES.invalidUpToMessage,
      });
    }
    // The spec's call, without a body: the whole conversation.
    expect((await patch(pair.b, path)).body).toEqual({ success: true, unreadCount: 0 });
    expect(await unreadOf(pair.b)).toBe(0);
  });

  it('delivers receipts to the sender only and counts unread per conversation and in total', async () => {
    const pair = await createMatchedPair(api);
    const other = await createMatchedPair(api, { a: pair.b, names: ['', 'Carmen'] });
    const [a1, b1] = [await connect(pair.a), await connect(pair.b)];
    const bEvents = recordEvents(b1);
    const sent: ChatMessage[] = [];
    for (const text of ['uno', 'dos', 'tres']) sent.push((await sendText(pair, 'a', text)).body.data as ChatMessage);
    await sendText(other, 'b', 'hola Bruno');
    expect(await unreadOf(pair.b)).toBe(4);
    const list = await conversationsOf(pair.b);
    expect(list.conversations.find((c) => c.conversationId === pair.conversationId)?.unreadCount).toBe(3);

    const delivered = nextEvent<Record<string, unknown>>(a1, 'messagesDelivered');
    const deliveredAck = await emitWithAck(b1, 'markAsDelivered', { conversationId: pair.conversationId });
    expect(deliveredAck).toMatchObject({ ok: true });
    expect(await delivered).toEqual({
      conversationId: pair.conversationId,
      messageIds: sent.map((message) => message._id),
      status: 'delivered',
    });
    // messageReceived for one already delivered: nothing new.
    expect(
      await emitWithAck(b1, 'messageReceived', { conversationId: pair.conversationId, messageId: sent[0]?._id }),
    ).toEqual({ ok: true, messageIds: [] });
    expect((await messagesOf(pair.a, pair.conversationId)).messages.map((m) => m.status)).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ]);

    const read = nextEvent<Record<string, unknown>>(a1, 'messagesRead');
    // The drain's notifications count (kind 'notifications') may land at any time after the sends.
    const counted = nextEventMatching<Record<string, unknown>>(b1, 'unreadCountUpdated', (e) => e.kind === 'messages');
    const readAck = await emitWithAck(b1, 'markMessagesRead', {
      conversationId: pair.conversationId,
      messageIds: [sent[0]?._id, sent[1]?._id],
    });
    expect(readAck).toEqual({ ok: true, messageIds: [sent[0]?._id, sent[1]?._id], unreadCount: 1, totalUnread: 2 });
    expect(await read).toEqual({
      conversationId: pair.conversationId,
      messageIds: [sent[0]?._id, sent[1]?._id],
      unreadCount: 1,
      status: 'read',
    });
    expect(await counted).toMatchObject({ kind: 'messages', unreadCount: 2, conversationUnreadCount: 1 });

    // The spec's other form: the whole conversation.
    const rest = await emitWithAck(b1, 'markMessagesRead', {
      conversationId: pair.conversationId,
      unreadCount: 0,
      updateType: 'markRead',
    });
    expect(rest).toMatchObject({ ok: true, messageIds: [sent[2]?._id], unreadCount: 0, totalUnread: 1 });
    const marked = await patch(pair.b, `/messages/conversations/${other.conversationId}/read`);
    expect(marked.body).toEqual({ success: true, unreadCount: 0 });
    expect(await unreadOf(pair.b)).toBe(0);
    expect((await messagesOf(pair.a, pair.conversationId)).messages.every((m) => m.status === 'read' && m.read)).toBe(
      true,
    );
    // The reader never hears its own receipts.
    expect(bEvents.filter((event) => event.name === 'messagesRead' || event.name === 'messagesDelivered')).toEqual([]);
    const [summary] = (await conversationsOf(pair.a)).conversations.filter(
      (c) => c.conversationId === pair.conversationId,
    );
    expect(summary?.lastMessage).toMatchObject({ text: 'tres', read: true, senderId: pair.a.userId });
  });

  it('relays typing to the other participant only, and stores nothing', async () => {
    const pair = await createMatchedPair(api);
    const [a1, a2, b1] = [await connect(pair.a), await connect(pair.a), await connect(pair.b)];
    const a2Events = recordEvents(a2);
    const b1Events = recordEvents(b1);
    const userTyping = nextEvent(b1, 'userTyping');
    a1.emit('typing', { conversationId: pair.conversationId, isTyping: true });
    const expected = { userId: pair.a.userId, conversationId: pair.conversationId, isTyping: true };
    expect(await userTyping).toEqual(expected);
    await roundTrip(a2);
    await roundTrip(b1);
    expect(a2Events.filter((event) => event.name === 'typing' || event.name === 'userTyping')).toEqual([]);
    // One name per socket (docs/decisions/0013): the alias `typing` only to sockets that ask for it.
    expect(b1Events.map((event) => event.name)).toEqual(['userTyping']);
    expect(await countMessages(pair.conversationId)).toBe(0);
  });

  it('orders the list: pinned, then superlike, then the most recent', async () => {
    const bruno = await api.userWithProfile({}, 'Bruno');
    const withAna = await createMatchedPair(api, { b: bruno, names: ['Ana', ''] });
    clock.advance(SECOND);
    const withDora = await createMatchedPair(api, { b: bruno, names: ['Dora', ''], isSuperlike: true });
    clock.advance(SECOND);
    const withEva = await createMatchedPair(api, { b: bruno, names: ['Eva', ''] });
    clock.advance(SECOND);
    const withFran = await createMatchedPair(api, { b: bruno, names: ['Fran', ''] });
    clock.advance(SECOND);
    await sendText(withAna, 'a', 'la más reciente');
    const pinned = await patch(bruno, `/messages/conversations/${withEva.conversationId}/pin`, { isPinned: true });
    expect(pinned.status).toBe(200);
    expect(pinned.body.conversation).toMatchObject({ isPinned: true, conversationId: withEva.conversationId });
    const list = await conversationsOf(bruno);
    expect(list.conversations.map((c) => c.otherUser.name)).toEqual(['Eva', 'Dora', 'Ana', 'Fran']);
    expect(list.conversations[1]).toMatchObject({ swipeType: 'superlike', otherUser: { userId: withDora.a.userId } });
    expect(list.pagination).toEqual({ page: 1, limit: 20, total: 4, hasMore: false });
    const paged = await conversationsOf(bruno, '?page=2&limit=3');
    expect(paged.conversations.map((c) => c.otherUser.name)).toEqual(['Fran']);
    expect(paged.pagination).toEqual({ page: 2, limit: 3, total: 4, hasMore: false });
    expect((await conversationsOf(bruno, '?limit=3')).pagination.hasMore).toBe(true);
    expect(withFran.conversationId).toBeTruthy();
  });

  it('pins, mutes, archives and marks "Súper entreno" only where a superlike started it', async () => {
    const pair = await createMatchedPair(api);
    const superPair = await createMatchedPair(api, { isSuperlike: true, names: ['Sara', 'Teo'] });
    const base = `/messages/conversations/${pair.conversationId}`;
    expect((await patch(pair.a, `${base}/mute`, { isMuted: true })).body.conversation).toMatchObject({ isMuted: true });
    expect((await patch(pair.a, `${base}/mute`, { isMuted: 'sí' })).status).toBe(400);
    expect((await patch(pair.a, `${base}/pin`, {})).status).toBe(400);

    const archived = await patch(pair.a, `${base}/archive`, {});
    expect(archived.body.conversation).toMatchObject({ archived: true });
    expect((await conversationsOf(pair.a)).conversations.map((c) => c.conversationId)).not.toContain(
      pair.conversationId,
    );
    expect((await conversationsOf(pair.a, '?archived=true')).conversations.map((c) => c.conversationId)).toEqual([
      pair.conversationId,
    ]);
    // The other user's flags are their own.
    expect((await conversationsOf(pair.b)).conversations[0]).toMatchObject({ archived: false, isMuted: false });
    expect((await patch(pair.a, `${base}/archive`, { archived: false })).body.conversation).toMatchObject({
      archived: false,
    });

    const refused = await patch(pair.a, `${base}/swipetype`, { swipeType: 'superlike' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'Solo puedes marcar como súper entreno las conversaciones que iniciaste con un súper like',
    );
    const superBase = `/messages/conversations/${superPair.conversationId}`;
    const toLike = await patch(superPair.a, `${superBase}/swipetype`, { swipeType: 'like' });
    expect(toLike.body.conversation).toMatchObject({ swipeType: 'like' });
    expect((await conversationsOf(superPair.b)).conversations[0]?.swipeType).toBe('superlike');
    const back = await patch(superPair.a, `${superBase}/swipetype`, { swipeType: 'superlike' });
    expect(back.body.conversation).toMatchObject({ swipeType: 'superlike' });
    expect((await patch(superPair.a, `${superBase}/swipetype`, { swipeType: 'mega' })).status).toBe(400);
  });

  it('unmatch ends the conversation for both: events, no more sends, gone from the list of who ended it', async () => {
    const pair = await createMatchedPair(api);
    await sendText(pair, 'a', 'hola');
    const [a1, b1] = [await connect(pair.a), await connect(pair.b)];
    const isEnded = (event: { status?: string }) => event.status === 'unmatched';
    const toA = nextEventMatching(a1, 'conversationUpdated', isEnded);
    const toB = nextEventMatching(b1, 'conversationUpdated', isEnded);
    const ended = await api.post(`/messages/conversations/${pair.conversationId}/unmatch`, {}, pair.a.token);
    expect(ended.status).toBe(200);
    expect(ended.body.conversation).toMatchObject({ status: 'unmatched' });
    expect(await toA).toEqual({ conversationId: pair.conversationId, status: 'unmatched' });
    expect(await toB).toEqual({ conversationId: pair.conversationId, status: 'unmatched' });

    for (const from of ['a', 'b'] as const) {
      const refused = await sendText(pair, from, 'sigo aquí');
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(CHAT_MESSAGES.cannotSend);
    }
    expect(await emitWithAck(b1, 'sendMessage', { conversationId: pair.conversationId, text: 'x' })).toMatchObject({
      ok: false,
      status: 403,
      message: CHAT_MESSAGES.cannotSend,
    });
    expect((await conversationsOf(pair.a)).conversations).toEqual([]);
    expect((await conversationsOf(pair.b)).conversations[0]).toMatchObject({ status: 'unmatched' });
    expect(await unreadOf(pair.a)).toBe(0);
    // Ending it again changes nothing; the pair is not suggested again.
    expect((await api.post(`/messages/conversations/${pair.conversationId}/unmatch`, {}, pair.b.token)).status).toBe(
      200,
    );
    const deck = await api.get(`/profiles/${pair.a.userId}/recommended`, pair.a.token);
    const ids = ((deck.body.profiles ?? []) as { userId: string }[]).map((profile) => profile.userId);
    expect(ids).not.toContain(pair.b.userId);
  });

  it('syncs exactly what changed since a cursor: no gaps, no duplicates across pages', async () => {
    const pair = await createMatchedPair(api);
    const sync = async (user: TestUser, since: string, limit = 200) => {
      const response = await api.get(`/sync?since=${since}&limit=${limit}`, user.token);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body as unknown as SyncResponse;
    };
    const start = await sync(pair.b, '0');
    expect(start.conversations.map((c) => c.conversationId)).toEqual([pair.conversationId]);
    expect(start.messages).toEqual([]);

    const sent: ChatMessage[] = [];
    for (let index = 0; index < 5; index += 1) {
      sent.push((await sendText(pair, index % 2 ? 'b' : 'a', `s${index}`)).body.data as ChatMessage);
    }
    const afterSends = await sync(pair.b, start.cursor);
    expect(afterSends.messages.map((m) => m._id)).toEqual(sent.map((m) => m._id));
    expect(afterSends.conversations).toHaveLength(1);
    expect(afterSends.hasMore).toBe(false);
    expect((await sync(pair.b, afterSends.cursor)).messages).toEqual([]);

    // Receipts and flags are changes too.
    await patch(pair.b, `/messages/conversations/${pair.conversationId}/read`);
    const afterRead = await sync(pair.a, afterSends.cursor);
    expect(afterRead.messages.filter((m) => m.senderId === pair.a.userId).every((m) => m.status === 'read')).toBe(true);
    // Receipts travel as the other member's cursors (decision 0041): a's messages up to seq 5 are read.
    expect(afterRead.conversations).toMatchObject([
      { conversationId: pair.conversationId, readSeq: 5, deliveredSeq: 5 },
    ]);
    await patch(pair.a, `/messages/conversations/${pair.conversationId}/pin`, { isPinned: true });
    const pinned = await sync(pair.a, afterRead.cursor);
    expect(pinned.conversations).toMatchObject([{ conversationId: pair.conversationId, isPinned: true }]);
    expect(pinned.messages).toEqual([]);
    expect((await sync(pair.b, afterRead.cursor)).conversations).toEqual([]);

    // Small pages from the start: every message exactly once, in cursor order.
    const seen: string[] = [];
    let cursor = '0';
    for (let guard = 0; guard < 20; guard += 1) {
      const page = await sync(pair.a, cursor, 2);
      seen.push(...page.messages.map((m) => m._id), ...page.conversations.map((c) => c.conversationId));
      // Opaque to the client (decision 0041): a horizon, or `from.to.offset` while pages remain.
      expect(page.cursor).not.toBe(cursor);
      expect(page.hasMore).toBe(page.cursor.includes('.'));
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(new Set([pair.conversationId, ...sent.map((m) => m._id)]));

    // Unmatch: the one who ended it is told to drop it, the other sees it ended.
    const bCursor = (await sync(pair.b, '0', 500)).cursor;
    await api.post(`/messages/conversations/${pair.conversationId}/unmatch`, {}, pair.a.token);
    const ended = await sync(pair.a, cursor);
    expect(ended.removedConversationIds).toEqual([pair.conversationId]);
    expect(ended.conversations).toEqual([]);
    const endedForB = await sync(pair.b, bCursor);
    expect(endedForB.conversations).toMatchObject([{ conversationId: pair.conversationId, status: 'unmatched' }]);
    expect(endedForB.messages).toEqual([]);
    expect((await api.get('/sync?since=abc', pair.a.token)).status).toBe(400);
    expect((await api.get('/sync')).status).toBe(401);
  });

  it('syncs on several pages without skipping what changes between them (decision 0041)', async () => {
    const hub = await api.userWithProfile({}, 'Hugo');
    const pairs: MatchedPair[] = [];
    for (const name of ['Irene', 'Julia', 'Lola'])
      pairs.push(await createMatchedPair(api, { a: hub, names: ['', name] }));
    const sent: string[] = [];
    for (const pair of pairs) {
      for (const text of ['uno', 'dos']) sent.push(((await sendText(pair, 'b', text)).body.data as ChatMessage)._id);
    }
    const sync = async (since: string, limit: number) => {
      const response = await api.get(`/sync?since=${since}&limit=${limit}`, hub.token);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body as unknown as SyncResponse;
    };
    // Pages of 3 items: a conversation and its two messages each. A message sent into the first
    // conversation after its page was read comes on a later answer, never lost.
    const seenMessages = new Set<string>();
    const seenConversations: string[] = [];
    let cursor = '0';
    let late = '';
    for (let page = 0; page < 10; page += 1) {
      const answer = await sync(cursor, 3);
      for (const message of answer.messages) seenMessages.add(message._id);
      seenConversations.push(...answer.conversations.map((c) => c.conversationId));
      expect(answer.hasMore).toBe(answer.cursor.includes('.'));
      cursor = answer.cursor;
      if (page === 0) late = ((await sendText(pairs[0] as MatchedPair, 'b', 'tarde')).body.data as ChatMessage)._id;
      if (!answer.hasMore) break;
    }
    expect(seenConversations.length).toBeGreaterThanOrEqual(3);
    expect(new Set(seenConversations)).toEqual(new Set(pairs.map((pair) => pair.conversationId)));
    for (const id of sent) expect(seenMessages.has(id)).toBe(true);
    const after = await sync(cursor, 200);
    expect(seenMessages.has(late) || after.messages.some((message) => message._id === late)).toBe(true);
    expect(after.hasMore).toBe(false);
    // Unread counts on the summaries are derived from the read cursor.
    expect(after.conversations.find((c) => c.conversationId === pairs[0]?.conversationId)?.unreadCount).toBe(3);
  });

  it('notifies the recipient of a message unless muted or on screen, and both users of a match', async () => {
    const a = await api.userWithProfile({}, 'Nora');
    const b = await api.userWithProfile({}, 'Óscar');
    const [a1, b1] = [await connect(a), await connect(b)];
    const matchNotice = nextEvent<{ type: string; referenceId: string }>(a1, 'notification');
    const bMatchNotice = nextEvent<{ type: string }>(b1, 'notification');
    const created = nextEvent<ConversationSummary>(a1, 'conversationUpdated');
    const pair = await createMatchedPair(api, { a, b });
    expect(await matchNotice).toMatchObject({ type: 'match', referenceId: pair.conversationId });
    expect(await bMatchNotice).toMatchObject({ type: 'match' });
    expect(await created).toMatchObject({ conversationId: pair.conversationId, status: 'active', unreadCount: 0 });

    const messageNotice = nextEvent<{ type: string; title: string }>(b1, 'notification');
    await sendText(pair, 'a', 'primera');
    expect(await messageNotice).toMatchObject({ type: 'message', title: 'Nuevo mensaje de Nora' });

    // On screen: a visible client in the conversation's room.
    await b1.timeout(2000).emitWithAck('presence:visible');
    await emitWithAck(b1, 'joinConversation', { conversationId: pair.conversationId });
    const events = recordEvents(b1);
    // The barrier of each "no notification" check: a later message from Carla in another
    // conversation, which must notify. Notifications are made in message order (decision 0039),
    // so once Carla's arrives, one owed by the earlier message would have arrived before it.
    const carla = await createMatchedPair(api, { names: ['Carla', 'Óscar'], b });
    const notificationTitles = () =>
      events
        .filter((event) => event.name === 'notification' && (event.payload as { type: string }).type === 'message')
        .map((event) => (event.payload as { title: string }).title);
    const fromCarla = async (text: string) => {
      const heard = nextEventMatching<{ title: string }>(
        b1,
        'notification',
        (n) => n.title === 'Nuevo mensaje de Carla',
      );
      await sendText(carla, 'a', text);
      await heard;
    };
    events.length = 0;
    await sendText(pair, 'a', 'la estás viendo');
    await eventually(() => events.some((event) => event.name === 'newMessage'));
    await fromCarla('¿Entrenamos?');
    expect(notificationTitles()).toEqual(['Nuevo mensaje de Carla']);

    // Muted, and not on screen.
    await emitWithAck(b1, 'leaveConversation', { conversationId: pair.conversationId });
    await patch(b, `/messages/conversations/${pair.conversationId}/mute`, { isMuted: true });
    events.length = 0;
    await sendText(pair, 'a', 'silenciada');
    await eventually(() => events.some((event) => event.name === 'newMessage'));
    await fromCarla('¿Mañana?');
    expect(notificationTitles()).toEqual(['Nuevo mensaje de Carla']);
  });

  it('never answers bad chat input with a 5xx, over HTTP or the socket (fast-check)', async () => {
    const pair = await createMatchedPair(api);
    const valid = { conversationId: pair.conversationId, receiverId: pair.b.userId, text: 'hola' };
    const body = fc.oneof(
      fc.anything(),
      fc
        .record({
          key: fc.constantFrom(...Object.keys(valid), 'clientId', 'isPinned', '__proto__', 'constructor', 'extra'),
          value: fc.anything(),
        })
        .map(({ key, value }) => ({ ...valid, [key]: value })),
      fc.dictionary(fc.string(), fc.jsonValue()),
    );
    const paths = [
      ['POST', '/messages/messages'],
      ['PATCH', `/messages/conversations/${pair.conversationId}/pin`],
      ['PATCH', `/messages/conversations/${pair.conversationId}/archive`],
      ['PATCH', `/messages/conversations/${pair.conversationId}/swipetype`],
    ] as const;
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(...paths), async (value, [method, path]) => {
        clock.advance(11 * SECOND);
        const response = await api.call(method, path, {
          body: JSON.stringify(value ?? null) ?? 'null',
          token: pair.a.token,
        });
        expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
    const queries = fc.dictionary(fc.constantFrom('page', 'limit', 'before', 'archived', 'since', 'x'), fc.string());
    await fc.assert(
      fc.asyncProperty(
        queries,
        fc.constantFrom('/messages/conversations', `/messages/conversations/${pair.conversationId}/messages`, '/sync'),
        async (query, path) => {
          const response = await api.get(`${path}?${new URLSearchParams(query)}`, pair.a.token);
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 40 },
    );
    const a1 = await connect(pair.a);
    const events = [
      'joinConversation',
      'leaveConversation',
      'sendMessage',
      'messageReceived',
      'markAsDelivered',
      'markMessagesRead',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...events), body, async (event, value) => {
        clock.advance(11 * SECOND);
        const ack = await emitWithAck<{ ok: boolean; status?: number }>(a1, event, value);
        expect(ack.ok || (ack.status ?? 500) < 500, JSON.stringify(ack)).toBe(true);
      }),
      { numRuns: 60 },
    );
    expect(a1.connected).toBe(true);
  });

  it('a first send (the conversation not yet known to the node) is checked by its own statement', async () => {
    // A new match is forgotten by the membership cache, so this send has no membership in memory:
    // the statement itself refuses a receiver who is not the other user, and a foreign conversation.
    const pair = await createMatchedPair(api);
    const carla = await api.userWithProfile({}, 'Carla');
    const wrong = await send(pair.a, {
      conversationId: pair.conversationId,
      receiverId: carla.userId,
      text: 'a quien?',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(CHAT_MESSAGES.invalidReceiver);
    const other = await createMatchedPair(api);
    const foreign = await send(carla, { conversationId: other.conversationId, receiverId: other.b.userId, text: 'x' });
    expect(foreign.status).toBe(404);
    expect((await messagesOf(pair.a, pair.conversationId)).messages).toEqual([]);
    expect((await messagesOf(other.a, other.conversationId)).messages).toEqual([]);
    // Then the right one is stored, and the conversation is known from then on.
    expect((await sendText(pair, 'a', 'hola')).body).toMatchObject({ success: true, data: { seq: 1 } });
    const again = await send(pair.a, { conversationId: pair.conversationId, receiverId: carla.userId, text: 'otra' });
    expect(again.status).toBe(400);
  });

  it('authorization: a third user gets nothing from a conversation that is not theirs', async () => {
    const pair = await createMatchedPair(api);
    const carla = await api.userWithProfile({}, 'Carla');
    const first = (await sendText(pair, 'a', 'privado')).body.data as ChatMessage;
    const id = pair.conversationId;
    const calls: [string, string, unknown?][] = [
      ['GET', `/messages/conversations/${id}/messages`],
      ['PATCH', `/messages/conversations/${id}/pin`, { isPinned: true }],
      ['PATCH', `/messages/conversations/${id}/mute`, { isMuted: true }],
      ['PATCH', `/messages/conversations/${id}/archive`, {}],
      ['PATCH', `/messages/conversations/${id}/swipetype`, { swipeType: 'like' }],
      ['PATCH', `/messages/conversations/${id}/read`],
      ['POST', `/messages/conversations/${id}/unmatch`, {}],
      ['POST', '/messages/messages', { conversationId: id, receiverId: pair.b.userId, text: 'intrusa' }],
      ['POST', '/messages/messages', { conversationId: id, receiverId: carla.userId, text: 'intrusa' }],
    ];
    for (const [method, path, body] of calls) {
      const response = await api.call(method, path, { token: carla.token, ...(body === undefined ? {} : { body }) });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.message).toBe(CHAT_MESSAGES.conversationNotFound);
      const anonymous = await api.call(method, path, body === undefined ? {} : { body });
      expect(anonymous.status, `anonymous ${method} ${path}`).toBe(401);
    }
    // An unknown id answers exactly the same.
    const unknown = await api.get('/messages/conversations/00000000-0000-4000-8000-000000000000/messages', carla.token);
    expect(unknown.status).toBe(404);
    expect((await api.get('/messages/conversations/no-es-un-id/messages', carla.token)).status).toBe(404);
    expect((await conversationsOf(carla)).conversations).toEqual([]);
    const carlaSync = await api.get('/sync', carla.token);
    expect(carlaSync.body).toMatchObject({ conversations: [], messages: [] });

    const c1 = await connect(carla);
    const carlaEvents = recordEvents(c1);
    expect(await emitWithAck(c1, 'joinConversation', { conversationId: id })).toMatchObject({ ok: false, status: 404 });
    for (const [event, payload] of [
      ['sendMessage', { conversationId: id, text: 'intrusa' }],
      ['markAsDelivered', { conversationId: id }],
      ['messageReceived', { conversationId: id, messageId: first._id }],
      ['markMessagesRead', { conversationId: id, messageIds: [first._id] }],
      ['markMessagesRead', { conversationId: id, updateType: 'markRead' }],
    ] as const) {
      expect(await emitWithAck(c1, event, payload), event).toMatchObject({ ok: false, status: 404 });
    }
    const [a1, b1] = [await connect(pair.a), await connect(pair.b)];
    const aEvents = recordEvents(a1);
    const bEvents = recordEvents(b1);
    c1.emit('typing', { conversationId: id, isTyping: true });
    await emitWithAck(b1, 'joinConversation', { conversationId: id });
    await emitWithAck(a1, 'sendMessage', { conversationId: id, text: 'solo para Bruno' });
    a1.emit('typing', { conversationId: id, isTyping: true });
    await emitWithAck(b1, 'markAsDelivered', { conversationId: id });
    await emitWithAck(b1, 'markMessagesRead', { conversationId: id, updateType: 'markRead' });
    await eventually(() => aEvents.some((event) => event.name === 'messagesRead'));
    for (const socket of [c1, a1, b1]) await roundTrip(socket);
    expect(carlaEvents).toEqual([]);
    // Carla's typing went nowhere; her receipts changed nothing before Bruno's own.
    expect([...aEvents, ...bEvents].filter((e) => (e.payload as { userId?: string })?.userId === carla.userId)).toEqual(
      [],
    );
    expect(bEvents.some((event) => event.name === 'userTyping')).toBe(true);
    expect((await messagesOf(pair.a, id)).messages.map((m) => m.text)).toEqual(['privado', 'solo para Bruno']);
  });
});
