import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { prerender } from 'react-dom/static';
import { createAppRouter } from './app/router.tsx';

/**
 * Build-time rendering of a public page to static HTML (docs/decisions/0031), run by
 * scripts/prerender.mjs through Vite's SSR build. It renders the real route tree, so the static
 * page is whatever the route renders: a new button on the login screen shows up in it by itself.
 * The client replaces it with its own first render (src/client/main.tsx).
 */
export async function renderPage(url: string): Promise<string> {
  const router = createAppRouter({
    history: createMemoryHistory({ initialEntries: [url] }),
    // Scroll restoration would add an inline script, which the CSP forbids; a fresh page has no
    // scroll position to restore anyway.
    scrollRestoration: false,
  });
  // Runs the route's beforeLoad and loads its lazy component, so nothing suspends below.
  await router.load();
  const { prelude } = await prerender(<RouterProvider router={router} />);
  return await new Response(prelude).text();
}
