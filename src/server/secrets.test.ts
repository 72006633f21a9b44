import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveServerKeys, loadOrCreateTokenSecret, SECRETS_FILE } from './secrets.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'entreno-secrets-'));
  dirs.push(dir);
  return dir;
};

describe('embedded token secret', () => {
  it('is generated once into DATA_DIR/secrets.json, readable only by its owner, then reused', async () => {
    const dir = path.join(await tempDir(), 'data');
    const [first, concurrent] = await Promise.all([loadOrCreateTokenSecret(dir), loadOrCreateTokenSecret(dir)]);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(concurrent).toBe(first);
    expect(await loadOrCreateTokenSecret(dir)).toBe(first);
    const file = path.join(dir, SECRETS_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ tokenSecret: first });
  });

  it('refuses a secrets file without a usable secret', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, SECRETS_FILE), JSON.stringify({ tokenSecret: 'short' }));
    await expect(loadOrCreateTokenSecret(dir)).rejects.toThrow(/shorter than 32/);
  });

  it('derives a different key for each use', () => {
    const keys = deriveServerKeys('s'.repeat(40));
    const hex = [Buffer.from(keys.token), keys.smsCode, keys.resetToken].map((key) => key.toString('hex'));
    expect(new Set(hex).size).toBe(3);
    expect(deriveServerKeys('s'.repeat(40)).smsCode.equals(keys.smsCode)).toBe(true);
  });
});
