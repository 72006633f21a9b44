import { cleanupOutdatedCaches, type PrecacheEntry, precacheAndRoute } from 'workbox-precaching';

/** The app shell as built: the HTML entry point, the hashed assets, icons and the manifest. */
export const SHELL_URL = '/index.html';

/**
 * Precaches the build's files (the list vite-plugin-pwa injects) and answers requests for them
 * from the cache. Caches left by an older Workbox precache format are removed on activation.
 */
export function installPrecache(entries: ReadonlyArray<PrecacheEntry | string>): void {
  cleanupOutdatedCaches();
  precacheAndRoute([...entries]);
}
