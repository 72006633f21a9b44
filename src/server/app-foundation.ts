import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import proxyAddr from 'proxy-addr';
import type { Config } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { createOutboxEmailChannel, createSmtpEmailChannel, type EmailChannel } from './delivery/email-channel.ts';
import { createOutbox, type Outbox } from './delivery/outbox.ts';
import { createOutboxRepository } from './delivery/outbox-repository.ts';
import { createOutboxSmsChannel, createTwilioSmsChannel, type SmsChannel } from './delivery/sms-channel.ts';
import type { Clock } from './infra/clock.ts';
import {
  createMemoryInvalidationBus,
  createRedisInvalidationBus,
  type InvalidationBus,
} from './infra/invalidation-bus.ts';
import {
  createFailFastRedis,
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type RateLimiter,
  scalePerIpLimits,
} from './infra/rate-limit.ts';
import { loggerOptions } from './logger.ts';
import { createRealtime, type Realtime } from './plugins/realtime.ts';
import { createAccessLog } from './plugins/request-log.ts';
import { trackRequestsInFlight } from './plugins/requests-in-flight.ts';
import { resolveTokenSecret } from './secrets.ts';
import { createDatabaseSecretStore, type SharedSecretStore } from './secrets-repository.ts';

/** What every feature stands on: HTTP, the database, Socket.IO, Redis, the bus, the limiter, the channels. */
export type Foundation = {
  http: FastifyInstance;
  database: DatabaseHandle;
  realtime: Realtime;
  /** The limits' and the bus's Redis connection; undefined when embedded. */
  redis: Redis | undefined;
  bus: InvalidationBus;
  limiter: RateLimiter;
  /** The dev outbox; undefined in production. */
  outbox: Outbox | undefined;
  smsChannel: SmsChannel;
  emailChannel: EmailChannel;
  /** With DATABASE_URL: where generated secrets are shared between nodes (0024). */
  sharedSecrets: SharedSecretStore | undefined;
  tokenSecret: string;
  requestsInFlight: ReturnType<typeof trackRequestsInFlight>;
};

/**
 * Opens the server's foundation in order, closing what was opened when a later step fails: the
 * HTTP server with its access log, the database (migrated), the token secret, Socket.IO, Redis,
 * the invalidation bus, the limiter, the outbox and the SMS and e-mail channels.
 */
export async function openFoundation(
  config: Config,
  dependencies: {
    clock: Clock;
    smsChannel?: SmsChannel;
    emailChannel?: EmailChannel;
    /** Where the log lines go (default: stdout); tests capture them. */
    logStream?: NodeJS.WritableStream;
  },
): Promise<Foundation> {
  const { clock } = dependencies;
  // A hop count becomes proxy-addr's function form: trust the last N hops only. Fastify and the
  // socket caps read the client's address with the same rule.
  const trustProxy =
    typeof config.trustProxy === 'number'
      ? (_address: string, hop: number) => hop < (config.trustProxy as number)
      : config.trustProxy === false
        ? () => false
        : proxyAddr.compile(config.trustProxy);
  const accessLog = createAccessLog();
  const http = Fastify({
    logger: {
      ...loggerOptions(config.logLevel),
      ...(dependencies.logStream ? { stream: dependencies.logStream } : {}),
    },
    // One access-log line per request (plugins/request-log.ts) instead of Fastify's two.
    logController: accessLog.controller,
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy === false ? false : trustProxy,
  });
  accessLog.attach(http.log);
  const requestsInFlight = trackRequestsInFlight(http);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    ephemeral: config.isEphemeral,
    logger: http.log,
  });
  // With DATABASE_URL every node reads the same generated secrets (0024); the operator's values win.
  const sharedSecrets = config.databaseUrl ? createDatabaseSecretStore(database.db) : undefined;
  let tokenSecret: string;
  try {
    tokenSecret = await resolveTokenSecret({
      configured: config.tokenSecret,
      shared: sharedSecrets,
      dataDir: config.dataDir,
      inMemory: config.isEphemeral,
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  let realtime: Realtime;
  try {
    realtime = await createRealtime(http.server, {
      redisUrl: config.redisUrl,
      keyPrefix: config.redisKeyPrefix,
      onRedisError: (error) => http.log.warn({ err: error }, 'realtime: Redis error'),
      caps: {
        perAddress: config.socketsPerAddress,
        perUser: config.socketsPerUser,
        clientAddress: (request) => proxyAddr(request, trustProxy),
      },
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  let redis: Redis | undefined;
  if (config.redisUrl) {
    // Fail fast: while Redis is away the limits fall back to this node's memory (decision 0021).
    redis = createFailFastRedis(config.redisUrl, (error) => http.log.warn({ err: error }, 'rate limits: Redis error'));
    try {
      await redis.connect();
    } catch (error) {
      await Promise.allSettled([realtime.close(), database.close()]);
      redis.disconnect();
      throw error;
    }
  }
  let bus: InvalidationBus;
  const onBusError = (error: unknown) => http.log.warn({ err: error }, 'invalidation bus: error');
  try {
    bus = redis
      ? await createRedisInvalidationBus({ publisher: redis, keyPrefix: config.redisKeyPrefix, onError: onBusError })
      : createMemoryInvalidationBus({ onError: onBusError });
  } catch (error) {
    await Promise.allSettled([realtime.close(), database.close()]);
    redis?.disconnect();
    throw error;
  }
  const limiter = scalePerIpLimits(
    redis
      ? createRedisRateLimiter({ redis, clock, keyPrefix: config.redisKeyPrefix })
      : createMemoryRateLimiter({ clock }),
    config.rateLimitIpFactor,
  );
  const outbox = config.isOutboxEnabled
    ? createOutbox({ repository: createOutboxRepository(database.db), logger: http.log, clock })
    : undefined;
  const smsChannel = dependencies.smsChannel ?? createSmsChannel(config, outbox);
  const emailChannel = dependencies.emailChannel ?? createEmailChannel(config, outbox);
  return {
    http,
    database,
    realtime,
    redis,
    bus,
    limiter,
    outbox,
    smsChannel,
    emailChannel,
    sharedSecrets,
    tokenSecret,
    requestsInFlight,
  };
}

/** Texts go to the configured provider, or to the dev outbox (config.ts refuses that in production). */
function createSmsChannel(config: Config, outbox: Outbox | undefined): SmsChannel {
  if (config.sms.kind === 'twilio') return createTwilioSmsChannel(config.sms);
  if (!outbox) throw new Error('no SMS provider configured and the dev outbox is off');
  return createOutboxSmsChannel(outbox);
}

/** E-mails go by SMTP when SMTP_URL is set, otherwise to the dev outbox. */
function createEmailChannel(config: Config, outbox: Outbox | undefined): EmailChannel {
  if (config.smtpUrl) return createSmtpEmailChannel({ url: config.smtpUrl, from: config.smtpFrom });
  if (!outbox) throw new Error('no SMTP server configured and the dev outbox is off');
  return createOutboxEmailChannel(outbox);
}
