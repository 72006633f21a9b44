/**
 * The scripts of a page rendered at build time start after its first paint (docs/decisions/0031).
 * The static page paints without JavaScript, so scripts/prerender.mjs takes the entry's module
 * script and modulepreloads out of the page's head and links a small classic script instead
 * (`defer`, which Chromium fetches at low priority) that adds them once the page has painted. On
 * a slow link the HTML and the stylesheets then have the connection to themselves: Chromium
 * fetches module scripts at High priority, beside the stylesheets. (Lighthouse's simulation, for
 * the same reason, counts every High-priority script that arrived before the observed first paint
 * as blocking it, and every script that arrived before the largest paint as needed for it.)
 */

/** The longest the page waits for its first paint before it starts the scripts anyway. */
export const START_BACKSTOP_MS = 3000;

type PaintObserver = {
  new (
    callback: (list: { getEntriesByName(name: string): unknown[] }, observer: { disconnect(): void }) => void,
  ): { observe(options: { type: string; buffered: boolean }): void };
  readonly supportedEntryTypes?: readonly string[];
};

export type StartEnvironment = {
  document: Pick<Document, 'createElement' | 'head' | 'visibilityState' | 'addEventListener'>;
  PerformanceObserver: PaintObserver | undefined;
  setTimeout: (callback: () => void, ms: number) => unknown;
};

/**
 * Adds the modulepreloads and the entry once the page's first-contentful-paint entry is there; at
 * once where paints cannot be observed or the tab is hidden (a hidden tab does not paint); and
 * after `backstopMs` whatever happens. Runs in the browser as the loader's whole source
 * (`loaderSource`), so it uses nothing but its arguments.
 */
export function startAfterFirstPaint(
  entry: string,
  preloads: readonly string[],
  backstopMs: number,
  environment?: StartEnvironment,
): void {
  const { document, PerformanceObserver, setTimeout } = environment ?? {
    document: globalThis.document,
    PerformanceObserver: globalThis.PerformanceObserver,
    setTimeout: globalThis.setTimeout,
  };
  let isStarted = false;
  const start = () => {
    if (isStarted) return;
    isStarted = true;
    for (const href of preloads) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.src = entry;
    document.head.append(script);
  };
  const canObservePaint =
    typeof PerformanceObserver === 'function' && (PerformanceObserver.supportedEntryTypes ?? []).includes('paint');
  if (!canObservePaint || document.visibilityState !== 'visible') {
    start();
    return;
  }
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
  document.addEventListener('visibilitychange', start, { once: true });
  setTimeout(start, backstopMs);
}

/** The loader's source: `startAfterFirstPaint` called with the page's entry and preloads. */
export function loaderSource(entry: string, preloads: readonly string[]): string {
  return `// Written by scripts/prerender.mjs from src/client/start-after-paint.ts (docs/decisions/0031).
(${startAfterFirstPaint.toString()})(${JSON.stringify(entry)}, ${JSON.stringify(preloads)}, ${START_BACKSTOP_MS});
`;
}

const SCRIPT_TAGS =
  /\s*<(script type="module"[^>]*src|link rel="modulepreload"[^>]*href)="([^"]+)"[^>]*>(?:<\/script>)?/g;

/**
 * The built index.html without its module script and modulepreloads, the loader (linked at the
 * end of the head as `loaderUrl`) in their place, and the loader's source.
 */
export function startScriptsAfterPaint(html: string, loaderUrl: (source: string) => string) {
  const entries: string[] = [];
  const preloads: string[] = [];
  const withoutScripts = html.replace(SCRIPT_TAGS, (_tag, kind: string, url: string) => {
    (kind.startsWith('script') ? entries : preloads).push(url);
    return '';
  });
  const [entry] = entries;
  if (entry === undefined || entries.length !== 1) {
    throw new Error(`prerender: expected one module script in index.html, found ${entries.length}`);
  }
  const loader = loaderSource(entry, preloads);
  if (!withoutScripts.includes('</head>')) throw new Error('prerender: index.html has no </head>');
  const page = withoutScripts.replace('</head>', `  <script defer src="${loaderUrl(loader)}"></script>\n  </head>`);
  return { page, loader };
}
