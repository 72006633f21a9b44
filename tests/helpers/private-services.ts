import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * PostgreSQL and Redis instances of a test's own, on free ports, that the test may stop and start
 * again (issue #24's fault tests). The shared instances (5432, 6379) are never touched.
 */
export type PrivateService = {
  url: string;
  /** Stops it abruptly (Redis: SIGKILL; PostgreSQL: immediate shutdown), like a crash. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  destroy(): Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const waitFor = async (check: () => Promise<boolean>, what: string, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** A redis-server (Debian's) with no persistence on a free port. */
export async function startPrivateRedis(): Promise<PrivateService> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const ping = async () => (await run('redis-cli', ['-p', String(port), 'ping'])).stdout.trim() === 'PONG';
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitFor(ping, `redis on ${port}`);
  };
  const stop = async () => {
    const stopping = child;
    child = undefined;
    if (!stopping || stopping.exitCode !== null) return;
    const exited = new Promise((resolve) => stopping.once('exit', resolve));
    stopping.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop, destroy: stop };
}

async function postgresBinaries(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql')).sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

/**
 * A PostgreSQL cluster of its own (Debian's binaries, trust auth, no fsync) on a free port. Run as
 * root (CI), the server runs as the system user `postgres`, as PostgreSQL refuses root.
 */
export async function startPrivatePostgres(): Promise<PrivateService> {
  const bin = await postgresBinaries();
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'entreno-faults-pg-'));
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    await chown(dir, uid, gid);
  }
  const as = (command: string, args: string[]) =>
    isRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
  const data = path.join(dir, 'data');
  await as(`${bin}/initdb`, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const start = async () => {
    await as(`${bin}/pg_ctl`, ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  };
  const stop = async () => {
    await as(`${bin}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async destroy() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
