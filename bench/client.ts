import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchResult } from './load.ts';

const CLIENT_DIR = path.resolve(process.env.BENCH_CLIENT_DIR ?? 'dist/client');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LOGIN_BUDGET_KB = 150;

// ---------------------------------------------------------------------------------------------
// JavaScript per route, from the built module graph

type Chunk = { file: string; gzip: number; raw: number; statics: string[]; dynamics: string[] };

function readChunk(file: string, cache: Map<string, Chunk>): Chunk {
  const known = cache.get(file);
  if (known) return known;
  const source = readFileSync(path.join(CLIENT_DIR, file), 'utf8');
  const dir = path.posix.dirname(file);
  const resolve = (specifier: string) => path.posix.normalize(path.posix.join(dir, specifier));
  const statics = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*)["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g)].map((m) =>
    resolve(m[1] as string),
  );
  const dynamics = [...source.matchAll(/\bimport\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g)].map((m) =>
    resolve(m[1] as string),
  );
  const chunk = {
    file,
    gzip: gzipSync(source, { level: 9 }).length,
    raw: Buffer.byteLength(source),
    statics,
    dynamics,
  };
  cache.set(file, chunk);
  return chunk;
}

function closure(roots: string[], cache: Map<string, Chunk>): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...readChunk(file, cache).statics);
  }
  return seen;
}

/** The entry (index.html's module script and modulepreloads) plus each lazily imported chunk's static closure. */
function routeSizes() {
  const html = readFileSync(path.join(CLIENT_DIR, 'index.html'), 'utf8');
  const entry = [...html.matchAll(/<script[^>]+type="module"[^>]+src="\/([^"]+\.js)"/g)].map((m) => m[1] as string);
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g)].map(
    (m) => m[1] as string,
  );
  const cache = new Map<string, Chunk>();
  const initial = closure([...entry, ...preloads], cache);
  const lazy = new Set<string>();
  for (const file of closure([...initial], cache))
    for (const dynamic of readChunk(file, cache).dynamics) lazy.add(dynamic);
  // Lazy chunks may import further lazy chunks (nested routes): follow them too.
  for (const file of [...lazy]) for (const dynamic of readChunk(file, cache).dynamics) lazy.add(dynamic);
  const size = (files: Set<string>) => [...files].reduce((sum, file) => sum + readChunk(file, cache).gzip, 0);
  const initialGzip = size(initial);
  const name = (file: string) => path.posix.basename(file).replace(/-[\w-]{8}\.js$/, '');
  // A route renders inside a lazily loaded layout: the auth layout for the access screens, and
  // (an upper bound) the largest other layout for the rest.
  const layouts = [...lazy].filter((file) => /layout|shell/.test(name(file)));
  const authLayout = layouts.filter((file) => name(file).startsWith('auth'));
  const appLayout = layouts
    .filter((file) => !name(file).startsWith('auth'))
    .sort((a, b) => size(closure([a], cache)) - size(closure([b], cache)))
    .slice(-1);
  const accessRoutes = new Set(['login', 'register', 'forgot-password', 'reset-password', 'google-sign-in']);
  const routes = [...lazy]
    .filter((file) => !layouts.includes(file))
    .map((file) => {
      const layout = accessRoutes.has(name(file)) ? authLayout : appLayout;
      const files = closure([...initial, ...layout, file], cache);
      return { chunk: name(file), gzip: size(files), files: files.size };
    });
  routes.sort((a, b) => b.gzip - a.gzip);
  return { initialGzip, initialFiles: initial.size, routes };
}

// ---------------------------------------------------------------------------------------------
// A Lighthouse-like run of /login: mobile viewport, 4x CPU slowdown, slow 4G

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Lighthouse's log-normal scoring: 0.9 at p10, 0.5 at the median. */
function logNormalScore(value: number, p10: number, median: number): number {
  if (value <= 0) return 1;
  const sigma = (Math.log(median) - Math.log(p10)) / 1.2815515655446004;
  const z = (Math.log(value) - Math.log(median)) / sigma;
  return 1 - normalCdf(z);
}

function normalCdf(z: number): number {
  // Abramowitz–Stegun 7.1.26 via erf.
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

type PageMetrics = { fcp: number; lcp: number; cls: number; tbt: number; longTasks: number; domContentLoaded: number };
type PageRun = { runs: PageMetrics[]; scripts: string[]; encodings: string[] };

async function measureLoginPage(): Promise<PageRun | string> {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM}`;
  const { chromium } = await import('@playwright/test');
  const port = await freePort();
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...inherited,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: `/tmp/entreno-bench-client-${port}`,
      CLIENT_DIR,
      LOG_LEVEL: 'warn',
      DEMO_DATA: '0',
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        if ((await fetch(`${url}/api/health`)).ok) break;
      } catch {
        // starting
      }
      if (attempt > 300) return 'the server did not start';
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const browser = await chromium.launch({ executablePath: CHROMIUM });
    const runs: PageMetrics[] = [];
    const scripts = new Set<string>();
    const encodings = new Set<string>();
    try {
      for (let run = 0; run < 3; run += 1) {
        const context = await browser.newContext({
          viewport: { width: 412, height: 823 },
          deviceScaleFactor: 1.75,
          isMobile: true,
          hasTouch: true,
          serviceWorkers: 'block',
        });
        const page = await context.newPage();
        page.on('response', (response) => {
          const pathname = new URL(response.url()).pathname;
          if (!pathname.endsWith('.js') || pathname === '/sw.js') return;
          scripts.add(pathname.slice(1));
          encodings.add(response.headers()['content-encoding'] ?? 'identity');
        });
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: 150,
          downloadThroughput: (1.6 * 1024 * 1024) / 8,
          uploadThroughput: (750 * 1024) / 8,
        });
        await page.addInitScript(() => {
          const w = window as unknown as Record<string, unknown>;
          w.__lcp = 0;
          w.__cls = 0;
          w.__long = [] as { start: number; duration: number }[];
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) w.__lcp = entry.startTime;
          }).observe({ type: 'largest-contentful-paint', buffered: true });
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & {
              value: number;
              hadRecentInput: boolean;
            })[]) {
              if (!entry.hadRecentInput) w.__cls = (w.__cls as number) + entry.value;
            }
          }).observe({ type: 'layout-shift', buffered: true });
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) {
              (w.__long as { start: number; duration: number }[]).push({
                start: entry.startTime,
                duration: entry.duration,
              });
            }
          }).observe({ type: 'longtask', buffered: true });
        });
        await page.goto(`${url}/login`, { waitUntil: 'load' });
        // Quiet time for late paints, shifts and long tasks.
        await page.waitForTimeout(3000);
        const metrics = await page.evaluate(() => {
          const w = window as unknown as Record<string, unknown>;
          const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
          const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
          const long = w.__long as { start: number; duration: number }[];
          // TBT as Lighthouse defines it: the part over 50 ms of each long task after FCP.
          const tbt = long
            .filter((task) => task.start >= fcp)
            .reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0);
          return {
            fcp,
            lcp: w.__lcp as number,
            cls: w.__cls as number,
            tbt,
            longTasks: long.length,
            domContentLoaded: nav?.domContentLoadedEventEnd ?? Number.NaN,
          };
        });
        runs.push(metrics);
        await context.close();
      }
    } finally {
      await browser.close();
    }
    return { runs, scripts: [...scripts], encodings: [...encodings] };
  } finally {
    server.kill('SIGTERM');
  }
}

/** QUALITY 28: gzipped JavaScript of the login route and the largest route; a Lighthouse-like login load. */
export async function benchClient(): Promise<BenchResult[]> {
  if (!existsSync(path.join(CLIENT_DIR, 'index.html'))) {
    return [{ name: `Client: skipped (no ${CLIENT_DIR}/index.html — run npm run build first)`, lines: [] }];
  }
  const built = statSync(path.join(CLIENT_DIR, 'index.html')).mtime.toISOString();
  const { initialGzip, initialFiles, routes } = routeSizes();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const login = routes.find((route) => route.chunk === 'login');
  const largest = routes[0];
  const sizes: BenchResult = {
    name: `Client JavaScript, gzip -9 (build of ${built}; baseline: the entry chunks every route loads)`,
    lines: [
      `entry (index.html script + modulepreloads and their imports): ${kb(initialGzip)} in ${initialFiles} files`,
      login
        ? `login route: ${kb(login.gzip)} in ${login.files} files  baseline ${kb(initialGzip)}  ratio ${(login.gzip / initialGzip).toFixed(2)}x; target ≤ ${LOGIN_BUDGET_KB} KB: ${login.gzip <= LOGIN_BUDGET_KB * 1024 ? 'MET' : 'NOT MET'}`
        : 'login route: no lazy chunk named login found',
      largest
        ? `largest route (${largest.chunk}): ${kb(largest.gzip)} in ${largest.files} files  ratio ${(largest.gzip / initialGzip).toFixed(2)}x`
        : 'no lazy routes',
      `routes: ${routes
        .slice(0, 8)
        .map((route) => `${route.chunk} ${kb(route.gzip)}`)
        .join(', ')}${routes.length > 8 ? ', …' : ''}`,
    ],
  };
  const measured = await measureLoginPage();
  if (typeof measured === 'string') return [sizes, { name: `Login page load: skipped (${measured})`, lines: [] }];
  const loadedGzip = measured.scripts.reduce(
    (sum, file) => sum + gzipSync(readFileSync(path.join(CLIENT_DIR, file)), { level: 9 }).length,
    0,
  );
  const median = (key: keyof PageMetrics) => {
    const values = measured.runs.map((run) => run[key]).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)] as number;
  };
  const fcp = median('fcp');
  const lcp = median('lcp') || fcp;
  const cls = median('cls');
  const tbt = median('tbt');
  // Lighthouse 10+ mobile weights without Speed Index (10): FCP 10, LCP 25, TBT 30, CLS 25, renormalized.
  const score =
    (10 * logNormalScore(fcp, 1800, 3000) +
      25 * logNormalScore(lcp, 2500, 4000) +
      30 * logNormalScore(tbt, 200, 600) +
      25 * logNormalScore(cls, 0.1, 0.25)) /
    90;
  return [
    sizes,
    {
      name: 'Login page load, Lighthouse-like (Playwright + Chromium, 412×823 mobile, CPU 4x slower, 150 ms RTT 1.6 Mbps; median of 3; Lighthouse itself is not installed, axe-core neither)',
      lines: [
        `JavaScript the browser loaded for /login: ${measured.scripts.length} files, ${kb(loadedGzip)} gzipped (served with content-encoding: ${measured.encodings.join(', ')}); target ≤ ${LOGIN_BUDGET_KB} KB: ${loadedGzip <= LOGIN_BUDGET_KB * 1024 ? 'MET' : 'NOT MET'}`,
        `FCP ${fcp.toFixed(0)} ms, LCP ${lcp.toFixed(0)} ms, CLS ${cls.toFixed(3)}, TBT ${tbt.toFixed(0)} ms, DOMContentLoaded ${median('domContentLoaded').toFixed(0)} ms`,
        `performance score estimate (Lighthouse curves, no Speed Index): ${(score * 100).toFixed(0)}; target ≥ 95: ${score >= 0.95 ? 'MET (estimate)' : 'NOT MET (estimate)'}; accessibility: not measured here (no axe-core)`,
      ],
    },
  ];
}
