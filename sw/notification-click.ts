import { isAppPath } from '#shared/notifications/push-schemas';

/**
 * The page a click opens: the notification's `data.url` when it is a path of this app, resolved
 * against the worker's origin; otherwise the notifications list. Never another origin.
 */
export function resolveClickUrl(data: unknown, origin: string): string {
  const url = typeof data === 'object' && data !== null ? (data as { url?: unknown }).url : undefined;
  const path = typeof url === 'string' && isAppPath(url) ? url : '/notifications';
  return new URL(path, origin).href;
}

type WindowLike = {
  url: string;
  focused?: boolean;
  focus(): Promise<unknown>;
  navigate?(url: string): Promise<unknown>;
};

/**
 * Which open window to use: one already at the target, else the focused one, else any window of
 * the app; undefined when none is open.
 */
export function pickWindow<T extends WindowLike>(windows: readonly T[], target: string, origin: string): T | undefined {
  const ours = windows.filter((client) => client.url.startsWith(`${origin}/`) || client.url === origin);
  return ours.find((client) => client.url === target) ?? ours.find((client) => client.focused) ?? ours[0];
}

/** Focuses an open window of the app and takes it to the target, or opens one there (QUALITY 22). */
export async function openTarget(clients: Clients, target: string, origin: string): Promise<void> {
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  const existing = pickWindow(windows, target, origin);
  if (!existing) {
    await clients.openWindow(target);
    return;
  }
  const focused = await existing.focus().catch(() => existing);
  if (existing.url !== target) {
    // navigate() works only on windows this worker controls; otherwise a fresh window is opened.
    const navigated = await focused.navigate(target).catch(() => null);
    if (!navigated) await clients.openWindow(target);
  }
}

/** The `notificationclick` listener. */
export function installNotificationClick(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const target = resolveClickUrl(event.notification.data, scope.location.origin);
    event.waitUntil(openTarget(scope.clients, target, scope.location.origin));
  });
}
