import { describe, expect, it } from 'vitest';
import {
  START_BACKSTOP_MS,
  type StartEnvironment,
  startAfterFirstPaint,
  startScriptsAfterPaint,
} from '../../src/client/start-after-paint.ts';

// The head Vite writes into dist/client/index.html (decision 0031's plugin adds the login route's
// stylesheet and modulepreloads).
const BUILT_INDEX = `<!doctype html>
<html lang="es">
  <head>
    <title>Entreno</title>
    <script type="module" crossorigin src="/assets/index-A.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-B.js">
    <link rel="stylesheet" crossorigin href="/assets/index-C.css">
    <link rel="stylesheet" crossorigin href="/assets/login-D.css">
    <link rel="modulepreload" crossorigin href="/assets/login-E.js">
  <link rel="manifest" href="/manifest.webmanifest"></head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

type Appended = { tag: string; rel?: string; href?: string; type?: string; src?: string };

/** A page that records what is appended to its head, with a paint observer the test drives. */
function fakePage({ visibility = 'visible', canObservePaint = true } = {}) {
  const appended: Appended[] = [];
  const timers: (() => void)[] = [];
  const visibilityListeners: (() => void)[] = [];
  let observerCallback: ((names: string[]) => void) | undefined;
  let isDisconnected = false;
  class FakeObserver {
    static readonly supportedEntryTypes = canObservePaint ? ['paint', 'largest-contentful-paint'] : ['resource'];
    constructor(callback: ConstructorParameters<NonNullable<StartEnvironment['PerformanceObserver']>>[0]) {
      observerCallback = (names) =>
        callback(
          { getEntriesByName: (name: string) => names.filter((entry) => entry === name) },
          {
            disconnect: () => {
              isDisconnected = true;
            },
          },
        );
    }
    observe(options: { type: string; buffered: boolean }) {
      expect(options).toEqual({ type: 'paint', buffered: true });
    }
  }
  const environment = {
    document: {
      visibilityState: visibility,
      head: { append: (element: Appended) => appended.push(element) },
      createElement: (tag: string) => ({ tag }),
      addEventListener: (type: string, listener: () => void) => {
        expect(type).toBe('visibilitychange');
        visibilityListeners.push(listener);
      },
    },
    PerformanceObserver: FakeObserver,
    setTimeout: (callback: () => void, ms: number) => {
      expect(ms).toBe(START_BACKSTOP_MS);
      timers.push(callback);
    },
  } as unknown as StartEnvironment;
  return {
    environment,
    appended,
    paint: (...names: string[]) => observerCallback?.(names),
    fireBackstop: () => {
      for (const timer of timers) timer();
    },
    hide: () => {
      for (const listener of visibilityListeners) listener();
    },
    isDisconnected: () => isDisconnected,
  };
}

const STARTED: Appended[] = [
  { tag: 'link', rel: 'modulepreload', href: '/assets/react-B.js' },
  { tag: 'link', rel: 'modulepreload', href: '/assets/login-E.js' },
  { tag: 'script', type: 'module', src: '/assets/index-A.js' },
];

describe('the prerendered page starts its scripts after its first paint (decision 0031)', () => {
  it('has no module script or modulepreload in its head, only the deferred loader; the stylesheets stay', () => {
    const { page, loader } = startScriptsAfterPaint(BUILT_INDEX, () => '/assets/start-after-paint-1.js');
    expect(page).not.toMatch(/type="module"|modulepreload/);
    expect(page.match(/<script\b[^>]*>/g)).toEqual(['<script defer src="/assets/start-after-paint-1.js">']);
    expect(page.match(/<link rel="stylesheet"[^>]*>/g)).toHaveLength(2);
    expect(page).toContain('<div id="root"></div>');
    expect(loader).toContain('"/assets/index-A.js", ["/assets/react-B.js","/assets/login-E.js"]');
  });

  it('refuses a head without exactly one module script', () => {
    expect(() => startScriptsAfterPaint(BUILT_INDEX.replace(/<script[^<]*<\/script>/, ''), () => '/x.js')).toThrow(
      /expected one module script/,
    );
  });

  it('adds nothing before the first contentful paint, then the preloads and the entry once', () => {
    const page = fakePage();
    startAfterFirstPaint(
      '/assets/index-A.js',
      ['/assets/react-B.js', '/assets/login-E.js'],
      START_BACKSTOP_MS,
      page.environment,
    );
    expect(page.appended).toEqual([]);
    page.paint('first-paint');
    expect(page.appended).toEqual([]);
    page.paint('first-contentful-paint');
    expect(page.appended).toEqual(STARTED);
    expect(page.isDisconnected()).toBe(true);
    page.fireBackstop();
    page.hide();
    expect(page.appended).toEqual(STARTED);
  });

  it('starts after the backstop when no paint is observed, and at once in a hidden tab or without paint timing', () => {
    const late = fakePage();
    startAfterFirstPaint(
      '/assets/index-A.js',
      ['/assets/react-B.js', '/assets/login-E.js'],
      START_BACKSTOP_MS,
      late.environment,
    );
    late.fireBackstop();
    expect(late.appended).toEqual(STARTED);
    for (const options of [{ visibility: 'hidden' }, { canObservePaint: false }]) {
      const page = fakePage(options);
      startAfterFirstPaint(
        '/assets/index-A.js',
        ['/assets/react-B.js', '/assets/login-E.js'],
        START_BACKSTOP_MS,
        page.environment,
      );
      expect(page.appended).toEqual(STARTED);
    }
  });

  it('the loader file is that function on its own: it runs with nothing but the page', () => {
    const { loader } = startScriptsAfterPaint(BUILT_INDEX, () => '/assets/start-after-paint-1.js');
    const page = fakePage();
    // The loader reads the page's globals; here they are the fake page's.
    new Function('globalThis', loader)(page.environment);
    expect(page.appended).toEqual([]);
    page.paint('first-contentful-paint');
    expect(page.appended).toEqual(STARTED);
  });
});
