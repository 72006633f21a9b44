// @setup embedded
/**
 * The chat's event names and volatile typing (spec 001 §7, docs/decisions/0013), over real
 * socket.io-client connections: one packet per socket under one name (canonical by default, the
 * spec's alias when the socket asked for it), typing relayed volatile and still received every time.
 */
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '#shared/chat/chat-schemas';
import type { SocketHandshakeAuth, TypingEvent } from '#shared/chat/socket-events';
import { createMatchedPair, emitWithAck, nextEventMatching, recordEvents } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { connectSocket, nextEvent, resendUntil, roundTrip } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, SECOND } from '../helpers/test-clock.ts';

const CANONICAL = ['newMessage', 'userTyping', 'conversationUpdated'] as const;
const ALIASES = ['message', 'typing', 'conversationsUpdated'] as const;

describe('chat events: aliases and volatile typing (docs/decisions/0013)', () => {
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
  /** A socket that asks for the spec's alias names at connect. */
  const connectWithAliases = async (user: TestUser) => {
    const auth: SocketHandshakeAuth = { token: user.token, eventAliases: true };
    const socket = io(app.url, { path: '/socket.io', transports: ['websocket'], reconnection: false, auth });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  };
  const names = (events: { name: string }[]) => new Set(events.map((event) => event.name));

  it('sends each socket one name per event: the canonical one, or the alias it asked for', async () => {
    const pair = await createMatchedPair(api);
    const [a1, aAlias, b1, bAlias] = [
      await connect(pair.a),
      await connectWithAliases(pair.a),
      await connect(pair.b),
      await connectWithAliases(pair.b),
    ];
    const [b1Events, bAliasEvents, aAliasEvents] = [recordEvents(b1), recordEvents(bAlias), recordEvents(aAlias)];

    const canonicalMessage = nextEvent<ChatMessage>(b1, 'newMessage');
    const aliasMessage = nextEvent<ChatMessage>(bAlias, 'message');
    const echoed = nextEvent<ChatMessage>(aAlias, 'message');
    const canonicalUpdate = nextEvent(b1, 'conversationUpdated');
    const aliasUpdate = nextEvent(bAlias, 'conversationsUpdated');
    const ack = await emitWithAck<{ ok: true; data: ChatMessage }>(a1, 'sendMessage', {
      conversationId: pair.conversationId,
      text: 'Mismo mensaje, dos nombres',
      clientId: 'alias-1',
    });
    expect(ack.ok).toBe(true);
    expect(await canonicalMessage).toEqual(ack.data);
    expect(await aliasMessage).toEqual(ack.data);
    expect(await echoed).toEqual(ack.data);
    const update = await canonicalUpdate;
    expect(update).toMatchObject({ conversationId: pair.conversationId, unreadCount: 1 });
    expect(await aliasUpdate).toEqual(update);

    // Right after the message events, so typing (volatile) is sent until both sockets hear it.
    let typingSends = 0;
    const [canonicalTyping, aliasTyping] = await resendUntil(
      Promise.all([nextEvent<TypingEvent>(b1, 'userTyping'), nextEvent<TypingEvent>(bAlias, 'typing')]),
      () => {
        typingSends += 1;
        a1.emit('typing', { conversationId: pair.conversationId, isTyping: true });
      },
    );
    const typing = { userId: pair.a.userId, conversationId: pair.conversationId, isTyping: true };
    expect(canonicalTyping).toEqual(typing);
    expect(aliasTyping).toEqual(typing);

    // Events without an alias reach both kinds of socket under their one name.
    const read = nextEvent(aAlias, 'messagesRead');
    await emitWithAck(b1, 'markMessagesRead', { conversationId: pair.conversationId, messageIds: [ack.data._id] });
    expect(await read).toMatchObject({ messageIds: [ack.data._id], status: 'read' });

    for (const socket of [b1, bAlias, aAlias]) await roundTrip(socket);
    for (const name of ALIASES) expect(names(b1Events), name).not.toContain(name);
    for (const name of CANONICAL) {
      expect(names(bAliasEvents), name).not.toContain(name);
      expect(names(aAliasEvents), name).not.toContain(name);
    }
    // Exactly one packet of each per socket, and one typing packet at most per send.
    for (const [events, name] of [
      [b1Events, 'newMessage'],
      [bAliasEvents, 'message'],
    ] as const) {
      expect(
        events.filter((event) => event.name === name),
        name,
      ).toHaveLength(1);
    }
    for (const [events, name] of [
      [b1Events, 'userTyping'],
      [bAliasEvents, 'typing'],
    ] as const) {
      const received = events.filter((event) => event.name === name).length;
      expect(received, name).toBeGreaterThanOrEqual(1);
      expect(received, name).toBeLessThanOrEqual(typingSends);
    }
  });

  it('relays typing volatile, and only typing', async () => {
    const pair = await createMatchedPair(api);
    const [a1, b1] = [await connect(pair.a), await connect(pair.b)];
    const adapter = app.realtime.io.of('/').adapter;
    const original = adapter.broadcast;
    const sent: { event: unknown; volatile: boolean }[] = [];
    adapter.broadcast = function (this: typeof adapter, packet, options) {
      sent.push({ event: packet.data?.[0], volatile: options.flags?.volatile === true });
      return original.call(this, packet, options);
    };
    try {
      const typing = nextEvent(b1, 'userTyping');
      a1.emit('typing', { conversationId: pair.conversationId, isTyping: true });
      await typing;
      const received = nextEvent(b1, 'newMessage');
      await emitWithAck(a1, 'sendMessage', { conversationId: pair.conversationId, text: 'no volátil' });
      await received;
    } finally {
      adapter.broadcast = original;
    }
    // One broadcast under each name: the canonical to the user's sockets, the alias to those that
    // asked — but none asked here, which one node knows from its own rooms (docs/decisions/0039);
    // with the Redis adapter another node's socket may have, so the alias still goes out.
    const isTyping = (entry: { event: unknown }) => entry.event === 'userTyping' || entry.event === 'typing';
    expect(sent.filter(isTyping)).toEqual([
      { event: 'userTyping', volatile: true },
      ...(app.realtime.kind === 'memory' ? [] : [{ event: 'typing', volatile: true }]),
    ]);
    const others = sent.filter((entry) => !isTyping(entry));
    expect(others.map((entry) => entry.event)).toEqual(expect.arrayContaining(['newMessage', 'conversationUpdated']));
    expect(others.filter((entry) => entry.volatile)).toEqual([]);
    if (app.realtime.kind === 'memory') expect(others.map((entry) => entry.event)).not.toContain('message');
  });

  it('gets every typing change through to both kinds of socket, round after round', async () => {
    const pair = await createMatchedPair(api);
    const [a1, b1, bAlias] = [await connect(pair.a), await connect(pair.b), await connectWithAliases(pair.b)];
    const rounds = 20;
    for (let round = 0; round < rounds; round++) {
      const isTyping = round % 2 === 0;
      const matches = (event: TypingEvent) => event.isTyping === isTyping;
      const heard = [
        nextEventMatching<TypingEvent>(b1, 'userTyping', matches),
        nextEventMatching<TypingEvent>(bAlias, 'typing', matches),
      ];
      a1.emit('typing', { conversationId: pair.conversationId, isTyping });
      await Promise.all(heard);
    }
    // The sender's own sockets hear none of it. Sent from a new socket of the sender: the 20 rounds
    // used up a1's typing budget (20 per socket per 10 s), and over budget typing is dropped unrelayed.
    const a2 = await connect(pair.a);
    const [a1Events, a2Events] = [recordEvents(a1), recordEvents(a2)];
    // Barrier: b1 hears this typing, so the server has relayed it; then the sender's connections are flushed.
    await resendUntil(nextEvent(b1, 'userTyping'), () =>
      a2.emit('typing', { conversationId: pair.conversationId, isTyping: true }),
    );
    for (const socket of [a1, a2]) await roundTrip(socket);
    expect(a1Events).toEqual([]);
    expect(a2Events).toEqual([]);
  });
});
