import { describe, expect, it } from 'vitest';
import { systemClock } from '../../infra/clock.ts';
import type { WebPushResult } from '../../delivery/web-push-channel.ts';
import type { PushMessage } from '../notifications/notification-service.ts';
import type { PushRepository } from './push-repository.ts';
import { createPushService } from './push-service.ts';

const silent = { info() {}, warn() {}, error() {} };

const message = (body: string, tag = 'conversation:c-1'): PushMessage => ({
  payload: { type: 'message', title: 'Leo', body, url: '/messages/c-1', tag, notificationId: null },
  urgency: 'high',
  ttlSeconds: 60,
  setting: null,
});

/** A push service over a channel whose sends the test answers one by one. */
function serviceWithHeldSends() {
  const sends: Array<{ userId: string; body: string; answer(): void }> = [];
  const subscriptions = {
    listForUser: async (userId: string) => [
      { id: `s-${userId}`, userId, endpoint: `https://push.example/${userId}`, p256dh: 'p', auth: 'a' },
    ],
    deleteGone: async () => {},
  } as unknown as PushRepository;
  const service = createPushService({
    subscriptions,
    channel: {
      send: (target, payload) =>
        new Promise<WebPushResult>((resolve) => {
          sends.push({
            userId: target.endpoint.split('/').at(-1) as string,
            body: (JSON.parse(payload) as { body: string }).body,
            answer: () => resolve({ status: 'sent', statusCode: 201 }),
          });
        }),
    },
    presence: { hasVisibleClient: async () => false },
    settings: { get: async () => ({ notifications: {} as never }) },
    publicKey: 'key',
    endpointAllowlist: [],
    clock: systemClock,
    logger: silent,
  });
  return { service, sends };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('push delivery order', () => {
  it("sends one user's pushes one after another, in the order they were made", async () => {
    const { service, sends } = serviceWithHeldSends();
    service.deliver('ana', message('uno'));
    service.deliver('ana', message('2 mensajes nuevos de Leo'));
    await settle();
    // The newer push under the same Topic waits for the older one: sent together, the push service
    // could get them the other way round and the device would keep the older one.
    expect(sends.map((send) => send.body)).toEqual(['uno']);
    sends[0]?.answer();
    await settle();
    expect(sends.map((send) => send.body)).toEqual(['uno', '2 mensajes nuevos de Leo']);
    sends[1]?.answer();
    await service.whenIdle();
    expect(service.depth()).toBe(0);
  });

  it("never makes one user's pushes wait for another's", async () => {
    const { service, sends } = serviceWithHeldSends();
    service.deliver('ana', message('para Ana'));
    service.deliver('bea', message('para Bea'));
    await settle();
    expect(sends.map((send) => send.userId).sort()).toEqual(['ana', 'bea']);
    expect(service.depth()).toBe(2);
    for (const send of sends) send.answer();
    await service.whenIdle();
  });
});
