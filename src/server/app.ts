import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Health } from '#shared/api';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { EmailChannel } from './delivery/email-channel.ts';
import type { Outbox } from './delivery/outbox.ts';
import type { SmsChannel } from './delivery/sms-channel.ts';
import { type AuthModule, createAuthModule } from './features/auth/auth-module.ts';
import type { AuthHooks } from './features/auth/auth-service.ts';
import type { PasswordHashPolicy } from './features/auth/password-hasher.ts';
import { type ChatModule, registerChat } from './features/chat/chat-module.ts';
import { registerDev } from './features/dev/dev-module.ts';
import { createDiscoveryModule } from './features/discovery/discovery-module.ts';
import type { LiveDeckIndex } from './features/discovery/ranking/live-deck-index.ts';
import { createGoogleModule } from './features/google/google-module.ts';
import { createGymModule } from './features/gyms/gym-module.ts';
import { createHealthModule } from './features/health/health-module.ts';
import type { ReadinessProbe } from './features/health/readiness.ts';
import { createAppeals, type ModerationModule, registerModeration } from './features/moderation/moderation-module.ts';
import { createNotificationModule } from './features/notifications/notification-module.ts';
import type { NotificationService } from './features/notifications/notification-service.ts';
import { createPhotoModule } from './features/photos/photo-module.ts';
import type { PhotoStore } from './features/photos/photo-store.ts';
import { createProfileModule } from './features/profiles/profile-module.ts';
import { createPushModule } from './features/push/push-module.ts';
import type { PushService } from './features/push/push-service.ts';
import { type OpenSessionModule, registerOpenSessions } from './features/open-sessions/open-session-module.ts';
import type { OpenSessionService } from './features/open-sessions/open-session-service.ts';
import { type QuedadaModule, registerQuedadas } from './features/quedadas/quedada-module.ts';
import { registerSafety } from './features/safety/safety-module.ts';
import { createSecurityModule } from './features/security/security-module.ts';
import { createSettingsModule } from './features/settings/settings-module.ts';
import type { SettingsService } from './features/settings/settings-service.ts';
import { createSwipeModule } from './features/swipes/swipe-module.ts';
import { createVerificationModule } from './features/verification/verification-module.ts';
import { type Clock, systemClock } from './infra/clock.ts';
import type { InvalidationBus } from './infra/invalidation-bus.ts';
import type { RateLimiter } from './infra/rate-limit.ts';
import { openApiPlugin } from './openapi/openapi-plugin.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { guardSocketInput, inputGuardPlugin } from './plugins/input-guard.ts';
import { jsonBodyPlugin } from './plugins/json-body.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { capSocketsPerUser, type Realtime } from './plugins/realtime.ts';
import { attachSocketAuth, createRevocationBroadcaster } from './plugins/realtime-auth.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { attachSocketBudgets } from './plugins/socket-budgets.ts';
import { inlineStyleHashes, staticPwaPlugin } from './plugins/static-pwa.ts';
import { deriveServerKeys } from './secrets.ts';
import { type DemoSeeder, seedDemoOnFirstStart } from './tools/demo-start.ts';
import { openFoundation } from './app-foundation.ts';

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
  notifications: { notifications: NotificationService; push: PushService; settings: SettingsService };
  /**
   * The chat's notification work after acknowledgements (tests wait on it), and its group
   * conversations (docs/decisions/0056: the open-sessions feature and tests make them).
   */
  chat: Pick<ChatModule, 'whenDelivered' | 'groups'>;
  /** The dev outbox; undefined in production. */
  outbox: Outbox | undefined;
  /** `/api/ready`'s checks; `markDraining()` makes it answer 503 before a graceful stop. */
  readiness: ReadinessProbe;
  /** Quedadas: the service (tests run its job runner by hand with their clock). */
  quedadas: QuedadaModule['quedadas'];
  openSessions: OpenSessionService;
  /** Sharing open sessions (tests run its check-in pass by hand with their clock). */
  openSessionShares: OpenSessionModule['shares'];
  /** The moderation console's service (tests run its sweep by hand with their clock). */
  moderation: ModerationModule['moderation'];
  /** This node's deck candidate index (docs/decisions/0022); undefined when DECK_INDEX=0. */
  deckIndex: LiveDeckIndex | undefined;
  /** The graceful drain: stops accepting, finishes requests, ends sockets, then closes the database and Redis. */
  close(): Promise<void>;
};

/** What tests replace, and how main.ts's built server seeds the demo data. */
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
  /**
   * How a first start seeds the demo data (config.demoData): main.ts's built server does it in a
   * child process (`seedDemoInChildProcess`); in process otherwise (tests, an in-memory store).
   */
  seedDemo?: DemoSeeder;
};

/** Builds the whole server: database (migrated), HTTP routes, Socket.IO and the static PWA. */
export async function buildApp(config: Config, dependencies: AppDependencies = {}): Promise<App> {
  const clock = dependencies.clock ?? systemClock;
  const foundation = await openFoundation(config, { ...dependencies, clock });
  const { http, database, realtime, redis, bus, limiter, outbox, smsChannel, emailChannel, sharedSecrets } = foundation;
  const serverKeys = deriveServerKeys(foundation.tokenSecret);
  const db = database.db;
  const { io } = realtime;
  const logger = http.log;
  const isProduction = config.env === 'production';

  // The features, each assembled by its module; a module hands its services to the ones after it.
  const settings = createSettingsModule({ db, clock });
  const push = await createPushModule({ config, db, io, clock, logger, settings: settings.settings, sharedSecrets });
  const notifications = createNotificationModule({
    db,
    io,
    clock,
    logger,
    push: push.push,
    settings: settings.settings,
    hasDevRoutes: !isProduction,
  });
  // Suspended and banned accounts are refused on every way in (docs/decisions/0033, 0043).
  const appeals = createAppeals({ db, clock, key: serverKeys.token });
  const auth = await createAuthModule({
    db,
    limiter,
    clock,
    logger,
    keys: serverKeys,
    sms: smsChannel,
    email: emailChannel,
    publicOrigin: config.publicOrigin,
    smsBlockedNumbers: config.smsBlockedNumbers,
    smsDailyBudget: config.smsDailyBudget,
    smsDailyBudgetPerNumber: config.smsDailyBudgetPerNumber,
    smsDailyBudgetPerAddress: config.smsDailyBudgetPerAddress,
    onSessionsRevoked: createRevocationBroadcaster(io),
    bus,
    hooks: notifications.authHooks(dependencies.authHooks),
    hashPolicy: dependencies.hashPolicy,
    restrictions: {
      assertNotRestricted: (userId) => appeals.assertMaySignIn(userId),
      isRestricted: (userId) => appeals.isRestricted(userId),
    },
    // Late-bound: the second step is built on auth's sessions just below.
    secondStep: {
      finishFirstStep: (userId, options) => security.secondStep.finishFirstStep(userId, options),
      forgetDevices: (userId) => security.secondStep.forgetDevices(userId),
      isSecondStepOn: (userId) => security.isSecondStepOn(userId),
    },
  });
  const security = createSecurityModule({
    db,
    limiter,
    clock,
    logger,
    keys: serverKeys,
    publicOrigin: config.publicOrigin,
    auth: {
      users: auth.userRepository,
      hasher: auth.hasher,
      sessions: auth.sessions,
      smsCodes: auth.smsCodes,
      gate: auth.gate,
    },
  });
  attachSocketAuth(io, { sessions: auth.sessions, clock, logger });
  capSocketsPerUser(io, config.socketsPerUser);
  // Budgets first: an event over budget costs nothing more, not even the input guard's walk.
  attachSocketBudgets(io, { logger });
  guardSocketInput(io);
  const google = await createGoogleModule({
    config: config.google,
    isProduction,
    auth: {
      users: auth.users,
      sessions: auth.sessions,
      gate: auth.gate,
      secondStep: security.secondStep,
      smsCodes: auth.smsCodes,
      notifyRegistered: auth.auth.notifyRegistered,
    },
    limiter,
    logger,
  });
  const health = createHealthModule({
    db,
    health: (): Health => ({ status: 'ok', database: database.kind, realtime: realtime.kind, mode: config.env }),
    redisPings: redis ? [() => (redis as Redis).ping()] : [],
  });

  await http.register(errorsPlugin);
  await http.register(jsonBodyPlugin);
  // The OpenAPI document of /api, outside production (docs/deploy.md).
  if (!isProduction) await http.register(openApiPlugin);
  await http.register(metricsPlugin, {
    io,
    databaseClient: (db as { $client?: unknown }).$client,
    pushQueueDepth: () => push.push.depth(),
    token: config.metricsToken,
  });
  await http.register(inputGuardPlugin);
  await http.register(securityHeadersPlugin, {
    isProduction,
    publicOrigin: config.publicOrigin,
    inlineStyleHashes: inlineStyleHashes(config.clientDir),
  });
  await registerDev(http, { isOpenToNetwork: config.areDevRoutesOpenToNetwork, outbox });
  await http.register(authPlugin, { sessions: auth.sessions });
  await health.register(http);
  await auth.register(http);
  await security.register(http, { isSecure: config.publicOrigin.startsWith('https:') });
  await google.register(http);
  await notifications.register(http);
  await push.register(http);
  await settings.register(http);
  // Chat and sync (spec 001 §7; docs/decisions/0009, 0010): messages notify through the notifications
  // service, and each new match reaches the chat through the swipes feature's events port.
  const chat = await registerChat(http, {
    db,
    io,
    clock,
    limiter,
    notifier: notifications.notifications,
    bus,
    isSoleNode: !config.redisUrl,
  });
  // Verified profiles (issue #23 part 2, docs/decisions/0034): new photos pause a verified badge.
  const verification = createVerificationModule({
    db,
    clock,
    limiter,
    logger,
    notifications: notifications.notifications,
  });
  // Profiles, photos, gym search, the deck, swipes and matches (spec 001).
  const isShownToOthers = async (userId: string) => (await settings.settings.get(userId)).privacy.showProfile;
  const privacyOf = settings.settings.privacyOf;
  const gyms = await createGymModule({ db, logger });
  const profiles = createProfileModule({
    db,
    clock,
    logger,
    limiter,
    afterWrite: (userIds) => discovery.refresh(userIds),
    rememberGym: gyms.gyms.remember,
    discardPhotos: (keys) => photos.photos.discard(keys),
    isShownToOthers,
    privacyOf,
  });
  const photos = createPhotoModule({
    db,
    config,
    clock,
    logger,
    limiter,
    profiles: profiles.repository,
    photoStore: dependencies.photoStore,
    onPhotosAdded: (userId) => verification.verification.photosAdded(userId),
  });
  const discovery = createDiscoveryModule({
    db,
    config,
    clock,
    logger,
    profiles: profiles.repository,
    privacyOf,
    bus,
  });
  const swipes = createSwipeModule({
    db,
    io,
    clock,
    logger,
    limiter,
    profiles: profiles.repository,
    privacyOf,
    matchEvents: chat.matchEvents,
    notifications: notifications.notifications,
  });
  // The demo data on a first embedded start (config.demoData), before the deck index loads.
  if (config.demoData) await (dependencies.seedDemo ?? seedDemoOnFirstStart)(db, photos.photoStore, logger);
  await discovery.register(http);
  await profiles.register(http);
  await photos.register(http);
  await gyms.register(http);
  await swipes.register(http);
  await verification.register(http);
  // "Perfil visible" in settings really takes the profile out of every deck (spec 001 §2, /config).
  settings.settings.onChange(async (userId, changed, patch) => {
    if (patch.privacy?.showProfile !== undefined) {
      await profiles.profiles.setShownToOthers(userId, changed.privacy.showProfile);
    }
  });
  // Blocks, reports, data export and account deletion (docs/decisions/0012).
  await registerSafety(http, {
    db,
    realtime: chat.realtime,
    clock,
    limiter,
    sessions: auth.sessions,
    hasher: auth.hasher,
    discardPhotos: photos.photos.discard,
    bus,
    // Reports of an open session or a group chat, and blocks between a session's host and member
    // (docs/decisions/0056, session 17); the open sessions are registered below, so per call.
    contexts: {
      openSessionHost: (userId, sessionId) => openSessions.sessions.reportHost(userId, sessionId),
      groupReport: chat.groupReports.groupReport,
    },
    afterBlock: (blockerId, blockedId) => openSessions.sessions.afterBlock(blockerId, blockedId),
  });
  // The moderation console's API (issue #23, docs/decisions/0033): 404 to everyone but moderators.
  const moderation = await registerModeration(http, {
    db,
    realtime: chat.realtime,
    clock,
    bus,
    appeals,
    revokeAllSessions: (userId) => auth.sessions.revokeAllSessions(userId, 'revoked'),
    notify: async (userId, notice) => {
      await notifications.notifications.notifySystem(userId, notice);
    },
    sections: [verification.moderationSection],
  });
  // Quedadas (issue #21, docs/decisions/0029): planned sessions in the chat, their reminders and record.
  const quedadas = await registerQuedadas(http, {
    db,
    realtime: chat.realtime,
    clock,
    limiter,
    notifier: notifications.notifications,
    settings: settings.settings,
    publicOrigin: config.publicOrigin,
    hasDevRoutes: !isProduction,
    bus,
    // What the person's open sessions add to their reliability («¿Quién vino?», docs/decisions/0055);
    // called per request, once the open sessions below are registered.
    openSessionRecord: (userId) => openSessions.sessions.attendanceRecord(userId),
    // The page of an open session's share (docs/decisions/0054, session 17), at the same address.
    sessionSharePage: (tokenHash, now) => openSessions.shares.page(tokenHash, now),
  });
  // Open sessions («Entrenos abiertos», issue #35, docs/decisions/0055): the host's requesters
  // show their reliability only when they let their matches see it.
  const openSessions = await registerOpenSessions(http, {
    db,
    publicOrigin: config.publicOrigin,
    realtime: chat.realtime,
    // Each session's group conversation (docs/decisions/0056).
    groupChat: chat.groups,
    // «Conectar» after a session makes a match, announced as a mutual like's.
    matches: swipes.announce,
    clock,
    limiter,
    notifier: notifications.notifications,
    hasDevRoutes: !isProduction,
    privacyOf,
    reliabilityOf: async (userId) =>
      (await settings.settings.get(userId)).quedadas.showReliability
        ? quedadas.quedadas.reliability(userId, userId)
        : null,
  });
  await http.register(staticPwaPlugin, { clientDir: config.clientDir });
  notifications.start();
  quedadas.start();
  openSessions.start();
  moderation.start();
  auth.start();
  const readiness = health.readiness;

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
    notifications: {
      notifications: notifications.notifications,
      push: push.push,
      settings: settings.settings,
    },
    quedadas: quedadas.quedadas,
    openSessions: openSessions.sessions,
    openSessionShares: openSessions.shares,
    close() {
      closing ??= (async () => {
        // The graceful drain (docs/decisions/0024): readiness fails; no new connection is accepted
        // (idle keep-alive ones end); requests under way finish; then the sockets end at the
        // transport, so clients reconnect through the balancer to another node and replay their
        // outbox; only then the database and Redis close.
        readiness.markDraining();
        const stopped = http.close();
        await foundation.requestsInFlight.idle();
        await realtime.close();
        http.server.closeAllConnections();
        await stopped;
        await quedadas.close();
        await openSessions.close();
        await moderation.close();
        await chat.close();
        await notifications.close();
        await push.close();
        await auth.close();
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
