import { createHash } from 'node:crypto';
import { NOTIFICATION_MESSAGES } from '#shared/notifications/notification-messages';
import type { PushSubscriptionRequest } from '#shared/notifications/push-schemas';
import type { NotificationSwitch } from '#shared/settings/settings-schema';
import type { Clock } from '../../infra/clock.ts';
import type { WebPushChannel } from '../../delivery/web-push-channel.ts';
import { badRequest } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { PushMessage, PushPort } from '../notifications/index.ts';
import { isAllowedPushEndpoint } from './push-config.ts';
import type { PushRepository } from './push-repository.ts';

/** A user keeps at most this many browsers subscribed; saving one more drops the oldest. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;

export type PushServiceDeps = {
  subscriptions: PushRepository;
  channel: WebPushChannel;
  presence: { hasVisibleClient(userId: string): Promise<boolean> };
  settings: { get(userId: string): Promise<{ notifications: Record<NotificationSwitch, boolean> }> };
  publicKey: string;
  endpointAllowlist: readonly string[];
  clock: Clock;
  logger: Logger;
  /** Users whose pushes are being worked on at once (each sends to its few browsers in parallel). */
  concurrency?: number;
  /** Deliveries waiting beyond this are dropped (and logged) rather than piling up in memory. */
  maxQueued?: number;
};

export type PushService = ReturnType<typeof createPushService> & PushPort;

/** The push `Topic` header: ≤ 32 URL-safe characters, the same for the same tag. */
export function pushTopic(tag: string): string {
  return createHash('sha256').update(tag).digest('base64url').slice(0, 32);
}

/**
 * Web push (QUALITY 17, 22): subscriptions per browser, and deliveries that never hold up a
 * request — `deliver` queues and returns at once; a bounded pool of workers checks the user's
 * switch and visibility, sends with the channel's time-out, and deletes subscriptions the push
 * service reports gone.
 */
export function createPushService(deps: PushServiceDeps) {
  const { subscriptions, channel, logger, clock } = deps;
  const concurrency = deps.concurrency ?? 16;
  const maxQueued = deps.maxQueued ?? 5000;
  // One user's pushes go out one after another, in the order they were made (a newer push under the
  // same Topic must reach the device after the one it replaces); different users' in parallel.
  const pending = new Map<string, PushMessage[]>();
  const ready: string[] = [];
  let queued = 0;
  let running = 0;
  let idleWaiters: Array<() => void> = [];
  let isClosed = false;

  const pump = () => {
    while (running < concurrency && ready.length > 0) {
      const userId = ready.shift() as string;
      const messages = pending.get(userId) as PushMessage[];
      const message = messages.shift() as PushMessage;
      queued -= 1;
      running += 1;
      void sendToUser(userId, message)
        .catch((error) => logger.error({ err: error }, 'push: delivery failed'))
        .finally(() => {
          running -= 1;
          if (messages.length > 0) ready.push(userId);
          else pending.delete(userId);
          pump();
        });
    }
    if (running === 0 && queued === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  };

  /** Cheapest check first: most users have no subscription, and then nothing else is read. */
  const sendToUser = async (userId: string, message: PushMessage) => {
    const targets = await subscriptions.listForUser(userId);
    if (targets.length === 0) return;
    if (message.setting) {
      const settings = await deps.settings.get(userId);
      if (!settings.notifications[message.setting]) return;
    }
    if (await deps.presence.hasVisibleClient(userId)) return;
    const payload = JSON.stringify(message.payload);
    const topic = pushTopic(message.payload.tag);
    await Promise.all(
      targets.map(async (target) => {
        const result = await channel.send(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          payload,
          { ttlSeconds: message.ttlSeconds, topic, urgency: message.urgency },
        );
        if (result.status === 'gone') {
          await subscriptions.deleteGone(target.id, target.updatedAt);
          logger.info({ userId, statusCode: result.statusCode }, 'push: subscription gone, deleted');
        } else if (result.status === 'failed') {
          logger.warn({ userId, statusCode: result.statusCode, reason: result.reason }, 'push: delivery failed');
        }
      }),
    );
  };

  return {
    /** The VAPID public key browsers subscribe with (`applicationServerKey`). */
    publicKey: (): string => deps.publicKey,

    /** Saves (or re-saves) this browser's subscription for the user; the endpoint must be a known push service. */
    async subscribe(userId: string, subscription: PushSubscriptionRequest): Promise<void> {
      if (!isAllowedPushEndpoint(subscription.endpoint, deps.endpointAllowlist)) {
        throw badRequest(NOTIFICATION_MESSAGES.endpointNotAllowed, 'PUSH_ENDPOINT_NOT_ALLOWED');
      }
      const expiration = subscription.expirationTime;
      await subscriptions.upsert({
        userId,
        endpoint: subscription.endpoint,
        p256dh: subscription.keys.p256dh,
        auth: subscription.keys.auth,
        expirationTime: typeof expiration === 'number' ? new Date(expiration) : null,
        now: clock.now(),
      });
      await subscriptions.trimForUser(userId, MAX_SUBSCRIPTIONS_PER_USER);
    },

    /** Forgets this browser's subscription (logout, or the user turned push off); idempotent. */
    async unsubscribe(userId: string, endpoint: string): Promise<void> {
      await subscriptions.deleteOwned(userId, endpoint);
    },

    /** Queues a push for a user and returns at once; never throws. */
    deliver(userId: string, message: PushMessage): void {
      // The notification's own statement saw no subscription: nowhere to send, nothing to read.
      if (isClosed || message.hasSubscription === false) return;
      if (queued >= maxQueued) {
        logger.warn({ userId, queued }, 'push: queue full, push dropped');
        return;
      }
      queued += 1;
      const messages = pending.get(userId);
      if (messages) {
        messages.push(message); // sent when the user's earlier push is done
      } else {
        pending.set(userId, [message]);
        ready.push(userId);
      }
      pump();
    },

    /** Pushes queued or being sent (the metrics' queue depth). */
    depth(): number {
      return queued + running;
    },

    /** Resolves when every queued push has been handled (tests, shutdown). */
    whenIdle(): Promise<void> {
      if (running === 0 && queued === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },

    /** Stops taking pushes and waits for those under way (each bounded by the channel's time-out). */
    async close(): Promise<void> {
      isClosed = true;
      for (const messages of pending.values()) messages.length = 0;
      pending.clear();
      ready.length = 0;
      queued = 0;
      if (running > 0) await new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
  };
}
