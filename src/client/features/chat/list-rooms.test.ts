import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { conversationSummary } from './conversation-fixture.ts';

/** The real connection service over a socket stand-in that records emits and holds the join acks. */
const fake = vi.hoisted(() => {
  type Ack = (error: unknown, result?: unknown) => void;
  const state = {
    connected: false,
    emitted: [] as { event: string; payload: unknown }[],
    pendingAcks: [] as Ack[],
    handlers: new Map<string, ((...args: unknown[]) => void)[]>(),
  };
  const socket = {
    id: 'fake',
    get connected() {
      return state.connected;
    },
    active: true,
    on(event: string, handler: (...args: unknown[]) => void) {
      state.handlers.set(event, [...(state.handlers.get(event) ?? []), handler]);
    },
    onAny() {},
    emit(event: string, payload?: unknown) {
      state.emitted.push({ event, payload });
    },
    volatile: { emit() {} },
    timeout() {
      return {
        emit(event: string, payload: unknown, ack: Ack) {
          state.emitted.push({ event, payload });
          state.pendingAcks.push(ack);
        },
      };
    },
    connect() {},
    disconnect() {
      state.connected = false;
    },
    io: { on() {} },
  };
  const fire = (event: string, ...args: unknown[]) => {
    if (event === 'connect') state.connected = true;
    if (event === 'disconnect') state.connected = false;
    for (const handler of state.handlers.get(event) ?? []) handler(...args);
  };
  return { state, socket, fire };
});

vi.mock('../../services/socket.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../services/socket.ts')>();
  const connection = new real.ConnectionService({
    createSocket: () => fake.socket,
    readToken: () => 'token',
    isVisible: () => true,
    onTokenInvalidated: () => {},
  });
  return { ...real, connection };
});

const { connection, JOIN_BATCH_SIZE, MAX_JOINED_ROOMS } = await import('../../services/socket.ts');
const { conversationsState, holdListRooms, listRoomIds } = await import('./conversations-store.ts');

const conv = conversationSummary;
const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${index}`);
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const joins = () =>
  fake.state.emitted
    .filter((entry) => entry.event === 'joinConversation')
    .map((entry) => (entry.payload as { conversationId: string }).conversationId);
const leaves = () =>
  fake.state.emitted
    .filter((entry) => entry.event === 'leaveConversation')
    .map((entry) => (entry.payload as { conversationId: string }).conversationId);
const answerJoins = async () => {
  for (const ack of fake.state.pendingAcks.splice(0)) ack(null, { ok: true });
  await flush();
};

describe('the /messages list holds its conversations’ rooms (spec 001 §9, docs/decisions/0013)', () => {
  beforeEach(async () => {
    await connection.open();
    fake.fire('connect');
  });
  afterEach(() => {
    connection.close();
    fake.state.emitted = [];
    fake.state.pendingAcks = [];
    conversationsState.conversations = [];
  });

  it('keeps the first 20 live conversations, never an unmatched one', () => {
    const list = [conv('gone', { status: 'unmatched' }), ...ids('c', 25).map((id) => conv(id))];
    expect(listRoomIds(list)).toEqual(ids('c', MAX_JOINED_ROOMS));
  });

  it('joins them five at a time, follows the list and leaves them when the screen closes', async () => {
    conversationsState.conversations = ids('c', 12).map((id) => conv(id));
    const release = holdListRooms();
    await flush();
    expect(joins()).toEqual(ids('c', JOIN_BATCH_SIZE));
    await answerJoins();
    expect(joins()).toEqual(ids('c', 10));
    await answerJoins();
    expect(joins()).toEqual(ids('c', 12));
    await answerJoins();

    // A new conversation at the top is joined; one that left the list is left.
    conversationsState.conversations = [conv('new'), ...ids('c', 11).map((id) => conv(id))];
    await flush();
    expect(joins().at(-1)).toBe('new');
    expect(leaves()).toEqual(['c11']);

    // The open chat holds c3 too: closing the list keeps that room.
    connection.joinConversation('c3');
    release();
    expect(connection.joinedRooms).toEqual(['c3']);
    expect(leaves()).toHaveLength(1 + 11);
    expect(leaves()).not.toContain('c3');
  });

  it('rejoins the held rooms after a reconnect, in batches of 5', async () => {
    conversationsState.conversations = ids('c', 7).map((id) => conv(id));
    const release = holdListRooms();
    await flush();
    await answerJoins();
    await answerJoins();
    expect(joins()).toHaveLength(7);
    fake.fire('disconnect', 'transport close');
    fake.fire('connect');
    await flush();
    expect(joins().slice(7)).toEqual(ids('c', 5));
    await answerJoins();
    expect(joins().slice(7)).toEqual(ids('c', 7));
    release();
  });
});
