import { clientsClaim } from 'workbox-core';

/** What workbox-window's `messageSkipWaiting()` posts when the user accepts the update prompt. */
type SkipWaitingMessage = { type: 'SKIP_WAITING' };

function isSkipWaitingMessage(data: unknown): data is SkipWaitingMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'SKIP_WAITING';
}

/**
 * Install and activation. A new version waits until the page asks for it (QUALITY 21: never
 * reload under the user's draft); the first install takes control at once, so the app works
 * offline from its first visit without a reload.
 */
export function installLifecycle(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('message', (event) => {
    if (isSkipWaitingMessage(event.data)) void scope.skipWaiting();
  });
  clientsClaim();
}
