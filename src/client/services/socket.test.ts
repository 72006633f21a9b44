import { describe, expect, it, vi } from 'vitest';
import {
  ConnectionService,
  MAX_JOINED_ROOMS,
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
        if (this.ackWith) ack(null, this.ackWith(event, payload));
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

function setup(options: { token?: string; visible?: boolean } = {}) {
  const sockets: FakeSocket[] = [];
  let token: string | undefined = options.token ?? 'token-a';
  const onTokenInvalidated = vi.fn();
  const service = new ConnectionService({
    createSocket: (auth) => {
      const socket = new FakeSocket(auth);
      sockets.push(socket);
      return socket;
    },
    readToken: () => token,
    isVisible: () => options.visible ?? true,
    onTokenInvalidated,
  });
  return {
    service,
    sockets,
    onTokenInvalidated,
    setToken: (next: string | undefined) => {
      token = next;
    },
  };
}

describe('ConnectionService status machine', () => {
  it('starts disconnected and goes connecting → connected → reconnecting → connected', async () => {
    const { service, sockets } = setup();
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
    socket.fire('connect');
    expect(seen).toEqual(['connecting', 'connected', 'reconnecting', 'reconnecting', 'connected']);
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
    const { service, sockets } = setup();
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
    expect(socket.eventsNamed('joinConversation')).toEqual([{ conversationId: 'c1' }, { conversationId: 'c2' }]);
    socket.fire('disconnect', 'transport close');
    socket.fire('connect');
    expect(socket.eventsNamed('joinConversation').slice(2)).toEqual([
      { conversationId: 'c1' },
      { conversationId: 'c2' },
    ]);
  });

  it('keeps at most 20 rooms, leaving the oldest; re-joining refreshes a room', async () => {
    const { service, sockets } = setup();
    await service.open();
    const socket = sockets[0] as FakeSocket;
    socket.fire('connect');
    for (let i = 0; i < MAX_JOINED_ROOMS; i++) service.joinConversation(`c${i}`);
    service.joinConversation('c0');
    service.joinConversation('new');
    expect(service.joinedRooms).toHaveLength(MAX_JOINED_ROOMS);
    expect(service.joinedRooms).toContain('c0');
    expect(service.joinedRooms).not.toContain('c1');
    expect(socket.eventsNamed('leaveConversation')).toEqual([{ conversationId: 'c1' }]);
    service.leaveConversation('new');
    expect(service.joinedRooms).not.toContain('new');
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
