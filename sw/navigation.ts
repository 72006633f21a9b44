import { isAppRoute } from '#shared/routes';
import type { RouteHandlerCallbackOptions, RouteMatchCallbackOptions } from 'workbox-core/types.js';
import { createHandlerBoundToURL } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { SHELL_URL } from './precache.ts';
import { isServerPath } from './server-paths.ts';

function isShellNavigation({ request, url, sameOrigin }: RouteMatchCallbackOptions): boolean {
  return request.mode === 'navigate' && sameOrigin && !isServerPath(url.pathname);
}

/**
 * Page loads. An app route gets the precached shell at once, online or not (QUALITY 18). Any
 * other path asks the network first, so a real file such as /robots.txt or the server's 404 page
 * still reaches the user, and falls back to the shell offline, where the client shows its 404.
 * Must run after `installPrecache`: the shell has to be in the precache list.
 */
export function installNavigation(): void {
  const answerWithShell = createHandlerBoundToURL(SHELL_URL);
  registerRoute(isShellNavigation, async (options: RouteHandlerCallbackOptions) => {
    if (isAppRoute(options.url.pathname)) return answerWithShell(options);
    try {
      return await fetch(options.request);
    } catch {
      return answerWithShell(options);
    }
  });
}
