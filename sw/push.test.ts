import { describe, expect, it, vi } from 'vitest';
import { parsePushPayload } from '#shared/notifications/push-schemas';
import { NOTIFICATION_ICON, pushDisplay, readPushData, updateAppBadge } from './push.ts';

const message = {
  type: 'message',
  title: 'Nuevo mensaje de Lucía',
  body: '¿Entrenamos mañana?',
  url: '/messages/c0ffee',
  tag: 'conversation:c0ffee',
  notificationId: 'n1',
  badgeCount: 3,
};

describe('parsePushPayload', () => {
  it('reads the JSON the server sends', () => {
    expect(parsePushPayload(JSON.stringify(message))).toEqual(message);
  });

  it.each(['', 'not json', '42', 'null', '{"type":"nope","title":"x","body":"y","tag":"t"}', '{"title":"x"}'])(
    'gives null for %j',
    (text) => expect(parsePushPayload(text)).toBeNull(),
  );

  it.each(['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'messages/1'])(
    'keeps clicks in the app: %s becomes /notifications',
    (url) => expect(parsePushPayload({ ...message, url })?.url).toBe('/notifications'),
  );

  it('defaults a missing url and id', () => {
    const { url: _url, notificationId: _id, ...rest } = message;
    expect(parsePushPayload(rest)).toMatchObject({ url: '/notifications', notificationId: null });
  });
});

describe('pushDisplay', () => {
  it('shows the payload with its tag, icon, click target and renotify for messages', () => {
    const display = pushDisplay(parsePushPayload(message));
    expect(display.title).toBe(message.title);
    expect(display.options).toMatchObject({
      body: message.body,
      tag: message.tag,
      icon: NOTIFICATION_ICON,
      renotify: true,
      data: { url: '/messages/c0ffee', notificationId: 'n1' },
    });
    expect(display.badgeCount).toBe(3);
  });

  it('does not re-alert for other types', () => {
    expect(pushDisplay(parsePushPayload({ ...message, type: 'match' })).options.renotify).toBe(false);
  });

  it('still shows something for an unreadable push', () => {
    const display = pushDisplay(readPushData({ text: () => '\u0000garbage' }));
    expect(display.title).toBe('Entreno');
    expect(display.options.data.url).toBe('/notifications');
  });

  it('reads a missing push body as null', () => {
    expect(readPushData(null)).toBeNull();
  });
});

describe('updateAppBadge', () => {
  it('sets, clears, or leaves the badge', async () => {
    const navigator = { setAppBadge: vi.fn(async () => {}), clearAppBadge: vi.fn(async () => {}) };
    await updateAppBadge(navigator, 4);
    await updateAppBadge(navigator, 0);
    await updateAppBadge(navigator, undefined);
    expect(navigator.setAppBadge).toHaveBeenCalledExactlyOnceWith(4);
    expect(navigator.clearAppBadge).toHaveBeenCalledOnce();
  });

  it('is a no-op where badging is missing or refused', async () => {
    await expect(updateAppBadge({}, 2)).resolves.toBeUndefined();
    await expect(
      updateAppBadge({ setAppBadge: () => Promise.reject(new Error('denied')) }, 2),
    ).resolves.toBeUndefined();
  });
});
