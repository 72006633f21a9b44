import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import client from 'prom-client';
import type { Server } from 'socket.io';
import { forbidden } from '../errors.ts';

/** node-postgres pool counters. */
type PoolCounters = { totalCount: number; idleCount: number; waitingCount: number };

export type MetricsOptions = {
  io: Server;
  /** The database driver's client (drizzle's `$client`): a pg.Pool exposes its counters. */
  databaseClient: unknown;
  /** Pushes queued or being sent. */
  pushQueueDepth: () => number;
  /** METRICS_TOKEN: a bearer token that may read /metrics from anywhere; absent: loopback only. */
  token: string | undefined;
};

/** The HTTP route that sends a message (chat-routes.ts) and the socket event that does. */
const SEND_MESSAGE_ROUTE = '/api/messages/messages';
const SEND_MESSAGE_EVENT = 'sendMessage';

/**
 * The process metrics (event-loop delay, memory, GC) are collected once per process, whatever the
 * number of apps built in it (tests build many).
 */
let processRegistry: client.Registry | undefined;
function processMetrics(): client.Registry {
  if (!processRegistry) {
    processRegistry = new client.Registry();
    client.collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 20 });
  }
  return processRegistry;
}

function isPool(value: unknown): value is PoolCounters {
  return typeof (value as PoolCounters | undefined)?.totalCount === 'number';
}

/** Only a direct loopback connection: a request relayed by a local proxy carries X-Forwarded-For. */
function isLoopback(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress ?? '';
  const isLocal = address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
  return isLocal && request.headers['x-forwarded-for'] === undefined;
}

function hasToken(request: FastifyRequest, token: string): boolean {
  const given = Buffer.from(request.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `GET /metrics` in Prometheus text format (docs/deploy.md, "Metrics"). Hot paths pay one
 * histogram observation per HTTP request and one counter increment per acknowledged message;
 * gauges (sockets, pool, queue) are read only when scraped.
 */
export const metricsPlugin = fp(async (http: FastifyInstance, options: MetricsOptions) => {
  const registry = new client.Registry();
  const duration = new client.Histogram({
    name: 'entreno_http_request_duration_seconds',
    help: 'HTTP request duration by route pattern, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const messages = new client.Counter({
    name: 'entreno_messages_acknowledged_total',
    help: 'Chat messages acknowledged to their sender (socket or HTTP; replays included)',
    labelNames: ['via'] as const,
    registers: [registry],
  });
  const { io } = options;
  new client.Gauge({
    name: 'entreno_sockets_connected',
    help: 'Socket.IO connections open on this node',
    registers: [registry],
    collect() {
      this.set(io.engine.clientsCount);
    },
  });
  new client.Gauge({
    name: 'entreno_push_queue_depth',
    help: 'Web pushes queued or being sent on this node',
    registers: [registry],
    collect() {
      this.set(options.pushQueueDepth());
    },
  });
  const pool = options.databaseClient;
  if (isPool(pool)) {
    new client.Gauge({
      name: 'entreno_db_pool_connections',
      help: 'PostgreSQL pool connections: total open, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  http.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe({ method: request.method, route, status: reply.statusCode }, reply.elapsedTime / 1000);
    if (route === SEND_MESSAGE_ROUTE && request.method === 'POST' && reply.statusCode < 300)
      messages.inc({ via: 'http' });
    done();
  });
  io.on('connection', (socket) => {
    socket.use((packet, next) => {
      const ack = packet[packet.length - 1];
      if (packet[0] === SEND_MESSAGE_EVENT && typeof ack === 'function') {
        packet[packet.length - 1] = (response: { ok?: boolean }, ...rest: unknown[]) => {
          if (response?.ok) messages.inc({ via: 'socket' });
          return ack(response, ...rest);
        };
      }
      next();
    });
  });

  const merged = client.Registry.merge([processMetrics(), registry]);
  http.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    const isAllowed = options.token ? hasToken(request, options.token) : isLoopback(request);
    if (!isAllowed) throw forbidden();
    return reply
      .header('content-type', merged.contentType)
      .header('cache-control', 'no-store')
      .send(await merged.metrics());
  });
});
