// @setup embedded
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi } from '../helpers/auth-api.ts';
import { eventually } from '../helpers/chat-api.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { fromBundle } from '../helpers/node-process.ts';

/**
 * `npm start`'s own database (docs/decisions/0019): a server started as a person starts it, with no
 * DATABASE_URL, runs PostgreSQL as its child in DATA_DIR/pg. Only in the embedded project: the
 * scaled one has nothing of its own to add here.
 */
const isEmbedded = process.env.TEST_DATABASE === 'embedded';

type Node = { url: string; child: ChildProcess; output: string[]; exited: Promise<number | null> };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The server's bundle (`node dist/server/main.js`) on DATA_DIR, without DATABASE_URL or REDIS_URL. */
async function spawnNode(dataDir: string, extraEnv: Record<string, string> = {}): Promise<Node> {
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...env } = process.env;
  const port = await freePort();
  const child = spawn(process.execPath, fromBundle('main'), {
    env: {
      ...env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DEMO_DATA: '0',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { url: `http://127.0.0.1:${port}`, child, output, exited };
}

/** A node that answers /api/health. */
async function startNode(dataDir: string, extraEnv: Record<string, string> = {}): Promise<Node> {
  const node = await spawnNode(dataDir, extraEnv);
  let hasExited = false;
  void node.exited.then(() => {
    hasExited = true;
  });
  await eventually(async () => {
    if (hasExited) throw new Error(`node exited:\n${node.output.join('')}`);
    return fetch(`${node.url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    // A hang detector, not a timing: a first start runs initdb and the migrations.
  }, 180_000);
  return node;
}

/** The postmaster's PID from DATA_DIR/pg/postmaster.pid, or undefined when there is none. */
function serverPid(dataDir: string): number | undefined {
  try {
    return Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

describe.runIf(isEmbedded)('the embedded PostgreSQL of npm start', { timeout: 600_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'entreno-embedded-'));
  // Enterable by the server's own user when the tests run as root (mkdtemp makes it 0700).
  chmodSync(dataDir, 0o711);
  const nodes: Node[] = [];

  afterAll(async () => {
    for (const node of nodes) if (node.child.exitCode === null) node.child.kill('SIGKILL');
    await Promise.all(nodes.map((node) => node.exited));
    const pid = serverPid(dataDir);
    if (pid !== undefined) await eventually(() => !isAlive(pid), 30_000).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('initialises DATA_DIR/pg, keeps the data across a clean SIGTERM restart, refuses a second server on the same directory, and does not outlive a killed app', async () => {
    // First start: a new cluster; health names the engine.
    const first = await startNode(dataDir);
    nodes.push(first);
    const health = await (await fetch(`${first.url}/api/health`)).json();
    expect(health).toMatchObject({ status: 'ok', database: 'embedded', realtime: 'memory' });
    const api = createApi({ url: first.url } as TestApp);
    const account = await api.registerUser({ name: 'Duradera' });
    const firstServer = serverPid(dataDir);
    expect(firstServer).toBeGreaterThan(0);

    // A second app on the same DATA_DIR is refused with a message that says why and what to do.
    const second = await spawnNode(dataDir);
    nodes.push(second);
    expect(await second.exited).toBe(1);
    const refusal = second.output.join('');
    expect(refusal).toContain('in use by another PostgreSQL server');
    expect(refusal).toContain('DATA_DIR');
    expect(refusal).not.toMatch(/\n\s+at /);

    // SIGTERM: the app drains, then stops its server (no postmaster.pid left behind).
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(isAlive(firstServer as number)).toBe(false);
    expect(serverPid(dataDir)).toBeUndefined();

    // Restart on the same directory: the account is still there.
    const third = await startNode(dataDir);
    nodes.push(third);
    const login = await createApi({ url: third.url } as TestApp).login(account.email);
    expect(login.token).toBeTruthy();

    // The app killed outright: its server shuts itself down instead of holding DATA_DIR.
    const thirdServer = serverPid(dataDir) as number;
    expect(isAlive(thirdServer)).toBe(true);
    third.child.kill('SIGKILL');
    await third.exited;
    await eventually(() => !isAlive(thirdServer), 30_000);
    expect(serverPid(dataDir)).toBeUndefined();
  });

  it('seeds the demo data of a first start in a child process, and the demo account signs in', async () => {
    const demoDir = mkdtempSync(path.join(tmpdir(), 'entreno-embedded-demo-'));
    chmodSync(demoDir, 0o711);
    try {
      const node = await startNode(demoDir, { DEMO_DATA: '1', LOG_LEVEL: 'info' });
      nodes.push(node);
      const lines = node.output
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { pid: number; msg: string });
      const seeded = lines.find((line) => line.msg.startsWith('Demo data: '));
      // The seeding ran in a process of its own, which the app waited for before it listened.
      expect(seeded?.pid).toBeGreaterThan(0);
      expect(seeded?.pid).not.toBe(node.child.pid);
      expect(
        lines.some((line) => line.pid === node.child.pid && line.msg === 'demo data seeded in a child process'),
      ).toBe(true);
      const login = await fetch(`${node.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'demo@demo.entreno.app', password: 'Pesas&Batidos24' }),
      });
      expect(login.status).toBe(200);
      const { token, user } = (await login.json()) as { token: string; user: { userId: string } };
      // Its photos are in the app's own store: the deck's first card's photo is served.
      const headers = { authorization: `Bearer ${token}` };
      const deck = await fetch(`${node.url}/api/profiles/${user.userId}/recommended`, { headers });
      expect(deck.status).toBe(200);
      const { profiles } = (await deck.json()) as { profiles: { photos: string[] }[] };
      const photo = profiles[0]?.photos[0] ?? '';
      expect(photo).not.toBe('');
      const served = await fetch(new URL(photo, node.url), { headers });
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      node.child.kill('SIGTERM');
      expect(await node.exited).toBe(0);
    } finally {
      rmSync(demoDir, { recursive: true, force: true });
    }
  });
});
