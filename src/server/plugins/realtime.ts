import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';

export type Realtime = {
  io: Server;
  kind: 'memory' | 'redis';
  close(): Promise<void>;
};

/**
 * Attaches Socket.IO at /socket.io. With a Redis URL, rooms and broadcasts span every node
 * through the Redis adapter; otherwise they live in this process.
 */
export async function createRealtime(
  server: HttpServer,
  options: { redisUrl: string | undefined; onRedisError?: (error: unknown) => void },
): Promise<Realtime> {
  const io = new Server(server, {
    path: '/socket.io',
    serveClient: false,
    // Same origin only: the PWA and the API are served together.
    cors: { origin: false },
    connectTimeout: 60_000,
    maxHttpBufferSize: 64 * 1024,
  });
  if (!options.redisUrl) {
    return { io, kind: 'memory', close: () => closeIo(io) };
  }
  const pub = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const sub = pub.duplicate();
  const onRedisError = options.onRedisError ?? (() => {});
  // Without listeners an 'error' event (Redis restarting) would throw and end the process;
  // ioredis reconnects by itself.
  pub.on('error', onRedisError);
  sub.on('error', onRedisError);
  // The adapter publishes broadcasts without awaiting them: while Redis is down (or after close)
  // each would be an unhandled rejection. Mark them handled and report them instead.
  const publish = pub.publish.bind(pub) as (...args: unknown[]) => Promise<number>;
  (pub as unknown as { publish: typeof publish }).publish = (...args: unknown[]) => {
    const sent = publish(...args);
    sent.catch(onRedisError);
    return sent;
  };
  await Promise.all([pub.connect(), sub.connect()]);
  io.adapter(createAdapter(pub, sub));
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
 * Ends this node's sockets at the transport, not with a Socket.IO disconnect (after which a client
 * would not reconnect): clients see 'transport close' and reconnect, through the load balancer, to
 * a node that is up. The HTTP server itself is closed by Fastify.
 */
async function closeIo(io: Server): Promise<void> {
  io.engine.close();
}
