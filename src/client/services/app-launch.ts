/**
 * How the installed app is asked to show a screen without a reload (issue #22): a notification
 * tapped while a window is open (the service worker posts `ENTRENO_NAVIGATE`), and a launch of
 * the installed app — its icon or a shortcut — that focused the open window instead of opening a
 * second one (manifest `launch_handler: focus-existing`, the Launch Handler API's `launchQueue`).
 */
import { isAppPath, NAVIGATE_MESSAGE, type NavigateMessage } from '#shared/notifications/push-schemas';

export type ShowPath = (path: string) => Promise<unknown> | undefined;

/** A path of this app from an absolute URL of this origin, or null. */
export function appPathOf(href: string, origin: string): string | null {
  try {
    const url = new URL(href, origin);
    if (url.origin !== origin) return null;
    const path = `${url.pathname}${url.search}${url.hash}`;
    return isAppPath(path) ? path : null;
  } catch {
    return null;
  }
}

/** Answers the worker's navigation requests by showing the path in place; returns the unsubscribe. */
export function followWorkerNavigation(container: ServiceWorkerContainer, show: ShowPath): () => void {
  const listener = (event: MessageEvent) => {
    const data = event.data as Partial<NavigateMessage> | null;
    if (data?.type !== NAVIGATE_MESSAGE || typeof data.url !== 'string' || !isAppPath(data.url)) return;
    const port = event.ports[0];
    Promise.resolve(show(data.url)).then(
      () => port?.postMessage({ ok: true }),
      () => port?.postMessage({ ok: false }),
    );
  };
  container.addEventListener('message', listener);
  // Messages posted before the app started listening wait in the queue until this call.
  container.startMessages();
  return () => container.removeEventListener('message', listener);
}

type LaunchParams = { targetURL?: string };
type LaunchQueue = { setConsumer(consumer: (params: LaunchParams) => void): void };

/** Shows the screen an app launch (icon, shortcut) asked for when it reused this window. */
export function followAppLaunches(scope: { launchQueue?: LaunchQueue; location: Location }, show: ShowPath): void {
  scope.launchQueue?.setConsumer((params) => {
    if (!params.targetURL) return;
    const path = appPathOf(params.targetURL, scope.location.origin);
    const here = `${scope.location.pathname}${scope.location.search}${scope.location.hash}`;
    if (path && path !== here) void show(path);
  });
}

/** Wires both in the browser (no-op where an API is missing). */
export function startAppNavigation(show: ShowPath): void {
  if ('serviceWorker' in navigator) followWorkerNavigation(navigator.serviceWorker, show);
  followAppLaunches(window as unknown as { launchQueue?: LaunchQueue; location: Location }, show);
}
