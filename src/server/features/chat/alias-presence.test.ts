import { EventEmitter } from 'node:events';
import type { Server } from 'socket.io';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ALIAS_HEARTBEAT_MS, ALIAS_TTL_MS, aliasRoom, createAliasPresence } from './alias-presence.ts';

/** A node's Socket.IO server as the presence uses it: the adapter's rooms and events, server-side emits. */
class FakeNode extends EventEmitter {
  readonly adapter = Object.assign(new EventEmitter(), { rooms: new Map<string, Set<string>>() });
  readonly peers: FakeNode[] = [];
  told = 0;
  of() {
    return { adapter: this.adapter };
  }
  /** The others' answers to an ask; `silent` peers never answer (the ask times out). */
  async serverSideEmitWithAck(event: string) {
    if (this.peers.some((peer) => peer.isSilent)) throw new Error('operation has timed out');
    return this.peers.flatMap((peer) => {
      const answers: unknown[] = [];
      for (const listener of peer.listeners(event)) listener((news: unknown) => answers.push(news));
      return answers;
    });
  }
  isSilent = false;
  serverSideEmit(event: string, news: unknown) {
    this.told += 1;
    for (const peer of this.peers) peer.emit(event, news);
    return true;
  }
  join(room: string) {
    this.adapter.rooms.set(room, new Set(['socket']));
    this.adapter.emit('create-room', room);
  }
  leave(room: string) {
    this.adapter.rooms.delete(room);
    this.adapter.emit('delete-room', room);
  }
  asServer() {
    return this as unknown as Server;
  }
}

const pair = () => {
  const a = new FakeNode();
  const b = new FakeNode();
  a.peers.push(b);
  b.peers.push(a);
  return { a, b };
};

describe('createAliasPresence', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const now = () => Date.now();

  it('on a sole node, answers from its own rooms and tells nobody', () => {
    const node = new FakeNode();
    const presence = createAliasPresence(node.asServer(), { isSoleNode: true, now });
    expect(presence.mayHave(['ana'])).toBe(false);
    node.join(aliasRoom('ana'));
    expect(presence.mayHave(['ana'])).toBe(true);
    expect(presence.mayHave(['luis'])).toBe(false);
    expect(node.told).toBe(0);
    presence.close();
  });

  it('a starting node asks the others, and assumes aliases until they answered', async () => {
    const { a, b } = pair();
    const onB = createAliasPresence(b.asServer(), { isSoleNode: false, now });
    b.join(aliasRoom('ana'));
    const onA = createAliasPresence(a.asServer(), { isSoleNode: false, now });
    expect(onA.mayHave(['luis'])).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    // B answered that it holds some: still yes, now from B's word, until B's socket leaves.
    expect(onA.mayHave(['luis'])).toBe(true);
    b.leave(aliasRoom('ana'));
    expect(onA.mayHave(['luis'])).toBe(false);
    onA.close();
    onB.close();

    // A node that never answers: A assumes aliases for the TTL, then goes by what it heard.
    const quiet = pair();
    quiet.b.isSilent = true;
    const onQuietA = createAliasPresence(quiet.a.asServer(), { isSoleNode: false, now });
    await vi.advanceTimersByTimeAsync(ALIAS_TTL_MS - 1);
    expect(onQuietA.mayHave(['luis'])).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(onQuietA.mayHave(['luis'])).toBe(false);
    onQuietA.close();
  });

  it('with other nodes, knows which node holds alias sockets', async () => {
    const { a, b } = pair();
    const onA = createAliasPresence(a.asServer(), { isSoleNode: false, now });
    const onB = createAliasPresence(b.asServer(), { isSoleNode: false, now });
    await vi.advanceTimersByTimeAsync(0);
    expect(onA.mayHave(['ana'])).toBe(false);

    b.join(aliasRoom('ana'));
    expect(onA.mayHave(['luis'])).toBe(true);
    // Told once for the first alias socket, not for the next ones.
    b.join(aliasRoom('luis'));
    expect(b.told).toBe(1);
    b.leave(aliasRoom('ana'));
    expect(onA.mayHave(['luis'])).toBe(true);
    b.leave(aliasRoom('luis'));
    expect(b.told).toBe(2);
    expect(onA.mayHave(['luis'])).toBe(false);
    onA.close();
    onB.close();
  });

  it('holds a node that keeps saying so, and forgets one that went silent', async () => {
    const { a, b } = pair();
    const onA = createAliasPresence(a.asServer(), { isSoleNode: false, now });
    const onB = createAliasPresence(b.asServer(), { isSoleNode: false, now });
    await vi.advanceTimersByTimeAsync(ALIAS_TTL_MS);
    b.join(aliasRoom('ana'));
    vi.advanceTimersByTime(3 * ALIAS_TTL_MS);
    expect(onA.mayHave(['luis'])).toBe(true);
    expect(b.told).toBeGreaterThan(3);
    // B dies holding its alias socket (no word that it left): A forgets it after the TTL.
    onB.close();
    vi.advanceTimersByTime(ALIAS_TTL_MS - ALIAS_HEARTBEAT_MS);
    expect(onA.mayHave(['luis'])).toBe(true);
    vi.advanceTimersByTime(ALIAS_HEARTBEAT_MS);
    expect(onA.mayHave(['luis'])).toBe(false);
    onA.close();
  });
});
