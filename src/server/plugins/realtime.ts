import type { Server as HttpServer, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { SERVER_MESSAGES } from '#shared/messages';
import { addressKey } from '../infra/rate-limit.ts';

/** A connection that has not authenticated (joined the namespace) within this is closed. */
export const UNAUTHENTICATED_TIMEOUT_MS = 5000;

export type SocketCaps = {
  /** Open connections per client address (IPv6: its /64) on this node, authenticated or not. */
  perAddress: number;
  /** Authenticated sockets per user on this node. */
  perUser: number;
  /** The client's address as Fastify sees it (TRUST_PROXY honoured). */
  clientAddress(request: IncomingMessage): string;
};

export type Realtime = {
  io: Server;
  kind: 'memory' | 'redis';
  close(): Promise<void>;
};

/**
 * Attaches Socket.IO at /socket.io. With a Redis URL, rooms and broadcasts span every node
 * through the Redis adapter, on channels under REDIS_KEY_PREFIX (`keyPrefix`), so deployments
 * sharing one Redis never answer each other's requests (`fetchSockets` counts every subscriber of
 * its channel and resolves on that many answers); otherwise they live in this process.
 */
export async function createRealtime(
  server: HttpServer,
  options: {
    redisUrl: string | undefined;
    keyPrefix?: string;
    onRedisError?: (error: unknown) => void;
    caps: SocketCaps;
  },
): Promise<Realtime> {
  const { caps } = options;
  const openPerAddress = new Map<string, number>();
  const addressOf = (request: IncomingMessage) => addressKey(caps.clientAddress(request));
  const io = new Server(server, {
    path: '/socket.io',
    serveClient: false,
    // Same origin only: the PWA and the API are served together.
    cors: { origin: false },
    // Covers the auth middleware too: a client that never authenticates is closed soon.
    connectTimeout: UNAUTHENTICATED_TIMEOUT_MS,
    maxHttpBufferSize: 64 * 1024,
    // Only handshakes come here: refused before any work when the address holds its cap.
    allowRequest: (request, callback) => {
      const isUnderCap = (openPerAddress.get(addressOf(request)) ?? 0) < caps.perAddress;
      callback(isUnderCap ? null : SERVER_MESSAGES.tooManyConnections, isUnderCap);
    },
  });
  // Every WebSocket connection (engine.io takes the upgrade; this listener only sees its socket).
  server.on('upgrade', (_request: IncomingMessage, socket: Duplex) => coalesceWrites(socket));
  io.engine.on(
    'connection',
    (connection: { request: IncomingMessage; once(event: 'close', listener: () => void): void } & EngineConnection) => {
      flushOncePerTick(connection);
      const key = addressOf(connection.request);
      openPerAddress.set(key, (openPerAddress.get(key) ?? 0) + 1);
      connection.once('close', () => {
        const left = (openPerAddress.get(key) ?? 1) - 1;
        if (left > 0) openPerAddress.set(key, left);
        else openPerAddress.delete(key);
      });
    },
  );
  if (!options.redisUrl) {
    return { io, kind: 'memory', close: () => closeIo(io) };
  }
  // The broadcasts of one tick (a message's events to its people's rooms, a drain batch's notices)
  // go to Redis in one write: 2-member messages at 500/s on PostgreSQL + Redis made 14.9 TCP
  // writes each, now 6.0, main thread ~0.9x (message-cost, session 19). Not on the subscriber.
  const pub = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3, enableAutoPipelining: true });
  const sub = pub.duplicate({ enableAutoPipelining: false });
  guardAdapterClients(pub, sub, options.onRedisError ?? (() => {}));
  await Promise.all([pub.connect(), sub.connect()]);
  io.adapter(createAdapter(pub, sub, { key: `${options.keyPrefix ?? ''}socket.io` }));
  return {
    io,
    kind: 'redis',
    async close() {
      await closeIo(io);
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}

/**
 * Makes the Redis adapter's clients safe to outlive: without listeners an 'error' event (Redis
 * restarting) would throw and end the process (ioredis reconnects by itself), and the adapter
 * publishes broadcasts without awaiting them, so while Redis is down, or after close (a drain's
 * emit during shutdown: "Connection is closed"), each would be an unhandled rejection. Both are
 * reported to `onError` instead.
 */
export function guardAdapterClients(pub: Redis, sub: Redis, onError: (error: unknown) => void): void {
  pub.on('error', onError);
  sub.on('error', onError);
  const publish = pub.publish.bind(pub) as (...args: unknown[]) => Promise<number>;
  (pub as unknown as { publish: typeof publish }).publish = (...args: unknown[]) => {
    const sent = publish(...args);
    sent.catch(onError);
    return sent;
  };
}

/** The part of an engine.io connection `flushOncePerTick` uses (its `flush` is public API). */
type EngineConnection = { flush(): void };

/**
 * Hands an engine.io connection's packets to its transport once per tick, all of them together:
 * engine.io sends the first packet at once and queues the rest until that write's callback, so a
 * message's frames to one socket went out in two or three writes (docs/decisions/0039). With
 * `coalesceWrites` on the socket underneath, one tick's packets become one `writev`.
 */
export function flushOncePerTick(connection: EngineConnection): void {
  const flush = connection.flush.bind(connection);
  let isQueued = false;
  const flushNow = () => {
    isQueued = false;
    flush();
  };
  connection.flush = () => {
    if (isQueued) return;
    isQueued = true;
    process.nextTick(flushNow);
  };
}

/**
 * Sends what one tick writes to a connection in one system call: the first write of a tick corks
 * the socket and the tick's end uncorks it, so the frames one message produces for one socket
 * (a sender's acknowledgement and `conversationUpdated`; a recipient's `newMessage`,
 * `conversationUpdated` and `unreadCountUpdated`) leave in one `writev` instead of one each
 * (docs/decisions/0039). Order is unchanged (cork only buffers); ws's own cork around a frame's
 * header and payload nests inside (cork is counted).
 */
export function coalesceWrites(socket: Duplex): void {
  const write = socket.write;
  let isCorked = false;
  const uncork = () => {
    isCorked = false;
    socket.uncork();
  };
  socket.write = function (this: Duplex, ...args: Parameters<Duplex['write']>) {
    if (!isCorked) {
      isCorked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return write.apply(this, args);
  } as Duplex['write'];
}

/**
 * Caps one user's authenticated sockets on this node. Registered after the auth middleware (it
 * needs the user) and as the last one, so every socket it counts does connect.
 */
export function capSocketsPerUser(io: Server, perUser: number): void {
  const open = new Map<string, number>();
  io.use((socket, next) => {
    const userId: string | undefined = socket.data.auth?.userId;
    if (!userId) return next();
    const count = open.get(userId) ?? 0;
    if (count >= perUser) {
      const message = SERVER_MESSAGES.tooManyConnections;
      return next(Object.assign(new Error(message), { data: { message } }));
    }
    open.set(userId, count + 1);
    socket.once('disconnect', () => {
      const left = (open.get(userId) ?? 1) - 1;
      if (left > 0) open.set(userId, left);
      else open.delete(userId);
    });
    next();
  });
}

/**
 * Ends this node's sockets at the transport, not with a Socket.IO disconnect (after which a client
 * would not reconnect): clients see 'transport close' and reconnect, through the load balancer, to
 * a node that is up. The HTTP server itself is closed by Fastify.
 */
async function closeIo(io: Server): Promise<void> {
  io.engine.close();
}
