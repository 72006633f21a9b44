// @setup scaled — moving an embedded install into the shared PostgreSQL
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client.ts';
import { createPhotoBlobRepository } from '../../src/server/features/photos/photo-blob-repository.ts';
import { createFilesystemPhotoStore, newPhotoKey, thumbnailKey } from '../../src/server/features/photos/photo-store.ts';
import { loadOrCreateVapidKeys } from '../../src/server/features/push/vapid-keys.ts';
import { loadOrCreateTokenSecret } from '../../src/server/secrets.ts';
import { createScratchDatabase } from '../helpers/test-app.ts';
import { fromBundle } from '../helpers/node-process.ts';

const isPostgres = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL;
const run = promisify(execFile);

/** `npm run move-to-shared -- <DATA_DIR>`: an embedded install's photos and secrets into the shared database. */
describe.runIf(isPostgres)('moving an embedded install to the shared database', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let dataDir: string;
  beforeAll(async () => {
    database = await createScratchDatabase(process.env.DATABASE_URL as string);
    dataDir = await mkdtemp(path.join(tmpdir(), 'entreno-embedded-'));
  });
  afterAll(async () => {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('copies every photo file and the generated secrets, and running it again changes nothing', async () => {
    const files = createFilesystemPhotoStore(path.join(dataDir, 'photos'));
    const photos = new Map<string, Buffer>();
    for (const userId of [randomUUID(), randomUUID()]) {
      for (let index = 0; index < 2; index += 1) {
        const key = newPhotoKey(userId);
        for (const [stored, data] of [
          [key, randomBytes(2000)],
          [thumbnailKey(key), randomBytes(300)],
        ] as const) {
          await files.put(stored, data);
          photos.set(stored, data);
        }
      }
    }
    await writeFile(path.join(dataDir, 'photos', 'stray.tmp'), 'not a photo');
    const tokenSecret = await loadOrCreateTokenSecret(dataDir);
    const vapid = await loadOrCreateVapidKeys(dataDir);

    const move = () =>
      run(process.execPath, [...fromBundle('move-to-shared'), dataDir], {
        env: { ...process.env, DATABASE_URL: database.url, NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      });
    const first = await move();
    expect(first.stdout).toContain('photos: 8 files in the shared database');
    expect(first.stdout).toContain('token-secret: in the shared database');
    expect(first.stdout).toContain('ignored (not photo files): stray.tmp');
    const second = await move();
    expect(second.stdout).toContain('photos: 8 files in the shared database');

    const handle = await openDatabase({ databaseUrl: database.url, dataDir });
    try {
      const shared = createPhotoBlobRepository(handle.db);
      for (const [key, data] of photos) expect((await shared.get(key))?.equals(data), key).toBe(true);
    } finally {
      await handle.close();
    }
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query('select name, value from server_secrets order by name');
      expect(rows).toEqual([
        { name: 'token-secret', value: tokenSecret },
        { name: 'vapid-keys', value: JSON.stringify(vapid) },
      ]);
      expect((await client.query('select count(*)::int as n from photo_blobs')).rows[0].n).toBe(8);
    } finally {
      await client.end();
    }
  });

  it('refuses to run without DATABASE_URL, naming it', async () => {
    const { DATABASE_URL: _url, REDIS_URL: _redis, ...env } = process.env;
    await expect(run(process.execPath, [...fromBundle('move-to-shared'), dataDir], { env })).rejects.toMatchObject({
      stderr: expect.stringContaining('DATABASE_URL: required'),
    });
  });
});
