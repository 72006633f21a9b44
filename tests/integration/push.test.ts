// @setup embedded
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '#shared/notifications/notification-schemas';
import type { PushPayload } from '#shared/notifications/push-schemas';
import { resolvePushConfig } from '../../src/server/features/push/push-config.ts';
import { pushTopic } from '../../src/server/features/push/push-service.ts';
import { type Api, createApi } from '../helpers/auth-api.ts';
import { type PushServiceStandIn, startPushServiceStandIn } from '../helpers/push-service-stand-in.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

// Long enough that a loaded host checks the stuck push before it is abandoned (the test waits it out once).
const SEND_TIMEOUT_MS = 5000;

describe('web push (QUALITY 12, 17, 22)', () => {
  let standIn: PushServiceStandIn;
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    standIn = await startPushServiceStandIn();
    const push = resolvePushConfig(
      { PUSH_ENDPOINT_ALLOWLIST: standIn.origin, VAPID_SUBJECT: 'mailto:push@entreno.example' },
      { isProduction: false, publicOrigin: 'http://localhost' },
    );
    expect(push.problems).toEqual([]);
    app = await startTestApp({ push: { ...push.config, sendTimeoutMs: SEND_TIMEOUT_MS } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
    await standIn?.close();
  });
  afterEach(() => {
    expect(standIn.rejected, 'requests the stand-in refused').toEqual([]);
  });

  const signIn = async () => {
    const account = await api.registerUser();
    const { token } = await api.login(account.email);
    return { ...account, token };
  };
  const subscribe = async (token: string) => {
    const subscription = standIn.createSubscription();
    const response = await api.post(
      '/push/subscriptions',
      { endpoint: subscription.endpoint, keys: subscription.keys },
      token,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return subscription;
  };
  const devNotify = (token: string, body: Record<string, unknown> = {}) =>
    api.post('/dev/notifications', { type: 'system', title: 'Aviso', body: 'Hola', ...body }, token);
  const pushesFor = (subscriptionId: string) =>
    standIn.received.filter((push) => push.subscriptionId === subscriptionId);
  const idle = () => app.notifications.push.whenIdle();

  it('publishes the VAPID public key', async () => {
    const response = await api.get('/push/public-key');
    expect(response.status).toBe(200);
    const publicKey = response.body.publicKey as string;
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect((await api.get('/push/public-key')).body.publicKey).toBe(publicKey);
  });

  it('delivers a message push encrypted, signed, with its tag, url, TTL, Topic and Urgency', async () => {
    const user = await signIn();
    const subscription = await subscribe(user.token);
    const before = standIn.received.length;
    const notification = await app.notifications.notifications.notifyMessage(user.userId, {
      conversationId: '3f1c9f3e-7d2a-4d7e-9a51-2c4b8f0e6a11',
      senderName: 'Ana',
      preview: `¿Entrenamos mañana a las 7? ${'Mucho texto. '.repeat(20)}`,
    });
    const [push] = (await standIn.waitForPushes(before + 1)).slice(before);
    expect(push?.subscriptionId).toBe(subscription.id);
    const payload = push?.payload as PushPayload;
    expect(payload).toMatchObject({
      type: 'message',
      title: 'Nuevo mensaje de Ana',
      url: '/messages/3f1c9f3e-7d2a-4d7e-9a51-2c4b8f0e6a11',
      tag: 'conversation:3f1c9f3e-7d2a-4d7e-9a51-2c4b8f0e6a11',
      notificationId: notification._id,
      badgeCount: 2,
    });
    expect(Array.from(payload.body).length).toBeLessThanOrEqual(120);
    expect(payload.body.startsWith('¿Entrenamos mañana a las 7?')).toBe(true);
    expect(push?.ttl).toBe(String(24 * 3600));
    expect(push?.urgency).toBe('high');
    expect(push?.topic).toBe(pushTopic('conversation:3f1c9f3e-7d2a-4d7e-9a51-2c4b8f0e6a11'));
    expect(push?.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(push?.contentEncoding).toBe('aes128gcm');
    expect(push?.vapid).toMatchObject({ aud: standIn.origin, sub: 'mailto:push@entreno.example' });
    expect(push?.vapidKey).toBe((await api.get('/push/public-key')).body.publicKey);
  });

  it('collapses pushes of one conversation under one tag and topic', async () => {
    const user = await signIn();
    const subscription = await subscribe(user.token);
    const service = app.notifications.notifications;
    await service.notifyMessage(user.userId, { conversationId: 'c-77', senderName: 'Leo', preview: 'uno' });
    await service.notifyMessage(user.userId, { conversationId: 'c-77', senderName: 'Leo', preview: 'dos' });
    await idle();
    const pushes = pushesFor(subscription.id);
    expect(pushes).toHaveLength(2);
    expect(new Set(pushes.map((push) => (push.payload as PushPayload).tag))).toEqual(new Set(['conversation:c-77']));
    expect(new Set(pushes.map((push) => push.topic)).size).toBe(1);
    expect((pushes[1]?.payload as PushPayload | undefined)?.body).toBe('2 mensajes nuevos de Leo');
  });

  it('pushes other notifications with normal urgency and their own target', async () => {
    const user = await signIn();
    const subscription = await subscribe(user.token);
    const response = await devNotify(user.token, { type: 'system', title: 'Mantenimiento', body: 'Esta noche' });
    expect(response.status).toBe(201);
    const notification = response.body.notification as Notification;
    await idle();
    const [push] = pushesFor(subscription.id);
    expect(push?.urgency).toBe('normal');
    expect(push?.payload).toMatchObject({
      type: 'system',
      url: '/notifications',
      tag: `notification:${notification._id}`,
      notificationId: notification._id,
    });
    const match = await app.notifications.notifications.notifyMatch(user.userId, {
      conversationId: 'conv-match',
      otherName: 'Sara',
    });
    await idle();
    expect(pushesFor(subscription.id)[1]?.payload).toMatchObject({
      type: 'match',
      url: '/messages/conv-match',
      notificationId: match._id,
    });
    expect(pushesFor(subscription.id)[1]?.urgency).toBe('high');
  });

  it('saves one subscription per browser, re-saves it, moves it between accounts, and deletes it', async () => {
    const first = await signIn();
    const second = await signIn();
    const subscription = await subscribe(first.token);
    // The same browser again with fresh keys: still one subscription, now with the new keys.
    const renewed = standIn.createSubscription();
    expect(
      (
        await api.post(
          '/push/subscriptions',
          { endpoint: subscription.endpoint, keys: renewed.keys, expirationTime: null },
          first.token,
        )
      ).status,
    ).toBe(201);
    await devNotify(first.token);
    await idle();
    // Encrypted for the new keys: the stand-in could only decrypt with the old ones, so it refuses it.
    expect(standIn.rejected).toHaveLength(1);
    standIn.clearRejected();
    await api.post('/push/subscriptions', { endpoint: subscription.endpoint, keys: subscription.keys }, first.token);

    // Another account signs in on that browser: the subscription is theirs now.
    expect(
      (
        await api.post(
          '/push/subscriptions',
          { endpoint: subscription.endpoint, keys: subscription.keys },
          second.token,
        )
      ).status,
    ).toBe(201);
    const before = pushesFor(subscription.id).length;
    await devNotify(first.token);
    await devNotify(second.token, { title: 'Para el segundo' });
    await idle();
    const after = pushesFor(subscription.id).slice(before);
    expect(after.map((push) => (push.payload as PushPayload).title)).toEqual(['Para el segundo']);

    // Only its owner removes it.
    expect(
      (
        await api.call('DELETE', '/push/subscriptions', {
          token: first.token,
          body: { endpoint: subscription.endpoint },
        })
      ).status,
    ).toBe(200);
    await devNotify(second.token);
    await idle();
    expect(pushesFor(subscription.id).length).toBe(before + 2);
    expect(
      (
        await api.call('DELETE', '/push/subscriptions', {
          token: second.token,
          body: { endpoint: subscription.endpoint },
        })
      ).body,
    ).toEqual({ success: true });
    await devNotify(second.token);
    await idle();
    expect(pushesFor(subscription.id).length).toBe(before + 2);
  });

  it('refuses endpoints outside the known push services, and malformed subscriptions', async () => {
    const user = await signIn();
    const keys = standIn.createSubscription().keys;
    const refuse = async (body: unknown, message: string) => {
      const response = await api.post('/push/subscriptions', body, user.token);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body).toMatchObject({ success: false, message });
    };
    const notAllowed = 'La dirección de la suscripción push no pertenece a un servicio de notificaciones conocido';
    for (const endpoint of [
      'http://169.254.169.254/latest/meta-data/',
      'http://127.0.0.1:6379/',
      'https://evil.example/push/1',
      'https://fcm.googleapis.com.evil.example/fcm/send/1',
      'http://fcm.googleapis.com/fcm/send/1',
      'https://fcm.googleapis.com:8443/fcm/send/1',
      'https://user:pass@fcm.googleapis.com/fcm/send/1',
      'https://notify.windows.com/w/1',
      `${standIn.origin.replace('127.0.0.1', 'localhost')}/push/1`,
    ]) {
      await refuse({ endpoint, keys }, notAllowed);
    }
    const invalidEndpoint = 'La dirección de la suscripción push no es válida';
    await refuse({ endpoint: 'not a url', keys }, invalidEndpoint);
    await refuse({ endpoint: `https://fcm.googleapis.com/${'a'.repeat(3000)}`, keys }, invalidEndpoint);
    await refuse({ keys }, invalidEndpoint);
    const invalidKeys = 'Las claves de la suscripción push no son válidas';
    const endpoint = `${standIn.origin}/push/${crypto.randomUUID()}`;
    await refuse({ endpoint, keys: { ...keys, p256dh: 'abc' } }, invalidKeys);
    await refuse({ endpoint, keys: { ...keys, auth: Buffer.alloc(32).toString('base64url') } }, invalidKeys);
    await refuse({ endpoint, keys: { p256dh: keys.p256dh } }, invalidKeys);
    await refuse({ endpoint, keys, extra: true }, invalidEndpoint);
    await refuse(
      { endpoint, keys, expirationTime: 'mañana' },
      'La fecha de caducidad de la suscripción push no es válida',
    );
    expect((await api.post('/push/subscriptions', { endpoint, keys })).status).toBe(401);
    expect((await api.call('DELETE', '/push/subscriptions', { body: { endpoint } })).status).toBe(401);

    // The real services are accepted (never called here: nothing is pushed to this user afterwards).
    for (const real of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGx',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAA',
    ]) {
      expect((await api.post('/push/subscriptions', { endpoint: real, keys }, user.token)).status, real).toBe(201);
      await api.call('DELETE', '/push/subscriptions', { token: user.token, body: { endpoint: real } });
    }
  });

  it('deletes a subscription the push service reports gone (410 or 404)', async () => {
    for (const mode of ['gone', 'not-found'] as const) {
      const user = await signIn();
      const dead = await subscribe(user.token);
      const alive = await subscribe(user.token);
      standIn.setMode(dead.id, mode);
      await devNotify(user.token);
      await idle();
      expect(standIn.requestsFor(dead.id)).toBe(1);
      await devNotify(user.token);
      await idle();
      expect(standIn.requestsFor(dead.id), mode).toBe(1);
      expect(pushesFor(alive.id)).toHaveLength(2);
    }
  });

  it('keeps a subscription after a passing server error', async () => {
    const user = await signIn();
    const flaky = await subscribe(user.token);
    standIn.setMode(flaky.id, 'error');
    await devNotify(user.token);
    await idle();
    standIn.setMode(flaky.id, 'accept');
    await devNotify(user.token);
    await idle();
    expect(standIn.requestsFor(flaky.id)).toBe(2);
    expect(pushesFor(flaky.id)).toHaveLength(1);
  });

  it('never lets a hanging push service slow the call that triggered the push', async () => {
    const user = await signIn();
    const stuck = await subscribe(user.token);
    standIn.setMode(stuck.id, 'hang');
    const other = await signIn();
    const healthy = await subscribe(other.token);
    const response = await devNotify(user.token);
    expect(response.status).toBe(201);
    await expect.poll(() => standIn.requestsFor(stuck.id)).toBe(1);
    // The call has answered while its push is still stuck: had it waited for the push, the push
    // would be over (abandoned at the time-out) and the service idle by now.
    let isIdle = false;
    const settled = idle().then(() => {
      isIdle = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(isIdle).toBe(false);
    // Others' pushes go out meanwhile.
    await devNotify(other.token);
    await expect.poll(() => pushesFor(healthy.id).length).toBe(1);
    // The stuck send is abandoned after the time-out: the service becomes idle though the push
    // service never answers (it would wait forever otherwise, and the test would time out).
    await settled;
  });

  it('pushes nothing to a user with a visible client, and pushes again once it is hidden or gone', async () => {
    const user = await signIn();
    const subscription = await subscribe(user.token);
    const socket = await connectSocket(app, { token: user.token });
    try {
      // A connected socket that has not said it is visible does not stop pushes.
      await devNotify(user.token);
      await idle();
      expect(pushesFor(subscription.id)).toHaveLength(1);

      await socket.emitWithAck('presence:visible');
      await devNotify(user.token);
      await app.notifications.notifications.notifyMessage(user.userId, {
        conversationId: 'v',
        senderName: 'Ana',
        preview: 'hola',
      });
      await idle();
      expect(pushesFor(subscription.id)).toHaveLength(1);

      await socket.emitWithAck('presence:hidden');
      await devNotify(user.token);
      await idle();
      expect(pushesFor(subscription.id)).toHaveLength(2);

      await socket.emitWithAck('presence:visible');
      socket.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await devNotify(user.token);
      await idle();
      expect(pushesFor(subscription.id)).toHaveLength(3);
    } finally {
      socket.close();
    }
  });

  it('follows the per-type switches of the settings', async () => {
    const user = await signIn();
    const subscription = await subscribe(user.token);
    await api.call('PUT', '/settings', {
      token: user.token,
      body: { notifications: { messages: false, superlikes: false } },
    });
    const service = app.notifications.notifications;
    await service.notifyMessage(user.userId, { conversationId: 'muted', senderName: 'Ana', preview: 'x' });
    await service.notifyMatch(user.userId, { conversationId: 'sl', otherName: 'Eva', isSuperlike: true });
    await service.notifyMatch(user.userId, { conversationId: 'ml', otherName: 'Iván' });
    await idle();
    expect(pushesFor(subscription.id).map((push) => (push.payload as PushPayload).type)).toEqual(['match']);
    // The in-app list still has all three.
    const list = await api.get('/notifications?isRead=false', user.token);
    expect((list.body.pagination as { total: number }).total).toBe(4);
  });
});
