import { randomUUID } from 'node:crypto';
import type { Server } from 'socket.io';

/** The room of a user's sockets that asked for the spec's alias names (docs/decisions/0013). */
export const aliasRoom = (userId: string) => `${ALIAS_ROOM_PREFIX}${userId}`;
const ALIAS_ROOM_PREFIX = 'aliases:';

/** The server-side event a node tells the others with whether it holds alias sockets. */
const ALIAS_SOCKETS_EVENT = 'entreno:alias-sockets';
/** The server-side event a starting node asks the others with (each answers an AliasNews). */
const ALIAS_ASK_EVENT = 'entreno:alias-sockets-ask';
/** How often a node holding alias sockets says so again (a node that joined since hears it). */
export const ALIAS_HEARTBEAT_MS = 30_000;
/** How long a node's word holds without a repeat (a node that died holding some is forgotten). */
export const ALIAS_TTL_MS = 3 * ALIAS_HEARTBEAT_MS;

type AliasNews = { node: string; isPresent: boolean };

export type AliasPresence = {
  /** Whether a socket of these users, on this node or any other, may have asked for the aliases. */
  mayHave(users: readonly string[]): boolean;
  close(): void;
};

/**
 * Which nodes hold sockets that asked for the alias names (docs/decisions/0039, amendment of
 * session 20), so an aliased event is one broadcast and not two when none does — also with the
 * Redis adapter, where every broadcast is a publish that each node decodes. A node tells the
 * others (`serverSideEmit`) when its first alias socket joins and its last one leaves, and again
 * every ALIAS_HEARTBEAT_MS while it holds any; a node's word lapses after ALIAS_TTL_MS. A starting
 * node asks the others (`serverSideEmitWithAck`) and assumes aliases anywhere until they have all
 * answered — for at most ALIAS_TTL_MS if some never does (by then their heartbeats have come).
 * In the moment between an alias socket's arrival and the other nodes hearing of it, an event from
 * them reaches it under the canonical name, which a client treats alike (0013).
 */
export function createAliasPresence(
  io: Server,
  options: { isSoleNode: boolean; now?: () => number; heartbeatMs?: number; ttlMs?: number },
): AliasPresence {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? ALIAS_TTL_MS;
  const adapter = io.of('/').adapter;
  const localRooms = adapter.rooms;
  const node = randomUUID();
  const startedAt = now();
  /** Other nodes holding alias sockets, with when their word lapses. */
  const others = new Map<string, number>();
  let localCount = 0;

  const tell = (isPresent: boolean) => {
    if (options.isSoleNode) return;
    try {
      io.serverSideEmit(ALIAS_SOCKETS_EVENT, { node, isPresent } satisfies AliasNews);
    } catch {
      // An adapter without server-side events (in memory): no node hears any other's broadcasts.
    }
  };
  const onCreate = (room: string) => {
    if (!room.startsWith(ALIAS_ROOM_PREFIX)) return;
    localCount += 1;
    if (localCount === 1) tell(true);
  };
  const onDelete = (room: string) => {
    if (!room.startsWith(ALIAS_ROOM_PREFIX)) return;
    localCount = Math.max(0, localCount - 1);
    if (localCount === 0) tell(false);
  };
  adapter.on('create-room', onCreate);
  adapter.on('delete-room', onDelete);
  const onNews = (news: AliasNews) => {
    if (typeof news?.node !== 'string' || news.node === node) return;
    if (news.isPresent) others.set(news.node, now() + ttlMs);
    else others.delete(news.node);
  };
  const onAsk = (answer: (news: AliasNews) => void) => {
    if (typeof answer === 'function') answer({ node, isPresent: localCount > 0 });
  };
  let isAssuming = !options.isSoleNode;
  if (!options.isSoleNode) {
    io.on(ALIAS_SOCKETS_EVENT as 'connection', onNews as never);
    io.on(ALIAS_ASK_EVENT as 'connection', onAsk as never);
    // The adapter bounds the wait (the Redis adapter's `requestsTimeout`, 5 s by default).
    const asking = io as unknown as { serverSideEmitWithAck(event: string): Promise<unknown[]> };
    Promise.resolve()
      .then(() => asking.serverSideEmitWithAck(ALIAS_ASK_EVENT))
      .then((answers) => {
        // Only the present ones: a word that crossed the answer on the way (a node's first alias
        // socket, just after it answered none) is not undone by the older answer.
        for (const news of answers as AliasNews[]) if (news?.isPresent === true) onNews(news);
        isAssuming = false;
      })
      .catch(() => {
        // Some node did not answer: go on assuming until the TTL (its heartbeats come meanwhile).
      });
  }
  const heartbeat = options.isSoleNode
    ? undefined
    : setInterval(() => {
        if (localCount > 0) tell(true);
      }, options.heartbeatMs ?? ALIAS_HEARTBEAT_MS);
  heartbeat?.unref();

  const anyOther = () => {
    const at = now();
    for (const [other, lapsesAt] of others) {
      if (lapsesAt > at) return true;
      others.delete(other);
    }
    return false;
  };

  return {
    mayHave(users) {
      if (users.some((user) => localRooms.has(aliasRoom(user)))) return true;
      if (options.isSoleNode) return false;
      return (isAssuming && now() - startedAt < ttlMs) || anyOther();
    },
    close() {
      clearInterval(heartbeat);
      adapter.off('create-room', onCreate);
      adapter.off('delete-room', onDelete);
      if (!options.isSoleNode) {
        io.off(ALIAS_SOCKETS_EVENT as 'connection', onNews as never);
        io.off(ALIAS_ASK_EVENT as 'connection', onAsk as never);
      }
    },
  };
}
