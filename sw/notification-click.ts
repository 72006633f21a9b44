import { isAppPath, NAVIGATE_MESSAGE, type NavigateMessage } from '#shared/notifications/push-schemas';

/**
 * The page a click opens: the notification's `data.url` when it is a path of this app, resolved
 * against the worker's origin; otherwise the notifications list. Never another origin.
 */
export function resolveClickUrl(data: unknown, origin: string): string {
  const url = typeof data === 'object' && data !== null ? (data as { url?: unknown }).url : undefined;
  const path = typeof url === 'string' && isAppPath(url) ? url : '/notifications';
  return new URL(path, origin).href;
}

/** How long an open page has to say its router took the tap before the worker reloads it there. */
export const NAVIGATE_ANSWER_TIMEOUT_MS = 3000;

type WindowLike = {
  url: string;
  focused?: boolean;
  focus(): Promise<unknown>;
  navigate?(url: string): Promise<unknown>;
  postMessage?(message: unknown, transfer: Transferable[]): void;
};

/**
 * Which open window to use: one already at the target, else the focused one, else any window of
 * the app; undefined when none is open.
 */
export function pickWindow<T extends WindowLike>(windows: readonly T[], target: string, origin: string): T | undefined {
  const ours = windows.filter((client) => client.url.startsWith(`${origin}/`) || client.url === origin);
  return ours.find((client) => client.url === target) ?? ours.find((client) => client.focused) ?? ours[0];
}

/**
 * Asks an open page to show `target` itself (its router navigates in place); true once the page
 * says it did, false when it does not answer in time (an old version, a page still starting).
 */
export function askPageToNavigate(
  client: WindowLike,
  target: string,
  timeoutMs = NAVIGATE_ANSWER_TIMEOUT_MS,
): Promise<boolean> {
  if (!client.postMessage) return Promise.resolve(false);
  const url = new URL(target);
  const message: NavigateMessage = { type: NAVIGATE_MESSAGE, url: `${url.pathname}${url.search}${url.hash}` };
  const channel = new MessageChannel();
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => finish(false), timeoutMs);
    function finish(isDone: boolean) {
      clearTimeout(timer);
      channel.port1.close();
      resolve(isDone);
    }
    channel.port1.onmessage = (event: MessageEvent) => finish((event.data as { ok?: unknown } | null)?.ok === true);
    try {
      client.postMessage?.(message, [channel.port2]);
    } catch {
      finish(false);
    }
  });
}

/**
 * Focuses an open window of the app and takes it to the target — in place, through the page's
 * router, when the page answers; else by navigating the window — or opens one there (QUALITY 22).
 */
export async function openTarget(clients: Clients, target: string, origin: string): Promise<void> {
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  const existing = pickWindow(windows, target, origin);
  if (!existing) {
    await clients.openWindow(target);
    return;
  }
  const focused = await existing.focus().catch(() => existing);
  if (existing.url === target) return;
  if (await askPageToNavigate(focused, target)) return;
  // navigate() works only on windows this worker controls; otherwise a fresh window is opened.
  const navigated = await focused.navigate(target).catch(() => null);
  if (!navigated) await clients.openWindow(target);
}

/** The `notificationclick` listener. */
export function installNotificationClick(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const target = resolveClickUrl(event.notification.data, scope.location.origin);
    event.waitUntil(openTarget(scope.clients, target, scope.location.origin));
  });
}
