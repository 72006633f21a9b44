/**
 * What the server spends per operation, for the benches that profile it (deck-profile,
 * message-cost): statements by name, CPU of the main thread (the server; loads run in worker
 * threads) and of the PostgreSQL backends, and a CPU profile summarized by function and module.
 */
import type { Session } from 'node:inspector/promises';
import pg from 'pg';

export type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
export type CpuProfile = {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};

/** Statement round trips by statement (prepared name, or the first words of its text). */
export function instrumentPool() {
  const timings = new Map<string, number[]>();
  let isOn = false;
  const original = pg.Pool.prototype.query as (...args: unknown[]) => Promise<unknown>;
  const keyOf = (config: unknown): string => {
    if (typeof config === 'string') return config.replace(/\s+/g, ' ').slice(0, 70);
    const named = config as { name?: string; text?: string };
    return named.name ?? (named.text ?? '?').replace(/\s+/g, ' ').slice(0, 70);
  };
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    const result = original.apply(this, args);
    if (!isOn || !(result instanceof Promise)) return result;
    const started = performance.now();
    const key = keyOf(args[0]);
    return result.then((value) => {
      const list = timings.get(key) ?? [];
      list.push(performance.now() - started);
      timings.set(key, list);
      return value;
    });
  } as typeof pg.Pool.prototype.query;
  return {
    start() {
      timings.clear();
      isOn = true;
    },
    stop() {
      isOn = false;
      return timings;
    },
    restore() {
      pg.Pool.prototype.query = original as typeof pg.Pool.prototype.query;
    },
  };
}

/**
 * Whose CPU to count: the backends serving `database` on a shared server, or every process the
 * embedded PostgreSQL of this process runs (its postmaster's children: backends, WAL writer…),
 * never another engineer's cluster.
 */
export type BackendFilter = { database: string } | { embedded: true };

/** CPU milliseconds (user + system) of each PostgreSQL process the filter selects, by pid (Linux /proc). */
async function backendCpuByPid(filter: BackendFilter): Promise<Map<string, number>> {
  const { readdir, readFile } = await import('node:fs/promises');
  const tick = 10; // ms per USER_HZ tick on Linux
  const stats = new Map<string, { parent: string; cpuMs: number; isPostgres: boolean; cmdline: string }>();
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      stats.set(pid, {
        parent: fields[1] as string,
        cpuMs: (Number(fields[11]) + Number(fields[12])) * tick,
        isPostgres: stat.includes('(postgres)'),
        cmdline,
      });
    } catch {
      // The process ended meanwhile.
    }
  }
  const descends = (pid: string) => {
    for (let current = stats.get(pid)?.parent, depth = 0; current && depth < 4; depth += 1) {
      if (current === String(process.pid)) return true;
      current = stats.get(current)?.parent;
    }
    return false;
  };
  const byPid = new Map<string, number>();
  for (const [pid, process_] of stats) {
    const isChosen =
      'database' in filter
        ? process_.cmdline.startsWith('postgres: ') && process_.cmdline.includes(` ${filter.database} `)
        : process_.isPostgres && descends(pid);
    if (isChosen) byPid.set(pid, process_.cpuMs);
  }
  return byPid;
}

/**
 * CPU of the PostgreSQL processes `filter` selects, from `start` to `stop`; sampled every
 * `everyMs` (0: at start and stop only, for connections that stay open, e.g. a busy pool).
 */
export function backendCpu(filter: BackendFilter, everyMs = 200) {
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let ticks = 0;
  const record = (pid: string, ms: number, isFirst: boolean) => {
    if (isFirst) first.set(pid, ms);
    else if (!first.has(pid)) first.set(pid, 0);
    last.set(pid, ms);
  };
  // A scan of all of /proc costs the main thread (which is measured too): once in ten samples,
  // the processes already found in between.
  const sample = async (isFirst: boolean, isFull = false) => {
    ticks += 1;
    if (isFirst || isFull || ticks % 10 === 0) {
      for (const [pid, ms] of await backendCpuByPid(filter)) record(pid, ms, isFirst);
      return;
    }
    const { readFile } = await import('node:fs/promises');
    for (const pid of last.keys()) {
      try {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        record(pid, (Number(fields[11]) + Number(fields[12])) * 10, false);
      } catch {
        // Ended since the last sample: its last value stands.
      }
    }
  };
  return {
    async start() {
      await sample(true);
      if (everyMs > 0) timer = setInterval(() => void sample(false), everyMs);
    },
    async stop(): Promise<number> {
      clearInterval(timer);
      await sample(false, true);
      let total = 0;
      for (const [pid, ms] of last) total += ms - (first.get(pid) ?? 0);
      return total;
    },
  };
}

/**
 * The main thread's scheduler counters (Linux): nanoseconds on a core and waiting for one
 * (runnable, not running: preempted or not yet picked), and its context switches. A wall-clock
 * CPU profile charges the waits to whatever the thread was doing when it lost its core, typically
 * the socket write that woke a PostgreSQL backend.
 */
export async function schedulerCounters() {
  const { readFile } = await import('node:fs/promises');
  const task = `/proc/self/task/${process.pid}`;
  const [onCpu = 0, waiting = 0] = (await readFile(`${task}/schedstat`, 'utf8')).trim().split(' ').map(Number);
  const status = await readFile(`${task}/status`, 'utf8');
  const count = (name: string) => Number(new RegExp(`^${name}:\\s*(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return {
    onCpuMs: onCpu / 1e6,
    waitingMs: waiting / 1e6,
    voluntary: count('voluntary_ctxt_switches'),
    involuntary: count('nonvoluntary_ctxt_switches'),
  };
}

/** CPU milliseconds of this process's main thread alone (the server; the load runs in a worker). */
export async function mainThreadCpuMs(): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const place = (frame: ProfileNode['callFrame']) => {
  const url = frame.url.replace(/^file:\/\//, '');
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  const bench = url.indexOf('/bench/');
  if (bench >= 0) return url.slice(bench + 1);
  return url === '' ? '(native)' : url.startsWith('node:') ? url : url.split('/').slice(-1)[0] || url;
};

/** Self and inclusive milliseconds by function and by module (place). */
export function summarizeProfile(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const modules = new Map<string, number>();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    total += ms;
    const leaf = byId.get(id) as ProfileNode;
    const name = (node: ProfileNode) =>
      `${node.callFrame.functionName || '(anonymous)'} ${place(node.callFrame)}:${node.callFrame.lineNumber + 1}`;
    if (leaf.callFrame.functionName === '(idle)') {
      idle += ms;
      return;
    }
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + ms);
    const leafModule = place(leaf.callFrame);
    modules.set(leafModule, (modules.get(leafModule) ?? 0) + ms);
    const seen = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const node = byId.get(current) as ProfileNode;
      const key = name(node);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  });
  const top = (map: Map<string, number>, n: number, filter: (key: string) => boolean = () => true) =>
    [...map]
      .filter(([key]) => filter(key))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n);
  return {
    total,
    idle,
    self: top(self, 30),
    inclusive: top(inclusive, 45, (key) => !key.startsWith('(')),
    modules: top(modules, 20),
  };
}

/** Starts the main thread's CPU profiler at a 200 µs sampling interval. */
export async function startProfiler(session: Session): Promise<void> {
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
}
