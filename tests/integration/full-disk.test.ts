// @setup embedded
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { open, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedDatabaseError, startEmbeddedPostgres } from '../../src/server/db/embedded-postgres.ts';
import { createMemoryPhotoStore } from '../../src/server/features/photos/photo-store.ts';
import { createDiscoveryApi, type DiscoveryApi } from '../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { fromBundle } from '../helpers/node-process.ts';

/**
 * Issue #24 item 7: a full disk answers 507 with Retry-After and a Spanish text, never 500. The
 * photo store's writes fail as the filesystem's do when the disk is full (an injected ENOSPC),
 * then succeed again once there is room: no restart needed.
 */
describe('a full disk under a photo upload', () => {
  const store = createMemoryPhotoStore();
  let isFull = true;
  let app: TestApp;
  let api: DiscoveryApi;
  beforeAll(async () => {
    const put = store.put.bind(store);
    const fullDisk = {
      ...store,
      kind: store.kind,
      get: store.get.bind(store),
      delete: store.delete.bind(store),
      async put(key: string, data: Buffer) {
        if (isFull) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        await put(key, data);
      },
    };
    app = await startTestApp({}, { dependencies: { photoStore: fullDisk } });
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 507 while the disk is full, and stores the photo once there is room', async () => {
    const user = await api.userWithProfile();
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#a33' } })
      .jpeg()
      .toBuffer();
    const refused = await api.upload(user.userId, [{ data: jpeg }], user.token);
    expect(refused.status).toBe(507);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body).toEqual({
      success: false,
      message: 'No queda espacio para guardar los datos en el servidor. Inténtalo más tarde.',
      errorType: 'STORAGE_FULL',
    });
    isFull = false;
    const stored = await api.upload(user.userId, [{ data: jpeg }], user.token);
    expect(stored.status, JSON.stringify(stored.body)).toBeLessThan(300);
  });
});

/**
 * A small disk of its own (tmpfs) for DATA_DIR, mounted for the test: root only (CI runs as root;
 * elsewhere the block is skipped, and says so).
 */
function mountSmallDisk(megabytes: number): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'entreno-full-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0755`, 'tmpfs', dir]);
  if (mounted.status === 0) return dir;
  rmdirSync(dir);
  return undefined;
}

/** Fills the disk holding `dir` to the last byte. */
async function fill(file: string) {
  const handle = await open(file, 'w');
  const chunk = Buffer.alloc(1024 * 1024);
  try {
    for (let size = chunk.length; size >= 1; ) {
      try {
        await handle.write(chunk, 0, size);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        size = Math.floor(size / 2);
      }
    }
  } finally {
    await handle.close().catch(() => {});
  }
}

const isEmbedded = process.env.TEST_DATABASE === 'embedded';
const disk = isEmbedded ? mountSmallDisk(160) : undefined;

/**
 * Issue #32 §4: DATA_DIR on a disk that filled up. The start says in one line what is wrong and
 * what to do and exits non-zero — before trying when the disk is (nearly) full, and after
 * PostgreSQL failed when it failed for want of space — and once there is room the same start works.
 */
describe.skipIf(!disk)('a full disk at start (embedded PostgreSQL on a 160 MB tmpfs)', () => {
  const mount = disk as string;
  const dataDir = path.join(mount, 'data');
  const cluster = path.join(dataDir, 'pg');
  const filler = path.join(mount, 'filler');
  const start = (options: { minFreeBytes?: number } = {}) =>
    startEmbeddedPostgres({ dir: cluster, unsafeNoSync: true, ...options });

  afterAll(() => {
    spawnSync('umount', ['-l', mount]);
    rmdirSync(mount);
  });

  it('refuses to start on a full disk in one line, and starts once there is room', async () => {
    // A cluster that ran here, then the disk filled up while it was stopped.
    await (await start()).stop();
    await fill(filler);
    expect((await statfs(mount)).bavail).toBe(0);

    // Before trying: one line naming the disk and what to do.
    const refused = await start().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EmbeddedDatabaseError);
    const message = (refused as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^The disk of DATA_DIR is full: .*\/data\/pg has 0 MB free.* Free space on that disk/);

    // Tried anyway (no margin): PostgreSQL fails for want of space, and the answer is the same line.
    const failed = await start({ minFreeBytes: 0 }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(EmbeddedDatabaseError);
    expect((failed as Error).message).toMatch(/^The disk of DATA_DIR is full: /);
    expect((failed as Error).message).not.toContain('\n');

    // `npm start` itself: the line on stderr, and a non-zero exit.
    const { DATABASE_URL: _database, REDIS_URL: _redis, ...env } = process.env;
    const child = spawn(process.execPath, fromBundle('main'), {
      env: { ...env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DEMO_DATA: '0', DATA_DIR: dataDir, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^The disk of DATA_DIR is full: /)]);

    // Room again: the same start works, data and all.
    await rm(filler);
    const server = await start();
    await server.stop();
  }, 120_000);
});
