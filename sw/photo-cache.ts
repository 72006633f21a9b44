import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';

/** Profile photos; the page deletes this cache at sign-out (QUALITY 23: private data). */
export const PHOTO_CACHE_NAME = 'entreno-photos';
export const PHOTO_CACHE_MAX_ENTRIES = 300;
export const PHOTO_CACHE_MAX_AGE_S = 30 * 24 * 60 * 60;

export function isPhotoPath(pathname: string): boolean {
  return pathname.startsWith('/photos/');
}

/**
 * Photos: cache first (their names are chosen by the server and never reused, docs/decisions/0005),
 * at most 300 for 30 days, and the whole cache goes first when the origin runs out of quota.
 * Only same-origin 200 answers are kept (Workbox's default for CacheFirst).
 */
export function installPhotoCache(): void {
  registerRoute(
    ({ url, sameOrigin, request }) => sameOrigin && request.method === 'GET' && isPhotoPath(url.pathname),
    new CacheFirst({
      cacheName: PHOTO_CACHE_NAME,
      plugins: [
        new ExpirationPlugin({
          maxEntries: PHOTO_CACHE_MAX_ENTRIES,
          maxAgeSeconds: PHOTO_CACHE_MAX_AGE_S,
          purgeOnQuotaError: true,
        }),
      ],
    }),
  );
}
