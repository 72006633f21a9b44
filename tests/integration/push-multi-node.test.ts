// @setup scaled — push delivery across two nodes
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '#shared/notifications/notification-schemas';
import { resolvePushConfig } from '../../src/server/features/push/push-config.ts';
import { createApi } from '../helpers/auth-api.ts';
import { type PushServiceStandIn, startPushServiceStandIn } from '../helpers/push-service-stand-in.ts';
import { connectSocket, nextEvent } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

/** Notifications and push across two nodes on one PostgreSQL and one Redis (QUALITY 16). */
describe.runIf(isScaled)('notifications and push on two nodes', () => {
  let standIn: PushServiceStandIn;
  let nodeA: TestApp;
  let nodeB: TestApp;

  beforeAll(async () => {
    standIn = await startPushServiceStandIn();
    // Scaled nodes share their VAPID keys through configuration.
    const keys = webpush.generateVAPIDKeys();
    const push = resolvePushConfig(
      { PUSH_ENDPOINT_ALLOWLIST: standIn.origin, VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey },
      { isProduction: false, publicOrigin: 'http://localhost' },
    ).config;
    nodeA = await startTestApp({ push });
    nodeB = await startTestApp({
      push,
      databaseUrl: nodeA.config.databaseUrl,
      tokenSecret: nodeA.config.tokenSecret,
      redisKeyPrefix: nodeA.config.redisKeyPrefix,
    });
  });
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
    await standIn?.close();
  });

  it('sees a client made visible on another node, and tells its sockets there', async () => {
    const a = createApi(nodeA);
    const account = await a.registerUser();
    const { token } = await a.login(account.email);
    const subscription = standIn.createSubscription();
    expect(
      (await a.post('/push/subscriptions', { endpoint: subscription.endpoint, keys: subscription.keys }, token)).status,
    ).toBe(201);
    const socket = await connectSocket(nodeB, { token });
    try {
      await socket.emitWithAck('presence:visible');
      const arriving = nextEvent<Notification>(socket, 'notification');
      const created = await nodeA.notifications.notifications.notifySystem(account.userId, { title: 'A', body: 'a' });
      expect((await arriving)._id).toBe(created._id);
      await nodeA.notifications.push.whenIdle();
      expect(standIn.requestsFor(subscription.id)).toBe(0);

      await socket.emitWithAck('presence:hidden');
      await nodeA.notifications.notifications.notifySystem(account.userId, { title: 'B', body: 'b' });
      await nodeA.notifications.push.whenIdle();
      expect(standIn.received.map((push) => push.subscriptionId)).toEqual([subscription.id]);
      expect(standIn.rejected).toEqual([]);
    } finally {
      socket.close();
    }
  });
});
