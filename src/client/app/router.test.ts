import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { APP_ROUTE_PATTERNS, HIDDEN_ROUTE_PATTERNS, isAppRoute } from '#shared/routes';
import { createAppRouter } from './router.tsx';

describe('route tree', () => {
  it('registers exactly the paths the server serves as app routes', () => {
    const router = createAppRouter({ history: createMemoryHistory({ initialEntries: ['/'] }) });
    const paths = Object.keys(router.routesByPath)
      .map((path) => (path.length > 1 ? path.replace(/\/$/, '') : path))
      .sort();
    expect(paths).toEqual([...APP_ROUTE_PATTERNS, ...HIDDEN_ROUTE_PATTERNS].sort());
  });

  it('keeps the hidden routes out of what the server answers as app routes (their address 404s for everyone)', () => {
    for (const path of HIDDEN_ROUTE_PATTERNS) expect(isAppRoute(path)).toBe(false);
  });
});
