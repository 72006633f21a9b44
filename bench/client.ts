import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
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
export function routeSizes() {
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
  // A route renders inside its lazily loaded layout: the access screens in the auth layout (the
  // login screen has none), the reading pages in the info layout, the signed-in pages in the
  // protected layout, with the signed-in runtime (socket, local store…) loaded before them.
  const chunkNamed = (wanted: string) => [...lazy].filter((file) => name(file) === wanted);
  const LAYOUTS: Record<string, string[]> = {
    auth: chunkNamed('auth-layout'),
    info: chunkNamed('info-layout'),
    app: [...chunkNamed('protected-layout'), ...chunkNamed('signed-in-runtime')],
    none: [],
  };
  const layoutOf = (route: string): string => {
    if (['register', 'register-email', 'register-google', 'forgot-password', 'reset-password'].includes(route))
      return 'auth';
    if (['terms', 'privacy', 'dev-outbox', 'dev-ui'].includes(route)) return 'info';
    if (['login', 'not-found', 'unauthorized'].includes(route)) return 'none';
    return 'app';
  };
  const notRoutes = new Set(Object.values(LAYOUTS).flat());
  const routes = [...lazy]
    .filter((file) => !notRoutes.has(file) && !/layout|shell/.test(name(file)))
    .map((file) => {
      const files = closure([...initial, ...(LAYOUTS[layoutOf(name(file))] ?? []), file], cache);
      return { chunk: name(file), gzip: size(files), files: files.size };
    });
  routes.sort((a, b) => b.gzip - a.gzip);
  return { initialGzip, initialFiles: initial.size, routes };
}

// ---------------------------------------------------------------------------------------------
// Lighthouse (mobile: Moto G Power emulation, simulated slow 4G and 4x CPU slowdown) on /login

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

type Audit = {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  numericValue?: number;
  displayValue?: string;
  details?: { items?: Record<string, unknown>[] };
};
type LighthouseReport = {
  lighthouseVersion: string;
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, Audit>;
  runtimeError?: { code: string; message: string };
};
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
type LighthouseRun = Record<Category, number> & { report: LighthouseReport; load: number };

const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/** Where to keep each run's JSON report (critical chains, main-thread tasks…); unset: not kept. */
const REPORTS_DIR = process.env.BENCH_LIGHTHOUSE_REPORTS;
/**
 * Lighthouse's simulation multiplies the main-thread tasks it observed by 4: on a shared host the
 * other work stretches them. Chromium and the server run at this priority (the bench needs root
 * for a negative one; refused, it says so and runs at the inherited one).
 */
const LIGHTHOUSE_NICE = Number(process.env.BENCH_LIGHTHOUSE_NICE ?? -5);

/** Sets a started process's priority (its children inherit it); the reason when refused. */
function prioritize(pid: number | undefined): string | undefined {
  if (pid === undefined) return 'no process';
  try {
    if (os.getPriority(pid) !== LIGHTHOUSE_NICE) os.setPriority(pid, LIGHTHOUSE_NICE);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Chromium sets its renderers' priority itself (a foreground renderer back to 0): every 200 ms the
 * priority of each descendant of `pid` is set again (Linux /proc). Returns the stop function.
 */
function keepPrioritized(pid: number | undefined): () => void {
  if (pid === undefined || !existsSync('/proc/self/stat')) return () => undefined;
  const parentOf = (child: string): number | undefined => {
    try {
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${child}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return undefined;
    }
  };
  const timer = setInterval(() => {
    const family = new Set([pid]);
    const processes = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
    // Parents have lower ids than their children almost always; two passes cover the rest.
    for (let pass = 0; pass < 2; pass += 1)
      for (const name of processes) {
        const parent = parentOf(name);
        if (parent !== undefined && family.has(parent)) family.add(Number(name));
      }
    for (const member of family) prioritize(member);
  }, 200);
  return () => clearInterval(timer);
}

function runLighthouse(url: string, outputPath: string): Promise<LighthouseReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        'node_modules/lighthouse/cli/index.js',
        url,
        '--output=json',
        `--output-path=${outputPath}`,
        `--only-categories=${CATEGORIES.join(',')}`,
        '--form-factor=mobile',
        '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
        '--quiet',
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // Before Lighthouse starts Chromium (it loads its modules first), so Chromium inherits it.
    prioritize(child.pid);
    const stopPrioritizing = keepPrioritized(child.pid);
    let errors = '';
    child.stderr.on('data', (chunk) => (errors += String(chunk)));
    child.on('error', (error) => {
      stopPrioritizing();
      reject(error);
    });
    child.on('exit', (code) => {
      stopPrioritizing();
      if (code !== 0 || !existsSync(outputPath))
        return reject(new Error(`lighthouse exited ${code}: ${errors.slice(-800)}`));
      const report = JSON.parse(readFileSync(outputPath, 'utf8')) as LighthouseReport;
      if (report.runtimeError)
        return reject(new Error(`lighthouse: ${report.runtimeError.code} ${report.runtimeError.message}`));
      resolve(report);
    });
  });
}

/** The built server (its embedded PostgreSQL in a temp dir) serving CLIENT_DIR; Lighthouse runs against /login. */
async function lighthouseLoginPage(): Promise<{ runs: LighthouseRun[]; nice: string } | string> {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM}`;
  if (!existsSync('node_modules/lighthouse/cli/index.js')) return 'lighthouse is not installed';
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'entreno-bench-client-'));
  // The embedded PostgreSQL runs as its own user when the bench runs as root: it must enter DATA_DIR.
  chmodSync(dataDir, 0o711);
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...inherited,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CLIENT_DIR,
      LOG_LEVEL: 'warn',
      DEMO_DATA: '0',
    },
    stdio: 'ignore',
  });
  const refused = prioritize(server.pid);
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
    const runs: LighthouseRun[] = [];
    if (REPORTS_DIR) mkdirSync(REPORTS_DIR, { recursive: true });
    for (let run = 0; run < LIGHTHOUSE_RUNS; run += 1) {
      const load = os.loadavg()[0] as number;
      const output = path.join(dataDir, `lighthouse-${run}.json`);
      const report = await runLighthouse(`${url}/login`, output);
      if (REPORTS_DIR) copyFileSync(output, path.join(REPORTS_DIR, `lighthouse-${run}.json`));
      const score = (category: Category) => report.categories[category]?.score ?? Number.NaN;
      runs.push({
        performance: score('performance'),
        accessibility: score('accessibility'),
        'best-practices': score('best-practices'),
        seo: score('seo'),
        report,
        load,
      });
    }
    return { runs, nice: refused ? `priority not raised: ${refused}` : `nice ${LIGHTHOUSE_NICE}` };
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    rmSync(dataDir, { recursive: true, force: true });
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
  const outcome = await lighthouseLoginPage();
  if (typeof outcome === 'string') return [sizes, { name: `Lighthouse on /login: skipped (${outcome})`, lines: [] }];
  const { runs, nice } = outcome;
  // The median run by performance score; its metrics and its list of what fell short.
  const sorted = [...runs].sort((a, b) => a.performance - b.performance);
  const median = sorted[Math.floor(sorted.length / 2)] as LighthouseRun;
  const { audits } = median.report;
  const metric = (id: string) => `${audits[id]?.displayValue ?? '?'} (${Math.round((audits[id]?.score ?? 0) * 100)})`;
  const seconds = (run: LighthouseRun, id: string) =>
    `${((run.report.audits[id]?.numericValue ?? Number.NaN) / 1000).toFixed(2)} s`;
  const perRun = runs.map(
    (run, index) =>
      `run ${index + 1} (load ${run.load.toFixed(1)}): performance ${Math.round(run.performance * 100)}, FCP ${seconds(run, 'first-contentful-paint')}, LCP ${seconds(run, 'largest-contentful-paint')}, TBT ${Math.round(run.report.audits['total-blocking-time']?.numericValue ?? Number.NaN)} ms, SI ${seconds(run, 'speed-index')}`,
  );
  const scripts = (audits['network-requests']?.details?.items ?? []).filter(
    (item) => item.resourceType === 'Script' && String(item.url).includes('/assets/'),
  );
  const loadedGzip = scripts.reduce((sum, item) => {
    const file = new URL(String(item.url)).pathname.slice(1);
    return sum + gzipSync(readFileSync(path.join(CLIENT_DIR, file)), { level: 9 }).length;
  }, 0);
  const transferred = scripts.reduce((sum, item) => sum + Number(item.transferSize ?? 0), 0);
  const shortfalls = CATEGORIES.flatMap((category) =>
    (median.report.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => audits[ref.id] as Audit)
      .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
      .map((audit) => `${audit.title} ${audit.displayValue ?? ''} (${Math.round((audit.score ?? 0) * 100)})`.trim()),
  );
  const scoreList = (key: Category) => runs.map((run) => Math.round(run[key] * 100)).join(', ');
  const met = (score: number, target: number) => (score >= target ? 'MET' : 'NOT MET');
  return [
    sizes,
    {
      name: `Lighthouse ${median.report.lighthouseVersion} on /login (mobile, simulated slow 4G + 4x CPU, Debian Chromium headless, ${nice}; ${runs.length} runs, the median by performance shown; built server, precompressed assets)`,
      lines: [
        ...perRun,
        // #19: performance ≥ 95, the other categories 100.
        ...CATEGORIES.map((category) => {
          const target = category === 'performance' ? 0.95 : 1;
          return `${category} ${Math.round(median[category] * 100)} (runs: ${scoreList(category)}); target ≥ ${target * 100}: ${met(median[category], target)}`;
        }),
        `FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}, Speed Index ${metric('speed-index')}`,
        `JavaScript loaded: ${scripts.length} files, ${kb(loadedGzip)} gzip -9 (${kb(transferred)} transferred); target ≤ ${LOGIN_BUDGET_KB} KB: ${loadedGzip <= LOGIN_BUDGET_KB * 1024 ? 'MET' : 'NOT MET'}`,
        `below 90 in the median run: ${shortfalls.length > 0 ? shortfalls.join('; ') : 'nothing'}`,
      ],
    },
  ];
}
