// @setup scaled — pg_dump / restore-dump of the shared database (and the archive of an embedded DATA_DIR, in its own process)
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi } from '../helpers/auth-api.ts';
import { createDiscoveryApi, profileBody } from '../helpers/discovery-api.ts';
import { asTestApp, startNodeProcess, stopNodeProcess } from '../helpers/node-process.ts';
import { createScratchDatabase, startTestApp, type TestApp } from '../helpers/test-app.ts';

const run = promisify(execFile);
const backup = (args: string[], env: Record<string, string> = {}) =>
  run('bash', ['deploy/backup.sh', ...args], { env: { ...process.env, ...env } });
const scratch = () => path.join(tmpdir(), `entreno-backup-${randomBytes(4).toString('hex')}`);

/** A user with a profile and one photo, made over HTTP only; what a restore must bring back. */
async function userWithPhoto(app: TestApp) {
  const api = createDiscoveryApi(app);
  const account = await api.registerUser({ name: 'Rocío' });
  const { token } = await api.login(account.email);
  expect((await api.post('/profiles', profileBody(account.userId, { name: 'Rocío' }), token)).status).toBe(201);
  const photo = await sharp({ create: { width: 48, height: 48, channels: 3, background: '#aa3355' } })
    .png()
    .toBuffer();
  const upload = await api.upload(account.userId, [{ data: photo }], token);
  expect(upload.status, JSON.stringify(upload.body)).toBe(200);
  const [key] = upload.body.photoKeys as string[];
  const bytes = Buffer.from(await (await fetch(`${app.url}/${key}`)).arrayBuffer());
  return { ...account, token, key: key as string, bytes };
}

/** The restored node knows the session (same token secret), the password and the photo's bytes. */
async function expectRestored(app: TestApp, saved: Awaited<ReturnType<typeof userWithPhoto>>) {
  const api = createApi(app);
  expect((await api.get('/auth/validate-session', saved.token)).status).toBe(200);
  expect((await api.login(saved.email)).token).toBeTruthy();
  const served = await fetch(`${app.url}/${saved.key}`);
  expect(served.status).toBe(200);
  expect(Buffer.from(await served.arrayBuffer()).equals(saved.bytes)).toBe(true);
}

describe.runIf(process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL)(
  'backup and restore, scaled: deploy/backup.sh dump / restore-dump',
  () => {
    const cleanup: (() => Promise<unknown>)[] = [];
    afterAll(async () => {
      for (const step of cleanup.reverse()) await step().catch(() => {});
    });

    it('a pg_dump restored into a new database brings back users, sessions, photos and secrets', async () => {
      // No TOKEN_SECRET: the generated one lives in the database, and must come back with it.
      const original = await startTestApp({ tokenSecret: undefined });
      cleanup.push(() => original.close());
      const saved = await userWithPhoto(original);
      const file = `${scratch()}.dump`;
      cleanup.push(() => rm(file, { force: true }));
      await backup(['dump', file], { DATABASE_URL: original.config.databaseUrl as string });

      const target = await createScratchDatabase(process.env.DATABASE_URL as string);
      cleanup.push(() => target.drop());
      await backup(['restore-dump', file], { DATABASE_URL: target.url });
      const restored = await startTestApp({ tokenSecret: undefined, databaseUrl: target.url });
      cleanup.push(() => restored.close());
      await expectRestored(restored, saved);
    }, 120_000);
  },
);

// Its own embedded node in a child process, whatever the project: this file runs once, on the scaled setup.
describe('backup and restore, embedded: deploy/backup.sh archive / restore-archive of a stopped DATA_DIR', () => {
  const dirs = [scratch(), scratch()];
  const archive = `${scratch()}.tar.gz`;
  afterAll(async () => {
    for (const target of [...dirs, archive]) await rm(target, { recursive: true, force: true });
  });
  // An embedded node: no DATABASE_URL or REDIS_URL (empty counts as unset), its own DATA_DIR.
  const embedded = (dataDir: string) =>
    startNodeProcess(
      { NODE_ENV: 'test', LOG_LEVEL: 'warn', DEMO_DATA: '0', DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir },
      // A first embedded start creates and migrates the database: slow on a loaded machine.
      { timeoutMs: 150_000 },
    );

  it('an archive of a stopped DATA_DIR, restored elsewhere, brings everything back', async () => {
    const first = await embedded(dirs[0] as string);
    let saved: Awaited<ReturnType<typeof userWithPhoto>>;
    try {
      saved = await userWithPhoto(asTestApp(first));
    } finally {
      expect(await stopNodeProcess(first, 'SIGTERM')).toBe(0);
    }
    await backup(['archive', dirs[0] as string, archive]);
    await backup(['restore-archive', archive, dirs[1] as string]);
    await expect(backup(['restore-archive', archive, dirs[1] as string])).rejects.toMatchObject({
      stderr: expect.stringContaining('is not empty'),
    });
    const second = await embedded(dirs[1] as string);
    try {
      await expectRestored(asTestApp(second), saved);
    } finally {
      await stopNodeProcess(second, 'SIGTERM');
    }
  }, 400_000);
});
