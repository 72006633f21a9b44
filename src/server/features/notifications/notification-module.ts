import type { FastifyInstance } from 'fastify';
import type { Server } from 'socket.io';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../infra/clock.ts';
import type { Logger } from '../../logger.ts';
import type { AuthHooks } from '../auth/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { createNotificationRepository } from './notification-repository.ts';
import { createUserEvents } from './notification-realtime.ts';
import { devNotificationRoutes, notificationRoutes } from './notification-routes.ts';
import { createNotificationService, type NotificationService, type PushPort } from './notification-service.ts';

/** How often each node looks for streak reminders to send (the claim in the database dedupes nodes). */
const STREAK_REMINDER_INTERVAL_MS = 5 * 60_000;

export type NotificationModule = {
  /** `notify(userId, input)` and its shorthands: what matches, chat and others call. */
  notifications: NotificationService;
  /** The auth hooks with the welcome notification first, then the given ones (tests add theirs). */
  authHooks(extra?: AuthHooks): AuthHooks;
  /** `/api/notifications` (and `/api/dev/notifications` outside production). */
  register(http: FastifyInstance): Promise<void>;
  /** Starts the streak-reminder interval. */
  start(): void;
  /** Stops the interval and waits for a round under way. */
  close(): Promise<void>;
};

/** Notifications (spec 001 §8): stored, sent to `user:<id>` on every node, pushed, reminded. */
export function createNotificationModule(deps: {
  db: Database;
  io: Server;
  clock: Clock;
  logger: Logger;
  /** Web push (the push feature's service implements this port). */
  push: PushPort;
  settings: SettingsService;
  hasDevRoutes: boolean;
}): NotificationModule {
  const { logger } = deps;
  const notifications = createNotificationService({
    notifications: createNotificationRepository(deps.db),
    realtime: createUserEvents(deps.io),
    push: deps.push,
    settings: deps.settings,
    clock: deps.clock,
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
    async register(http) {
      await http.register(
        async (api) => {
          await api.register(notificationRoutes, { prefix: '/notifications', notifications });
          if (deps.hasDevRoutes) await api.register(devNotificationRoutes, { prefix: '/dev', notifications });
        },
        { prefix: '/api' },
      );
    },
    start() {
      timer ??= setInterval(runReminders, STREAK_REMINDER_INTERVAL_MS);
      timer.unref();
    },
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
