import Fastify, { type FastifyInstance } from 'fastify';
import proxyAddr from 'proxy-addr';
import type { Redis } from 'ioredis';
import type { Health } from '#shared/api';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { createOutboxEmailChannel, createSmtpEmailChannel, type EmailChannel } from './delivery/email-channel.ts';
import { createOutbox, type Outbox } from './delivery/outbox.ts';
import { createOutboxRepository } from './delivery/outbox-repository.ts';
import { createOutboxSmsChannel, createTwilioSmsChannel, type SmsChannel } from './delivery/sms-channel.ts';
import { type AuthModule, createAuthModule } from './features/auth/auth-module.ts';
import { authRoutes } from './features/auth/auth-routes.ts';
import type { AuthHooks } from './features/auth/auth-service.ts';
import type { PasswordHashPolicy } from './features/auth/password-hasher.ts';
import { devSurfacePlugin } from './features/dev/dev-surface.ts';
import { outboxRoutes } from './features/dev/outbox-routes.ts';
import { googleAuthRoutes } from './features/google/google-auth-routes.ts';
import { secondStepRoutes, securityRoutes } from './features/security/security-routes.ts';
import { createGoogleAuthService } from './features/google/google-auth-service.ts';
import { googleConfigRoutes } from './features/google/google-config-routes.ts';
import { createGoogleSignIn } from './features/google/google-sign-in.ts';
import { googleStandInRoutes } from './features/google/google-stand-in-routes.ts';
import { registerDiscoveryFeatures } from './features/discovery-features.ts';
import type { LiveDeckIndex } from './features/discovery/live-deck-index.ts';
import { SUPERLIKE_REFERENCE_TYPE } from './features/swipes/swipe-undo-repository.ts';
import { type ChatModule, registerChat } from './features/chat/chat-module.ts';
import { type QuedadaModule, registerQuedadas } from './features/quedadas/quedada-module.ts';
import { registerSafety } from './features/safety/safety-module.ts';
import { createAppealService } from './features/moderation/appeal-service.ts';
import { type ModerationModule, registerModeration } from './features/moderation/moderation-module.ts';
import { createRestrictionRepository } from './features/moderation/restriction-repository.ts';
import { createVerificationModule } from './features/verification/verification-module.ts';
import { createHealthRepository, latestShippedMigration } from './features/health/health-repository.ts';
import { healthRoutes } from './features/health/health-routes.ts';
import { createReadinessProbe, type ReadinessProbe } from './features/health/readiness.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { guardSocketInput, inputGuardPlugin } from './plugins/input-guard.ts';
import {
  createFailFastRedis,
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type RateLimiter,
  scalePerIpLimits,
} from './plugins/rate-limit.ts';
import {
  createMemoryInvalidationBus,
  createRedisInvalidationBus,
  type InvalidationBus,
} from './plugins/invalidation-bus.ts';
import { openApiPlugin } from './openapi/openapi-plugin.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { capSocketsPerUser, createRealtime, type Realtime } from './plugins/realtime.ts';
import { createAccessLog } from './plugins/request-log.ts';
import { trackRequestsInFlight } from './plugins/requests-in-flight.ts';
import { attachSocketAuth, createRevocationBroadcaster } from './plugins/realtime-auth.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { attachSocketBudgets } from './plugins/socket-budgets.ts';
import { staticPwaPlugin } from './plugins/static-pwa.ts';
import { deriveServerKeys, resolveTokenSecret } from './secrets.ts';
import { createDatabaseSecretStore } from './secrets-repository.ts';
import type { PhotoStore } from './features/photos/photo-store.ts';
import { loggerOptions } from './logger.ts';
import { createNotificationFeatures, type NotificationFeatures } from './notification-features.ts';

export type App = {
  http: FastifyInstance;
  database: DatabaseHandle;
  realtime: Realtime;
  config: Config;
  clock: Clock;
  /** The access area's services, for the routes built on them (Google sign-in). */
  auth: AuthModule;
  limiter: RateLimiter;
  /**
   * Every node's cache invalidations (docs/decisions/0018 §3): sessions, conversations, the deck.
   * `publish` applies locally first, then reaches the other nodes (Redis pub/sub when scaled).
   */
  bus: InvalidationBus;
  /** Notifications (`notifications.notify`), web push and settings (`settings.get`) for other features. */
  notifications: NotificationFeatures;
  /** The chat's notification work after acknowledgements (tests wait on it). */
  chat: Pick<ChatModule, 'whenDelivered'>;
  /** The dev outbox; undefined in production. */
  outbox: Outbox | undefined;
  /** `/api/ready`'s checks; `markDraining()` makes it answer 503 before a graceful stop. */
  readiness: ReadinessProbe;
  /** Quedadas: the service (tests run its job runner by hand with their clock). */
  quedadas: QuedadaModule['quedadas'];
  /** The moderation console's service (tests run its sweep by hand with their clock). */
  moderation: ModerationModule['moderation'];
  /** This node's deck candidate index (docs/decisions/0022); undefined when DECK_INDEX=0. */
  deckIndex: LiveDeckIndex | undefined;
  /** The graceful drain: stops accepting, finishes requests, ends sockets, then closes the database and Redis. */
  close(): Promise<void>;
};

/** What tests (and only tests) replace. */
export type AppDependencies = {
  clock?: Clock;
  smsChannel?: SmsChannel;
  emailChannel?: EmailChannel;
  authHooks?: AuthHooks;
  hashPolicy?: PasswordHashPolicy;
  /** Where the log lines go (default: stdout); tests capture them. */
  logStream?: NodeJS.WritableStream;
  /** Tests only: a photo store that fails (a full disk). */
  photoStore?: PhotoStore;
};

/** Builds the whole server: database (migrated), HTTP routes, Socket.IO and the static PWA. */
export async function buildApp(config: Config, dependencies: AppDependencies = {}): Promise<App> {
  const clock = dependencies.clock ?? systemClock;
  // Google sign-in (QUALITY 6, docs/decisions/0004); config.ts has already checked the settings.
  const google = await createGoogleSignIn(config.google);
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
    ephemeral: config.inMemoryDatabase,
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
      inMemory: config.inMemoryDatabase,
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
  const notificationFeatures = await createNotificationFeatures({
    config,
    db: database.db,
    io: realtime.io,
    clock,
    logger: http.log,
    sharedSecrets,
  });
  const serverKeys = deriveServerKeys(tokenSecret);
  // Suspended and banned accounts are refused a session on every sign-in path (docs/decisions/0033).
  const appeals = createAppealService({
    restrictions: createRestrictionRepository(database.db),
    clock,
    key: serverKeys.token,
  });
  const auth = await createAuthModule({
    db: database.db,
    limiter,
    clock,
    logger: http.log,
    keys: serverKeys,
    sms: smsChannel,
    email: emailChannel,
    publicOrigin: config.publicOrigin,
    smsBlockedNumbers: config.smsBlockedNumbers,
    smsDailyBudget: config.smsDailyBudget,
    smsDailyBudgetPerNumber: config.smsDailyBudgetPerNumber,
    smsDailyBudgetPerAddress: config.smsDailyBudgetPerAddress,
    onSessionsRevoked: createRevocationBroadcaster(realtime.io),
    bus,
    hooks: notificationFeatures.authHooks(dependencies.authHooks),
    hashPolicy: dependencies.hashPolicy,
    signInGate: (userId) => appeals.assertMaySignIn(userId),
  });
  attachSocketAuth(realtime.io, { sessions: auth.sessions, clock, logger: http.log });
  capSocketsPerUser(realtime.io, config.socketsPerUser);
  // Budgets first: an event over budget costs nothing more, not even the input guard's walk.
  attachSocketBudgets(realtime.io, { logger: http.log });
  guardSocketInput(realtime.io);
  const googleAuth = createGoogleAuthService({
    verifier: google.verifier,
    users: auth.users,
    sessions: auth.sessions,
    secondStep: auth.secondStep,
    smsCodes: auth.smsCodes,
    notifyRegistered: auth.auth.notifyRegistered,
    limiter,
    logger: http.log,
  });
  const health = (): Health => ({
    status: 'ok',
    database: database.kind,
    realtime: realtime.kind,
    mode: config.env,
  });
  const readiness = createReadinessProbe({
    health: createHealthRepository(database.db),
    expectedMigration: latestShippedMigration(),
    redisPings: redis ? [() => (redis as Redis).ping()] : [],
  });

  await http.register(errorsPlugin);
  // The OpenAPI document of /api, outside production (docs/deploy.md).
  if (config.env !== 'production') await http.register(openApiPlugin);
  await http.register(metricsPlugin, {
    io: realtime.io,
    databaseClient: (database.db as { $client?: unknown }).$client,
    pushQueueDepth: () => notificationFeatures.push.depth(),
    token: config.metricsToken,
  });
  await http.register(inputGuardPlugin);
  await http.register(securityHeadersPlugin, {
    isProduction: config.env === 'production',
    publicOrigin: config.publicOrigin,
  });
  await http.register(devSurfacePlugin, { isOpenToNetwork: config.areDevRoutesOpenToNetwork });
  await http.register(authPlugin, { sessions: auth.sessions });
  await http.register(
    async (api) => {
      await api.register(healthRoutes, { health, readiness });
      await api.register(authRoutes, { prefix: '/auth', auth });
      await api.register(secondStepRoutes, {
        prefix: '/auth',
        auth,
        isSecure: config.publicOrigin.startsWith('https:'),
      });
      await api.register(securityRoutes, { prefix: '/security', auth });
      if (outbox) await api.register(outboxRoutes, { prefix: '/dev', outbox });
    },
    { prefix: '/api' },
  );
  // Google sign-in: the public client config, and the local stand-in issuer outside production only.
  await http.register(
    async (api) => {
      await api.register(googleConfigRoutes, { google: google.config });
      await api.register(googleAuthRoutes, { prefix: '/auth', googleAuth });
      if (google.standIn && config.env !== 'production') {
        await api.register(googleStandInRoutes, { prefix: '/dev/google', standIn: google.standIn });
      }
    },
    { prefix: '/api' },
  );
  await http.register(async (api) => notificationFeatures.routes(api), { prefix: '/api' });
  // Profiles, photos, gym search, recommendations, swipes and matches (spec 001).
  // Chat and sync (spec 001 §7; docs/decisions/0009, 0010): messages notify through the notifications
  // service, and each new match reaches the chat through the swipes feature's events port.
  const chat = await registerChat(http, {
    db: database.db,
    io: realtime.io,
    clock,
    limiter,
    notifier: notificationFeatures.notifications,
    bus,
    isSoleNode: !config.redisUrl,
  });
  // Verified profiles (issue #23 part 2, docs/decisions/0034): new photos pause a verified badge.
  const verification = createVerificationModule({
    db: database.db,
    clock,
    limiter,
    logger: http.log,
    notifications: notificationFeatures.notifications,
  });
  const discovery = await registerDiscoveryFeatures(http, {
    bus,
    db: database.db,
    config,
    clock,
    limiter,
    io: realtime.io,
    matchEvents: chat.matchEvents,
    isShownToOthers: async (userId) => (await notificationFeatures.settings.get(userId)).privacy.showProfile,
    privacyOf: notificationFeatures.settings.privacyOf,
    photoStore: dependencies.photoStore,
    swipeNotifier: {
      superliked: async (targetId, swipeId) => {
        await notificationFeatures.notifications.notifySuperlike(targetId, {
          swipeId,
          referenceType: SUPERLIKE_REFERENCE_TYPE,
        });
      },
      notificationsRemoved: (userId, removed) => notificationFeatures.notifications.removed(userId, removed),
    },
    onPhotosAdded: (userId) => verification.verification.photosAdded(userId),
  });
  await verification.register(http);
  // "Perfil visible" in settings really takes the profile out of every deck (spec 001 §2, /config).
  notificationFeatures.settings.onChange(async (userId, settings, patch) => {
    if (patch.privacy?.showProfile !== undefined) {
      await discovery.profiles.setShownToOthers(userId, settings.privacy.showProfile);
    }
  });
  // Blocks, reports, data export and account deletion (docs/decisions/0012).
  await registerSafety(http, {
    db: database.db,
    realtime: chat.realtime,
    clock,
    limiter,
    sessions: auth.sessions,
    hasher: auth.hasher,
    discardPhotos: discovery.photos.discard,
    bus,
  });
  // The moderation console's API (issue #23, docs/decisions/0033): 404 to everyone but moderators.
  const moderation = await registerModeration(http, {
    db: database.db,
    realtime: chat.realtime,
    clock,
    bus,
    appeals,
    revokeAllSessions: (userId) => auth.sessions.revokeAllSessions(userId, 'revoked'),
    notify: async (userId, notice) => {
      await notificationFeatures.notifications.notifySystem(userId, notice);
    },
    sections: [verification.moderationSection],
  });
  // Quedadas (issue #21, docs/decisions/0029): planned sessions in the chat, their reminders and record.
  const quedadas = await registerQuedadas(http, {
    db: database.db,
    realtime: chat.realtime,
    clock,
    limiter,
    notifier: notificationFeatures.notifications,
    settings: notificationFeatures.settings,
    publicOrigin: config.publicOrigin,
    hasDevRoutes: config.env !== 'production',
    bus,
  });
  await http.register(staticPwaPlugin, { clientDir: config.clientDir });
  notificationFeatures.start();
  quedadas.start();
  moderation.start();

  let closing: Promise<void> | undefined;
  return {
    http,
    database,
    realtime,
    config,
    clock,
    auth,
    limiter,
    bus,
    chat,
    outbox,
    readiness,
    deckIndex: discovery.deckIndex,
    moderation: moderation.moderation,
    notifications: notificationFeatures,
    quedadas: quedadas.quedadas,
    close() {
      closing ??= (async () => {
        // The graceful drain (docs/decisions/0024): readiness fails; no new connection is accepted
        // (idle keep-alive ones end); requests under way finish; then the sockets end at the
        // transport, so clients reconnect through the balancer to another node and replay their
        // outbox; only then the database and Redis close.
        readiness.markDraining();
        const stopped = http.close();
        await requestsInFlight.idle();
        await realtime.close();
        http.server.closeAllConnections();
        await stopped;
        await quedadas.close();
        await moderation.close();
        await chat.close();
        await notificationFeatures.close();
        // Reset links being mailed after their answer still need the database.
        await auth.passwordReset.whenIdle();
        await database.close();
        await bus.close();
        await Promise.allSettled([redis?.quit(), emailChannel.close?.()]);
      })();
      return closing;
    },
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
