// @setup scaled — the chat across two nodes through the Redis adapter
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '#shared/chat/chat-schemas';
import type {
  Notification,
  NotificationRemovedEvent,
  UnreadCountUpdatedEvent,
} from '#shared/notifications/notification-schemas';
import { createMatchedPair, emitWithAck, nextEventMatching, recordEvents } from '../helpers/chat-api.ts';
import { createDiscoveryApi } from '../helpers/discovery-api.ts';
import { connectSocket, nextEvent, resendUntil } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock } from '../helpers/test-clock.ts';

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

/** The chat on two nodes sharing PostgreSQL and Redis (QUALITY 16). */
describe.runIf(isScaled)('chat across two nodes', () => {
  const clock = createTestClock();
  let nodeA: TestApp;
  let nodeB: TestApp;

  beforeAll(async () => {
    nodeA = await startTestApp({}, { dependencies: { clock } });
    nodeB = await startTestApp(
      {
        databaseUrl: nodeA.config.databaseUrl,
        tokenSecret: nodeA.config.tokenSecret,
        redisKeyPrefix: nodeA.config.redisKeyPrefix,
      },
      { dependencies: { clock } },
    );
  });
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
  });

  it('a message, its receipts and typing sent through one node reach sockets on the other', async () => {
    const pair = await createMatchedPair(createDiscoveryApi(nodeA));
    const sender = await connectSocket(nodeA, { token: pair.a.token });
    const recipient = await connectSocket(nodeB, { token: pair.b.token });
    const senderOtherTab = await connectSocket(nodeB, { token: pair.a.token });
    // A socket that asked for the spec's alias names (docs/decisions/0013), on the other node.
    const recipientAliases = io(nodeB.url, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      auth: { token: pair.b.token, eventAliases: true },
    });
    await new Promise((resolve) => recipientAliases.once('connect', () => resolve(undefined)));
    const aliasEvents = recordEvents(recipientAliases);
    try {
      const received = nextEvent<ChatMessage>(recipient, 'newMessage');
      const receivedAsAlias = nextEvent<ChatMessage>(recipientAliases, 'message');
      const echoed = nextEvent<ChatMessage>(senderOtherTab, 'newMessage');
      const ack = await emitWithAck<{ ok: boolean; data: ChatMessage }>(sender, 'sendMessage', {
        conversationId: pair.conversationId,
        text: 'De un nodo a otro',
        clientId: 'multi-node-1',
      });
      expect(ack).toMatchObject({ ok: true, data: { seq: 1 } });
      expect(await received).toEqual(ack.data);
      expect(await receivedAsAlias).toEqual(ack.data);
      expect(await echoed).toEqual(ack.data);

      const read = nextEvent(sender, 'messagesRead');
      await emitWithAck(recipient, 'markMessagesRead', {
        conversationId: pair.conversationId,
        messageIds: [ack.data._id],
      });
      expect(await read).toMatchObject({ messageIds: [ack.data._id], status: 'read' });

      const typing = resendUntil(nextEvent(sender, 'userTyping'), () =>
        recipient.emit('typing', { conversationId: pair.conversationId, isTyping: true }),
      );
      expect(await typing).toEqual({ userId: pair.b.userId, conversationId: pair.conversationId, isTyping: true });
      const aliasTyping = resendUntil(nextEvent(recipientAliases, 'typing'), () =>
        sender.emit('typing', { conversationId: pair.conversationId, isTyping: true }),
      );
      expect(await aliasTyping).toEqual({ userId: pair.a.userId, conversationId: pair.conversationId, isTyping: true });
      expect(aliasEvents.map((event) => event.name)).not.toContain('newMessage');
      expect(aliasEvents.map((event) => event.name)).not.toContain('userTyping');

      // On screen on node B: a send through node A creates no notification for it.
      await recipient.timeout(2000).emitWithAck('presence:visible');
      await emitWithAck(recipient, 'joinConversation', { conversationId: pair.conversationId });
      // The barrier: a later message from Carla in another conversation, which must notify;
      // notifications are made in message order (decision 0039), so one owed by 'la ves' comes first.
      const api = createDiscoveryApi(nodeA);
      const carla = await createMatchedPair(api, { names: ['Carla', 'Bruno'], b: pair.b });
      const events = recordEvents(recipient);
      const seen = nextEvent(recipient, 'newMessage');
      await emitWithAck(sender, 'sendMessage', { conversationId: pair.conversationId, text: 'la ves' });
      await seen;
      const fromCarla = nextEventMatching<{ title: string }>(
        recipient,
        'notification',
        (notification) => notification.title === 'Nuevo mensaje de Carla',
      );
      const barrier = await api.post(
        '/messages/messages',
        { conversationId: carla.conversationId, receiverId: pair.b.userId, text: '¿Entrenamos?' },
        carla.a.token,
      );
      expect(barrier.status).toBe(201);
      await fromCarla;
      const messageNotices = events.filter(
        (event) => event.name === 'notification' && (event.payload as { type: string }).type === 'message',
      );
      expect(messageNotices.map((event) => (event.payload as { title: string }).title)).toEqual([
        'Nuevo mensaje de Carla',
      ]);
    } finally {
      for (const socket of [sender, recipient, senderOtherTab, recipientAliases]) socket.close();
    }
  });

  it("a superlike undone on one node takes its notification off the target's open list on the other", async () => {
    const apiA = createDiscoveryApi(nodeA);
    const [swiper, target] = [await apiA.userWithProfile({}, 'Tania'), await apiA.userWithProfile({}, 'Ulises')];
    const onB = await connectSocket(nodeB, { token: target.token });
    // Every count the target is sent, in order: the superlike's own count may arrive after its
    // notification, so the one that matters is the last.
    const counts: UnreadCountUpdatedEvent[] = [];
    onB.on('unreadCountUpdated', (event: UnreadCountUpdatedEvent) => counts.push(event));
    try {
      const notified = nextEvent<Notification>(onB, 'notification');
      const superlike = { target_user_id: target.userId, action: 'superlike', clientId: 'multi-node-superlike' };
      expect((await apiA.post(`/swipes/users/${swiper.userId}/swipe`, superlike, swiper.token)).status).toBe(200);
      const { _id } = await notified;
      const removed = nextEvent<NotificationRemovedEvent>(onB, 'notificationRemoved');
      const undo = { target_user_id: target.userId, swipeClientId: 'multi-node-superlike' };
      expect((await apiA.post(`/swipes/users/${swiper.userId}/undo`, undo, swiper.token)).body).toEqual({
        success: true,
        undone: true,
      });
      expect(await removed).toEqual({ _id });
      const left = (await apiA.get('/notifications/unread-count', target.token)).body.count;
      expect(left).toBe(0);
      await expect
        .poll(() => counts.filter((event) => event.kind === 'notifications').at(-1))
        .toEqual({
          kind: 'notifications',
          count: 0,
        });
    } finally {
      onB.close();
    }
  });

  it('an unmatch, a block or a logout on one node refuses the very next write on the other', async () => {
    const apiA = createDiscoveryApi(nodeA);
    const apiB = createDiscoveryApi(nodeB);
    const [unmatched, blocked, loggedOut] = [
      await createMatchedPair(apiA, { names: ['Nora', 'Oscar'] }),
      await createMatchedPair(apiA, { names: ['Paula', 'Quique'] }),
      await createMatchedPair(apiA, { names: ['Rosa', 'Sergio'] }),
    ];
    const sockets = await Promise.all(
      [unmatched.a, blocked.b].map((user) => connectSocket(nodeB, { token: user.token })),
    );
    const [unmatchedSocket, blockedSocket] = sockets as [Socket, Socket];
    const send = (socket: Socket, conversationId: string, text: string) =>
      emitWithAck<{ ok: boolean; status?: number }>(socket, 'sendMessage', { conversationId, text });
    try {
      // Node B has every session and conversation cached: each sends once.
      expect(await send(unmatchedSocket, unmatched.conversationId, 'antes')).toMatchObject({ ok: true });
      expect(await send(blockedSocket, blocked.conversationId, 'antes')).toMatchObject({ ok: true });
      const rest = { conversationId: loggedOut.conversationId, receiverId: loggedOut.b.userId, text: 'antes' };
      expect((await apiB.post('/messages/messages', rest, loggedOut.a.token)).status).toBe(201);

      // On node A; then at once, with no wait for the bus, the next write on node B.
      const ended = await apiA.post(
        `/messages/conversations/${unmatched.conversationId}/unmatch`,
        {},
        unmatched.b.token,
      );
      expect(ended.status).toBe(200);
      expect(await send(unmatchedSocket, unmatched.conversationId, 'después')).toMatchObject({
        ok: false,
        status: 403,
      });

      const block = await apiA.post('/safety/blocks', { userId: blocked.b.userId, reason: 'other' }, blocked.a.token);
      expect(block.status).toBeLessThan(300);
      expect(await send(blockedSocket, blocked.conversationId, 'después')).toMatchObject({ ok: false, status: 403 });

      expect((await apiA.post('/auth/logout', {}, loggedOut.a.token)).status).toBe(200);
      expect((await apiB.post('/messages/messages', { ...rest, text: 'después' }, loggedOut.a.token)).status).toBe(401);
      const swipe = await apiB.post(
        `/swipes/users/${loggedOut.a.userId}/swipe`,
        { target_user_id: unmatched.b.userId, action: 'dislike' },
        loggedOut.a.token,
      );
      expect(swipe.status).toBe(401);
    } finally {
      for (const socket of sockets) socket.close();
    }
  });
});
