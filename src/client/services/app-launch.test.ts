import { describe, expect, it, vi } from 'vitest';
import { NAVIGATE_MESSAGE } from '#shared/notifications/push-schemas';
import { appPathOf, followAppLaunches, followWorkerNavigation } from './app-launch.ts';

const origin = 'https://entreno.example';

describe('appPathOf', () => {
  it('keeps a path of this origin, with its query and hash', () => {
    expect(appPathOf(`${origin}/messages/abc?x=1#end`, origin)).toBe('/messages/abc?x=1#end');
  });

  it.each(['https://evil.example/home', 'javascript:alert(1)', 'http://[not-a-host'])('refuses %s', (href) => {
    expect(appPathOf(href, origin)).toBeNull();
  });
});

function fakeContainer() {
  const target = new EventTarget();
  return Object.assign(target, { startMessages: vi.fn() }) as unknown as ServiceWorkerContainer & {
    startMessages: ReturnType<typeof vi.fn>;
  };
}

async function post(container: ServiceWorkerContainer, data: unknown): Promise<unknown> {
  const channel = new MessageChannel();
  const answer = new Promise((resolve) => {
    channel.port1.onmessage = (event) => {
      resolve(event.data);
      channel.port1.close();
    };
  });
  container.dispatchEvent(new MessageEvent('message', { data, ports: [channel.port2] }));
  return answer;
}

describe('followWorkerNavigation', () => {
  it("shows the worker's path in place and answers once the router took it", async () => {
    const container = fakeContainer();
    const show = vi.fn(async () => undefined);
    followWorkerNavigation(container, show);
    expect(container.startMessages).toHaveBeenCalledOnce();
    expect(await post(container, { type: NAVIGATE_MESSAGE, url: '/notifications' })).toEqual({ ok: true });
    expect(show).toHaveBeenCalledWith('/notifications');
  });

  it('answers not done when the router fails, and ignores other messages and foreign paths', async () => {
    const container = fakeContainer();
    const show = vi.fn(async () => {
      throw new Error('no route');
    });
    followWorkerNavigation(container, show);
    expect(await post(container, { type: NAVIGATE_MESSAGE, url: '/home' })).toEqual({ ok: false });
    container.dispatchEvent(new MessageEvent('message', { data: { type: NAVIGATE_MESSAGE, url: '//evil.example' } }));
    container.dispatchEvent(new MessageEvent('message', { data: { type: 'OUTBOX_DRAIN' } }));
    expect(show).toHaveBeenCalledTimes(1);
  });
});

describe('followAppLaunches', () => {
  it('routes a launch that reused this window to its target, and ignores one for the current page', () => {
    let consumer: ((params: { targetURL?: string }) => void) | undefined;
    const launchQueue = { setConsumer: (callback: typeof consumer) => (consumer = callback) };
    const location = new URL(`${origin}/home`) as unknown as Location;
    const show = vi.fn(async () => undefined);
    followAppLaunches({ launchQueue, location }, show);
    consumer?.({ targetURL: `${origin}/home` });
    consumer?.({ targetURL: `${origin}/messages` });
    consumer?.({ targetURL: 'https://evil.example/messages' });
    expect(show.mock.calls).toEqual([['/messages']]);
  });
});
