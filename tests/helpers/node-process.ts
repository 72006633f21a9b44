import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { inject } from 'vitest';
import type { TestApp } from './test-app.ts';

/** A server started as its own process, as an operator starts one. */
export type NodeProcess = { url: string; port: number; child: ChildProcess; output: string[] };

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** What a scaled node needs, and only that: the shared database and Redis (a key space of its own). */
export function scaledNodeEnv(databaseUrl: string): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL as string,
    REDIS_KEY_PREFIX: `entreno-test:${randomBytes(6).toString('hex')}:`,
    DEMO_DATA: '0',
  };
}

/**
 * One of the run's server bundle's scripts (tests/helpers/server-bundle-setup.ts: `main`, `moderator`,
 * `move-to-shared`, `quedada-crash-runner`), as `node` arguments: the bundle that
 * `npm run build` makes and the Dockerfile runs.
 */
export function fromBundle(name: 'main' | 'moderator' | 'move-to-shared' | 'quedada-crash-runner'): string[] {
  return [path.join(inject('serverBundleDir'), `${name}.js`)];
}

/** Starts a node with `env` on a free loopback port; resolves once `readyPath` answers 200. */
export async function startNodeProcess(
  env: Record<string, string>,
  options: { args?: string[]; readyPath?: string; port?: number; timeoutMs?: number } = {},
): Promise<NodeProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, options.args ?? fromBundle('main'), {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 45_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node exited (${child.exitCode}):\n${output.join('')}`);
    try {
      const response = await fetch(`${url}${options.readyPath ?? '/api/health'}`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`node did not start:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, port, child, output };
}

/** Whether the process has ended. */
export const hasExited = (node: NodeProcess) => node.child.exitCode !== null || node.child.signalCode !== null;

/** Sends `signal` and resolves with the exit code (null after a signal) once the process has ended. */
export function stopNodeProcess(
  node: NodeProcess | undefined,
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<number | null> {
  if (!node) return Promise.resolve(null);
  if (hasExited(node)) return Promise.resolve(node.child.exitCode);
  return new Promise((resolve) => {
    node.child.once('exit', (code) => resolve(code));
    node.child.kill(signal);
  });
}

/** What the API helpers need from a node: its base URL. */
export const asTestApp = (node: NodeProcess) => ({ url: node.url }) as TestApp;
