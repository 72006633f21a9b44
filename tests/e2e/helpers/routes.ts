/** Holding or failing the page's own calls, to see a screen's loading and error states. */
import type { Page, Route } from '@playwright/test';

export type UrlMatch = (url: URL) => boolean;

/** The page's calls to API paths (`/api/notifications`), with an optional extra condition. */
export function apiPath(pathnames: string | readonly string[], extra: UrlMatch = () => true): UrlMatch {
  const paths = typeof pathnames === 'string' ? [pathnames] : pathnames;
  return (url) => paths.includes(url.pathname) && extra(url);
}

/**
 * Holds every matching call until `release()`, which lets the held ones (and any later ones) go
 * on to the server: the screen stays in its loading state for as long as the test looks at it.
 */
export async function holdRequests(page: Page, matches: UrlMatch): Promise<{ release(): Promise<void> }> {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const handler = async (route: Route) => {
    await gate;
    await route.fallback();
  };
  await page.route(matches, handler);
  return {
    async release() {
      open();
      await page.unroute(matches, handler);
    },
  };
}

/** Answers every matching call with a server error until `restore()`. */
export async function failRequests(page: Page, matches: UrlMatch): Promise<{ restore(): Promise<void> }> {
  const handler = (route: Route) =>
    route.fulfill({ status: 500, json: { success: false, message: 'Error interno del servidor' } });
  await page.route(matches, handler);
  return { restore: () => page.unroute(matches, handler) };
}
