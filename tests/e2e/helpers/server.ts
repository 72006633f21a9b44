import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type ServerProcess = {
  url: string;
  port: number;
  dataDir: string;
  /** Sends SIGTERM and waits for the process to exit. */
  stop(): Promise<void>;
  /** Kills the process at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
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

/**
 * Starts the built server (dist/server/main.js) as its own process, for tests that need a
 * private instance: restarts, crashes, several nodes. Reuse `dataDir` to restart on the same data.
 */
export async function startServerProcess(
  options: { port?: number; dataDir?: string; env?: Record<string, string> } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'entreno-e2e-node-'));
  // The embedded PostgreSQL runs as its own user when the tests run as root: it must enter DATA_DIR.
  chmodSync(dataDir, 0o711);
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: url,
      LOG_LEVEL: 'warn',
      DEMO_DATA: '0',
      RATE_LIMIT_IP_FACTOR: '50',
      // Its own embedded database in DATA_DIR, not the shared PostgreSQL/Redis CI exports.
      DATABASE_URL: '',
      REDIS_URL: '',
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('server did not become healthy within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    port,
    dataDir,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
