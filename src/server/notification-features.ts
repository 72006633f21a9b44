import type { FastifyInstance } from 'fastify';
import type { Server } from 'socket.io';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createWebPushChannel, type WebPushChannel } from './delivery/web-push-channel.ts';
import type { AuthHooks } from './features/auth/auth-service.ts';
import { createNotificationRepository } from './features/notifications/notification-repository.ts';
import { attachPresence, createPresence, createUserEvents } from './features/notifications/notification-realtime.ts';
import { devNotificationRoutes, notificationRoutes } from './features/notifications/notification-routes.ts';
import { createNotificationService, type NotificationService } from './features/notifications/notification-service.ts';
import { createPushRepository } from './features/push/push-repository.ts';
import { pushRoutes } from './features/push/push-routes.ts';
import { createPushService, type PushService } from './features/push/push-service.ts';
import { resolveVapidKeys } from './features/push/vapid-keys.ts';
import { createSettingsRepository } from './features/settings/settings-repository.ts';
import { settingsRoutes } from './features/settings/settings-routes.ts';
import { createSettingsService, type SettingsService } from './features/settings/settings-service.ts';
import type { Logger } from './logger.ts';
import type { SharedSecretStore } from './secrets-repository.ts';

/** How often each node looks for streak reminders to send (the claim in the database dedupes nodes). */
const STREAK_REMINDER_INTERVAL_MS = 5 * 60_000;

export type NotificationFeatures = {
  /** `notify(userId, input)` and its shorthands: what matches, chat and others call. */
  notifications: NotificationService;
  push: PushService;
  /** `get(userId)`: the user's complete settings, for any feature that needs them. */
  settings: SettingsService;
  /** The auth hooks with the welcome notification first, then the given ones (tests add theirs). */
  authHooks(extra?: AuthHooks): AuthHooks;
  /** The calls under /api: /notifications, /push, /settings (and /dev/notifications outside production). */
  routes(api: FastifyInstance): Promise<void>;
  /** Starts the streak-reminder interval. */
  start(): void;
  /** Stops the interval and waits for pushes under way. */
  close(): Promise<void>;
};

/** Notifications, web push and settings, wired to the database, Socket.IO and the push channel. */
export async function createNotificationFeatures(deps: {
  config: Config;
  db: Database;
  io: Server;
  clock: Clock;
  logger: Logger;
  /** With DATABASE_URL: where the generated VAPID pair is shared between nodes. */
  sharedSecrets?: SharedSecretStore | undefined;
  /** Tests only: a channel other than real Web Push. */
  webPushChannel?: WebPushChannel;
}): Promise<NotificationFeatures> {
  const { config, db, io, clock, logger } = deps;
  const vapidKeys = await resolveVapidKeys(config.push, {
    dataDir: config.dataDir,
    inMemory: config.inMemoryDatabase,
    shared: deps.sharedSecrets,
  });
  const settings = createSettingsService({ settings: createSettingsRepository(db), clock });
  attachPresence(io);
  const push = createPushService({
    subscriptions: createPushRepository(db),
    channel:
      deps.webPushChannel ??
      createWebPushChannel({
        vapid: { ...vapidKeys, subject: config.push.vapidSubject },
        timeoutMs: config.push.sendTimeoutMs,
      }),
    presence: createPresence(io, logger),
    settings,
    publicKey: vapidKeys.publicKey,
    endpointAllowlist: config.push.endpointAllowlist,
    clock,
    logger,
  });
  const notifications = createNotificationService({
    notifications: createNotificationRepository(db),
    realtime: createUserEvents(io),
    push,
    settings,
    clock,
    logger,
  });

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const runReminders = () => {
    if (running) return;
    running = notifications
      .sendStreakReminders()
      .catch((error) => logger.error({ err: error }, 'notifications: streak reminders failed'))
      .finally(() => {
        running = undefined;
      });
  };

  return {
    notifications,
    push,
    settings,
    authHooks: (extra) => ({
      async onUserRegistered(user) {
        try {
          await notifications.welcome({ userId: user.userId, name: user.name });
        } catch (error) {
          logger.error({ err: error, userId: user.userId }, 'notifications: welcome failed');
        }
        await extra?.onUserRegistered?.(user);
      },
    }),
    async routes(api) {
      await api.register(notificationRoutes, { prefix: '/notifications', notifications });
      await api.register(pushRoutes, { prefix: '/push', push });
      await api.register(settingsRoutes, { prefix: '/settings', settings });
      if (config.env !== 'production') await api.register(devNotificationRoutes, { prefix: '/dev', notifications });
    },
    start() {
      timer ??= setInterval(runReminders, STREAK_REMINDER_INTERVAL_MS);
      timer.unref();
    },
    async close() {
      clearInterval(timer);
      await running;
      await push.close();
    },
  };
}
