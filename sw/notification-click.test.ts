import { describe, expect, it, type Mock, vi } from 'vitest';
import { NAVIGATE_MESSAGE } from '#shared/notifications/push-schemas';
import { askPageToNavigate, openTarget, pickWindow, resolveClickUrl } from './notification-click.ts';

const origin = 'https://entreno.example';

describe('resolveClickUrl', () => {
  it('opens the conversation of a message push', () => {
    expect(resolveClickUrl({ url: '/messages/abc' }, origin)).toBe(`${origin}/messages/abc`);
  });

  it.each([undefined, null, 'x', {}, { url: 42 }, { url: 'https://evil.example/' }, { url: '//evil.example' }])(
    'falls back to the notifications list for %j',
    (data) => expect(resolveClickUrl(data, origin)).toBe(`${origin}/notifications`),
  );
});

type FakeWindow = {
  url: string;
  focused: boolean;
  focus: Mock<() => Promise<unknown>>;
  navigate: Mock<(to: string) => Promise<unknown>>;
};

function fakeWindow(url: string, focused = false): FakeWindow {
  const window: FakeWindow = {
    url,
    focused,
    focus: vi.fn(async () => window),
    navigate: vi.fn(async (to: string) => ({ ...window, url: to })),
  };
  return window;
}

function fakeClients(windows: FakeWindow[]) {
  return {
    matchAll: vi.fn(async () => windows),
    openWindow: vi.fn(async () => null),
  };
}

describe('pickWindow', () => {
  it('prefers a window already at the target, then the focused one, and ignores other origins', () => {
    const other = fakeWindow('https://elsewhere.example/', true);
    const home = fakeWindow(`${origin}/home`);
    const focused = fakeWindow(`${origin}/matches`, true);
    const at = fakeWindow(`${origin}/messages/abc`);
    expect(pickWindow([other, home, focused, at], `${origin}/messages/abc`, origin)).toBe(at);
    expect(pickWindow([other, home, focused], `${origin}/messages/abc`, origin)).toBe(focused);
    expect(pickWindow([other], `${origin}/messages/abc`, origin)).toBeUndefined();
  });
});

describe('openTarget', () => {
  it('focuses an open window and navigates it', async () => {
    const home = fakeWindow(`${origin}/home`);
    const clients = fakeClients([home]);
    await openTarget(clients as unknown as Clients, `${origin}/messages/abc`, origin);
    expect(home.focus).toHaveBeenCalledOnce();
    expect(home.navigate).toHaveBeenCalledWith(`${origin}/messages/abc`);
    expect(clients.openWindow).not.toHaveBeenCalled();
  });

  it('opens a window when none is open', async () => {
    const clients = fakeClients([]);
    await openTarget(clients as unknown as Clients, `${origin}/messages/abc`, origin);
    expect(clients.openWindow).toHaveBeenCalledWith(`${origin}/messages/abc`);
  });

  it('opens a window when the open one cannot be navigated (not controlled)', async () => {
    const home = fakeWindow(`${origin}/home`);
    home.navigate.mockRejectedValue(new TypeError('not controlled'));
    const clients = fakeClients([home]);
    await openTarget(clients as unknown as Clients, `${origin}/messages/abc`, origin);
    expect(clients.openWindow).toHaveBeenCalledWith(`${origin}/messages/abc`);
  });

  it('lets an open page navigate in place when it answers, without reloading the window', async () => {
    const home = fakeWindow(`${origin}/home`);
    const received: unknown[] = [];
    const page = Object.assign(home, {
      postMessage: vi.fn((message: unknown, [port]: MessagePort[]) => {
        received.push(message);
        port?.postMessage({ ok: true });
      }),
    });
    const clients = fakeClients([page]);
    await openTarget(clients as unknown as Clients, `${origin}/messages/abc?x=1`, origin);
    expect(received).toEqual([{ type: NAVIGATE_MESSAGE, url: '/messages/abc?x=1' }]);
    expect(home.focus).toHaveBeenCalledOnce();
    expect(home.navigate).not.toHaveBeenCalled();
    expect(clients.openWindow).not.toHaveBeenCalled();
  });

  it('navigates the window itself when the page says it could not', async () => {
    const home = Object.assign(fakeWindow(`${origin}/home`), {
      postMessage: vi.fn((_message: unknown, [port]: MessagePort[]) => port?.postMessage({ ok: false })),
    });
    const clients = fakeClients([home]);
    await openTarget(clients as unknown as Clients, `${origin}/notifications`, origin);
    expect(home.navigate).toHaveBeenCalledWith(`${origin}/notifications`);
  });
});

describe('askPageToNavigate', () => {
  it('gives up when the page never answers', async () => {
    const silent = Object.assign(fakeWindow(`${origin}/home`), { postMessage: vi.fn() });
    expect(await askPageToNavigate(silent, `${origin}/messages/abc`, 20)).toBe(false);
    expect(silent.postMessage).toHaveBeenCalledOnce();
  });
});
