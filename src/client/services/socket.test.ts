import { describe, expect, it, vi } from 'vitest';
import {
  ConnectionService,
  JOIN_BATCH_SIZE,
  MAX_JOINED_ROOMS,
  SOCKET_RECONNECTION,
  type SocketAuthPayload,
  type SocketLike,
  SocketRequestError,
} from './socket.ts';

type Handler = (...args: unknown[]) => void;

/** A Socket.IO client stand-in: the test fires its events and reads what was emitted. */
class FakeSocket implements SocketLike {
  id = 'socket-1';
  connected = false;
  active = true;
  emitted: { event: string; args: unknown[] }[] = [];
  private handlers = new Map<string, Handler[]>();
  private managerHandlers = new Map<string, Handler[]>();
  private anyHandlers: ((event: string, ...args: unknown[]) => void)[] = [];
  ackWith: ((event: string, payload: unknown) => unknown) | null = null;
  /** True: acknowledgements wait in `pendingAcks` until the test answers them. */
  holdAcks = false;
  pendingAcks: { event: string; payload: unknown; answer: (result: unknown) => void }[] = [];
  volatileEmitted: { event: string; args: unknown[] }[] = [];
  volatile = {
    emit: (event: string, ...args: unknown[]) => {
      this.volatileEmitted.push({ event, args });
    },
  };
  constructor(readonly auth: (callback: (data: SocketAuthPayload) => void) => void) {}
  io = {
    on: (event: string, handler: Handler) => {
      this.managerHandlers.set(event, [...(this.managerHandlers.get(event) ?? []), handler]);
    },
  };
  on(event: string, handler: Handler) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
  }
  onAny(handler: (event: string, ...args: unknown[]) => void) {
    this.anyHandlers.push(handler);
  }
  emit(event: string, ...args: unknown[]) {
    this.emitted.push({ event, args });
  }
  timeout(_ms: number) {
    return {
      emit: (event: string, payload: unknown, ack: (error: unknown, result?: unknown) => void) => {
        this.emitted.push({ event, args: [payload] });
        if (this.holdAcks) this.pendingAcks.push({ event, payload, answer: (result) => ack(null, result) });
        else if (this.ackWith) ack(null, this.ackWith(event, payload));
        else ack(new Error('operation has timed out'));
      },
    };
  }
  connect() {}
  disconnect() {
    this.connected = false;
    this.active = false;
  }
  fire(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true;
    if (event === 'disconnect') this.connected = false;
    for (const handler of this.handlers.get(event) ?? []) handler(...args);
  }
  fireManager(event: string, ...args: unknown[]) {
    for (const handler of this.managerHandlers.get(event) ?? []) handler(...args);
  }
  fireServer(event: string, ...args: unknown[]) {
    for (const handler of this.anyHandlers) handler(event, ...args);
  }
  eventsNamed(name: string) {
    return this.emitted.filter((entry) => entry.event === name).map((entry) => entry.args[0]);
  }
}

/** Lets queued promise chains (the batches of joins) run. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${index}`);
const joinIds = (socket: FakeSocket) =>
  socket.eventsNamed('joinConversation').map((payload) => (payload as { conversationId: string }).conversationId);

function setup(options: { token?: string; visible?: boolean } = {}) {
  const sockets: FakeSocket[] = [];
  let token: string | undefined = options.token ?? 'token-a';
  const onTokenInvalidated = vi.fn();
  const onRefused = vi.fn();
  const service = new ConnectionService({
    createSocket: (auth) => {
      const socket = new FakeSocket(auth);
      sockets.push(socket);
      return socket;
    },
    readToken: () => token,
    isVisible: () => options.visible ?? true,
    onTokenInvalidated,
    onRefused,
  });
  return {
    service,
    sockets,
    onTokenInvalidated,
    onRefused,
    setToken: (next: string | undefined) => {
      token = next;
    },
  };
}

describe('reconnection (spec 001 §4, §9; decision 0048)', () => {
  it("never stops reconnecting, 1 to 5 s apart, instead of the other service's 5 retries", () => {
    expect(SOCKET_RECONNECTION).toMatchObject({
      reconnection: true,
      reconnectionAttempts: Number.POSITIVE_INFINITY,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
    });
  });
});

describe('ConnectionService status machine', () => {
  it('starts disconnected and goes connecting → connected → reconnecting → connected', async () => {
    const { service, sockets, onRefused } = setup();
    const seen: string[] = [];
    service.subscribe(() => seen.push(service.getSnapshot().status));
    expect(service.getSnapshot()).toEqual({ status: 'disconnected', reason: 'signed_out' });

    await service.open();
    expect(service.getSnapshot().status).toBe('connecting');
    const socket = sockets[0] as FakeSocket;
    socket.fire('connect');
    expect(service.getSnapshot()).toEqual({ status: 'connected', socketId: 'socket-1' });

    socket.fire('disconnect', 'transport close');
    expect(service.getSnapshot().status).toBe('reconnecting');
    socket.fireManager('reconnect_attempt', 3);
    expect(service.getSnapshot()).toEqual({ status: 'reconnecting', attempt: 3 });
    // A failed attempt the client retries (network) is no refusal: no session check for it.
    socket.fire('connect_error', new Error('xhr poll error'));
    expect(service.getSnapshot()).toEqual({ status: 'reconnecting', attempt: 3 });
    socket.fire('connect');
    expect(seen).toEqual(['connecting', 'connected', 'reconnecting', 'reconnecting', 'connected']);
    expect(onRefused).not.toHaveBeenCalled();
  });

  it('sends the token and visibility at connect', async () => {
    const { service, sockets } = setup({ visible: false });
    await service.open();
    let auth: SocketAuthPayload | undefined;
    sockets[0]?.auth((data) => {
      auth = data;
    });
    expect(auth).toEqual({ token: 'token-a', visible: false });
  });

  it('stays disconnected without a token and does not open twice for the same token', async () => {
    const none = setup();
    none.setToken(undefined);
    await none.service.open();
    expect(none.sockets).toHaveLength(0);

    const { service, sockets } = setup();
    await service.open();
    await service.open();
    expect(sockets).toHaveLength(1);
  });

  it('is disconnected after a server disconnect or a refused handshake, and on close', async () => {
    const { service, sockets, onRefused } = setup();
    await service.open();
    const socket = sockets[0] as FakeSocket;
    socket.fire('connect');
    socket.fire('disconnect', 'io server disconnect');
    expect(service.getSnapshot()).toEqual({ status: 'disconnected', reason: 'server' });

    await service.open();
    const second = sockets[1] as FakeSocket;
    second.active = false;
    second.fire('connect_error', new Error('Token inválido'));
    expect(service.getSnapshot()).toEqual({ status: 'disconnected', reason: 'auth_failed' });
    // A refused handshake asks the server about the session at once, not at the next check.
    expect(onRefused).toHaveBeenCalledTimes(1);

    await service.open();
    (sockets[2] as FakeSocket).fire('connect');
    service.close();
    expect(service.getSnapshot()).toEqual({ status: 'disconnected', reason: 'signed_out' });
    expect(sockets[2]?.connected).toBe(false);
  });

  it('ignores events of a socket that belongs to a closed session', async () => {
    const { service, sockets } = setup();
    await service.open();
    const old = sockets[0] as FakeSocket;
    service.close();
    old.fire('connect');
    expect(service.getSnapshot().status).toBe('disconnected');
  });

  it('signs out on token_invalidated and fans server events out to subscribers', async () => {
    const { service, sockets, onTokenInvalidated } = setup();
    await service.open();
    const socket = sockets[0] as FakeSocket;
    socket.fire('connect');
    const typing = vi.fn();
    const stop = service.on('userTyping', typing);
    socket.fireServer('userTyping', { userId: 'u', conversationId: 'c', isTyping: true });
    stop();
    socket.fireServer('userTyping', { userId: 'u', conversationId: 'c', isTyping: false });
    expect(typing).toHaveBeenCalledTimes(1);
    socket.fireServer('token_invalidated', { reason: 'revoked' });
    expect(onTokenInvalidated).toHaveBeenCalledOnce();
  });
});

describe('ConnectionService rooms', () => {
  it('rejoins kept rooms on every reconnect', async () => {
    const { service, sockets } = setup();
    service.joinConversation('c1');
    await service.open();
    const socket = sockets[0] as FakeSocket;
    socket.fire('connect');
    service.joinConversation('c2');
    await flush();
    expect(joinIds(socket)).toEqual(['c1', 'c2']);
    socket.fire('disconnect', 'transport close');
    socket.fire('connect');
    await flush();
    expect(joinIds(socket).slice(2)).toEqual(['c1', 'c2']);
  });

  it('joins conversations in batches of 5, each after the server answered the previous one', async () => {
    const { service, sockets } = setup();
    await service.open();
    const socket = sockets[0] as FakeSocket;
    socket.holdAcks = true;
    socket.fire('connect');
    service.joinConversations(ids('c', 12));
    await flush();
    expect(joinIds(socket)).toEqual(ids('c', JOIN_BATCH_SIZE));
    // Four of five answers are not enough for the next batch.
    for (const pending of socket.pendingAcks.splice(0, 4)) pending.answer({ ok: true });
    await flush();
    expect(joinIds(socket)).toHaveLength(5);
    socket.pendingAcks.shift()?.answer({ ok: true });
    await flush();
    expect(joinIds(socket)).toEqual(ids('c', 10));
    // A room left before its batch goes out is not joined at all.
    service.leaveConversation('c11');
    for (const pending of socket.pendingAcks.splice(0)) pending.answer({ ok: true });
    await flush();
    expect(joinIds(socket)).toEqual([...ids('c', 10), 'c10']);
    expect(service.joinedRooms).toEqual(ids('c', 11));
  });

  it('rejoins after a reconnect in batches of 5 too, and drops what the old connection still had queued', async () => {
    const { service, sockets } = setup();
    await service.open();
    const socket = sockets[0] as FakeSocket;
    socket.holdAcks = true;
    socket.fire('connect');
    service.joinConversations(ids('c', 12));
    await flush();
    expect(joinIds(socket)).toHaveLength(5);
    socket.fire('disconnect', 'transport close');
    socket.pendingAcks.splice(0);
    socket.fire('connect');
    await flush();
    expect(joinIds(socket).slice(5)).toEqual(ids('c', 5));
    for (let round = 0; round < 3; round++) {
      for (const pending of socket.pendingAcks.splice(0)) pending.answer({ ok: true });
      await flush();
    }
    expect(joinIds(socket).slice(5)).toEqual(ids('c', 12));
  });

  it('keeps at most 20 rooms, leaving the oldest; re-joining refreshes a room', async () => {
    const { service, sockets } = setup();
    await service.open();
    const socket = sockets[0] as FakeSocket;
    socket.ackWith = () => ({ ok: true });
    socket.fire('connect');
    for (let i = 0; i < MAX_JOINED_ROOMS; i++) service.joinConversation(`c${i}`);
    await flush();
    service.joinConversation('c0');
    service.joinConversation('new');
    expect(service.joinedRooms).toHaveLength(MAX_JOINED_ROOMS);
    expect(service.joinedRooms).toContain('c0');
    expect(service.joinedRooms).not.toContain('c1');
    expect(socket.eventsNamed('leaveConversation')).toEqual([{ conversationId: 'c1' }]);
    await flush();
    // Joined once each, c0 included: the refresh of a kept room sends nothing.
    expect(joinIds(socket).filter((id) => id === 'c0')).toHaveLength(1);
    expect(joinIds(socket)).toEqual([...ids('c', MAX_JOINED_ROOMS), 'new']);
    service.leaveConversations(['new', 'c0']);
    expect(service.joinedRooms).not.toContain('new');
    // c0 was joined twice (two holders): one leave keeps it.
    expect(service.joinedRooms).toContain('c0');
  });

  it('leaves a room only when its last holder lets it go (the list and the open chat)', async () => {
    const { service, sockets } = setup();
    await service.open();
    const socket = sockets[0] as FakeSocket;
    socket.ackWith = () => ({ ok: true });
    socket.fire('connect');
    service.joinConversations(['a', 'b', 'c']);
    service.joinConversation('b');
    service.leaveConversations(['a', 'b', 'c']);
    expect(service.joinedRooms).toEqual(['b']);
    expect(socket.eventsNamed('leaveConversation')).toEqual([{ conversationId: 'a' }, { conversationId: 'c' }]);
    service.leaveConversation('b');
    expect(service.joinedRooms).toEqual([]);
    service.leaveConversation('b');
    expect(socket.eventsNamed('leaveConversation')).toHaveLength(3);
  });

  it('forgets a room whose join the server refuses, so a reconnect does not try it again', async () => {
    const { service, sockets } = setup();
    await service.open();
    const socket = sockets[0] as FakeSocket;
    socket.ackWith = (_event, payload) =>
      (payload as { conversationId: string }).conversationId === 'gone'
        ? { ok: false, message: 'Conversación no encontrada', status: 404 }
        : { ok: true };
    socket.fire('connect');
    service.joinConversations(['kept', 'gone']);
    await flush();
    expect(service.joinedRooms).toEqual(['kept']);
    socket.fire('disconnect', 'transport close');
    socket.fire('connect');
    await flush();
    expect(joinIds(socket)).toEqual(['kept', 'gone', 'kept']);
  });

  it('keeps rooms joined while offline and joins them once connected', async () => {
    const { service, sockets } = setup();
    service.joinConversations(ids('c', 7));
    await service.open();
    const socket = sockets[0] as FakeSocket;
    socket.ackWith = () => ({ ok: true });
    expect(socket.emitted).toEqual([]);
    socket.fire('connect');
    await flush();
    await flush();
    expect(joinIds(socket)).toEqual(ids('c', 7));
  });
});

describe('ConnectionService event names and volatile emits', () => {
  it('hands the spec alias names to the canonical listeners (docs/decisions/0013)', async () => {
    const { service, sockets } = setup();
    await service.open();
    const socket = sockets[0] as FakeSocket;
    socket.fire('connect');
    const heard: string[] = [];
    service.on('newMessage', (message) => heard.push(`newMessage:${message._id}`));
    service.on('userTyping', (event) => heard.push(`userTyping:${event.isTyping}`));
    service.on('conversationUpdated', (event) => heard.push(`conversationUpdated:${event.conversationId}`));
    socket.fireServer('message', { _id: 'm1' });
    socket.fireServer('newMessage', { _id: 'm2' });
    socket.fireServer('typing', { userId: 'u', conversationId: 'c', isTyping: true });
    socket.fireServer('userTyping', { userId: 'u', conversationId: 'c', isTyping: false });
    socket.fireServer('conversationsUpdated', { conversationId: 'c1' });
    socket.fireServer('conversationUpdated', { conversationId: 'c2' });
    expect(heard).toEqual([
      'newMessage:m1',
      'newMessage:m2',
      'userTyping:true',
      'userTyping:false',
      'conversationUpdated:c1',
      'conversationUpdated:c2',
    ]);
  });

  it('sends volatile emits through socket.volatile, and only while connected', async () => {
    const { service, sockets } = setup();
    expect(service.emitVolatile('typing', { conversationId: 'c', isTyping: true })).toBe(false);
    await service.open();
    const socket = sockets[0] as FakeSocket;
    expect(service.emitVolatile('typing', { conversationId: 'c', isTyping: true })).toBe(false);
    socket.fire('connect');
    expect(service.emitVolatile('typing', { conversationId: 'c', isTyping: true })).toBe(true);
    expect(socket.volatileEmitted).toEqual([{ event: 'typing', args: [{ conversationId: 'c', isTyping: true }] }]);
    expect(socket.eventsNamed('typing')).toEqual([]);
  });
});

describe('ConnectionService requests', () => {
  it('resolves ok acks, rejects refusals, time-outs and offline calls', async () => {
    const { service, sockets } = setup();
    await expect(service.request('joinConversation', { conversationId: 'c' })).rejects.toMatchObject({
      kind: 'offline',
    });
    await service.open();
    const socket = sockets[0] as FakeSocket;
    socket.fire('connect');
    await expect(service.request('joinConversation', { conversationId: 'c' })).rejects.toBeInstanceOf(
      SocketRequestError,
    );
    socket.ackWith = () => ({ ok: false, message: 'No puedes', status: 403 });
    await expect(service.request('joinConversation', { conversationId: 'c' })).rejects.toMatchObject({
      kind: 'refused',
      message: 'No puedes',
    });
    socket.ackWith = () => ({ ok: true });
    await expect(service.request('joinConversation', { conversationId: 'c' })).resolves.toEqual({ ok: true });
  });

  it('reports presence only while connected', async () => {
    const { service, sockets } = setup();
    await service.open();
    const socket = sockets[0] as FakeSocket;
    service.reportVisibility(false);
    socket.fire('connect');
    service.reportVisibility(false);
    service.reportVisibility(true);
    expect(socket.emitted.map((entry) => entry.event)).toEqual(['presence:hidden', 'presence:visible']);
  });
});
