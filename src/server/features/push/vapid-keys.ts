import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import webpush from 'web-push';
import type { PushConfig, VapidKeys } from './push-config.ts';

export const VAPID_FILE = 'vapid.json';

/**
 * The VAPID key pair: from configuration when set (scaled deployments, production); otherwise
 * generated once and kept in DATA_DIR/vapid.json (mode 0600), so subscriptions survive restarts.
 * In-memory databases (tests) get a throwaway pair.
 */
export async function resolveVapidKeys(
  config: PushConfig,
  storage: { dataDir: string; inMemory: boolean },
): Promise<VapidKeys> {
  if (config.vapidKeys) return config.vapidKeys;
  if (storage.inMemory) return webpush.generateVAPIDKeys();
  return loadOrCreateVapidKeys(storage.dataDir);
}

export async function loadOrCreateVapidKeys(dataDir: string): Promise<VapidKeys> {
  const file = path.join(dataDir, VAPID_FILE);
  const existing = await readKeys(file);
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  try {
    // 'wx': when two processes race on a fresh DATA_DIR, exactly one file wins and both read it.
    await writeFile(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    return keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readKeys(file);
    if (!winner) throw new Error(`${file} exists but holds no usable VAPID keys`);
    return winner;
  }
}

async function readKeys(file: string): Promise<VapidKeys | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<VapidKeys>;
  const isKey = (value: unknown, bytes: number) =>
    typeof value === 'string' && Buffer.from(value, 'base64url').length === bytes;
  if (!isKey(parsed.publicKey, 65) || !isKey(parsed.privateKey, 32)) {
    throw new Error(`${file}: publicKey or privateKey is missing or malformed`);
  }
  return { publicKey: parsed.publicKey as string, privateKey: parsed.privateKey as string };
}
