import { type PushPayload, parsePushPayload } from '#shared/notifications/push-schemas';

export const NOTIFICATION_ICON = '/icons/icon-192.png';
export const NOTIFICATION_BADGE = '/icons/icon-192.png';
const FALLBACK_TITLE = 'Entreno';

/** What the worker shows for a push: the arguments of `showNotification`, and the badge count. */
export type PushDisplay = {
  title: string;
  options: NotificationOptions & { renotify?: boolean; data: { url: string; notificationId: string | null } };
  badgeCount: number | undefined;
};

/**
 * The notification for a push payload (pure, so unit tests call it). Same `tag` replaces the
 * previous notification (one per conversation); messages re-alert on replacement (`renotify`).
 * An unreadable payload still shows something: browsers penalise pushes that show nothing.
 */
export function pushDisplay(payload: PushPayload | null): PushDisplay {
  if (!payload) {
    return {
      title: FALLBACK_TITLE,
      options: {
        body: 'Tienes novedades en Entreno',
        tag: 'entreno',
        icon: NOTIFICATION_ICON,
        badge: NOTIFICATION_BADGE,
        data: { url: '/notifications', notificationId: null },
      },
      badgeCount: undefined,
    };
  }
  return {
    title: payload.title || FALLBACK_TITLE,
    options: {
      body: payload.body,
      tag: payload.tag,
      icon: NOTIFICATION_ICON,
      badge: NOTIFICATION_BADGE,
      renotify: payload.type === 'message',
      data: { url: payload.url, notificationId: payload.notificationId },
    },
    badgeCount: payload.badgeCount,
  };
}

/** The push payload from a push event's data (JSON text); null when absent or unreadable. */
export function readPushData(data: { text(): string } | null): PushPayload | null {
  if (!data) return null;
  try {
    return parsePushPayload(data.text());
  } catch {
    return null;
  }
}

type BadgeNavigator = { setAppBadge?(count?: number): Promise<void>; clearAppBadge?(): Promise<void> };

/** Sets the app badge where the platform has one (QUALITY 22); zero clears it. */
export async function updateAppBadge(navigator: BadgeNavigator, count: number | undefined): Promise<void> {
  if (count === undefined) return;
  try {
    if (count > 0) await navigator.setAppBadge?.(count);
    else await navigator.clearAppBadge?.();
  } catch {
    // Badging is a nicety: a platform that refuses it changes nothing else.
  }
}

/** The `push` listener: shows the notification and updates the badge. */
export function installPush(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('push', (event) => {
    const display = pushDisplay(readPushData(event.data));
    event.waitUntil(
      Promise.all([
        scope.registration.showNotification(display.title, display.options),
        updateAppBadge(scope.navigator as BadgeNavigator, display.badgeCount),
      ]),
    );
  });
}
