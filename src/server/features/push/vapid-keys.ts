import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import webpush from 'web-push';
import type { SharedSecretStore } from '../../secrets-repository.ts';
import type { PushConfig, VapidKeys } from './push-config.ts';

export const VAPID_FILE = 'vapid.json';
/** The row of `server_secrets` holding the generated pair, as JSON. */
export const VAPID_SECRET_NAME = 'vapid-keys';

/**
 * The VAPID key pair, first match wins: VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY; the shared database
 * (generated once by whichever node starts first, so every node signs alike); a throwaway pair
 * for in-memory test databases; DATA_DIR/vapid.json (mode 0600) in embedded mode, so
 * subscriptions survive restarts.
 */
export async function resolveVapidKeys(
  config: PushConfig,
  storage: { dataDir: string; inMemory: boolean; shared?: SharedSecretStore | undefined },
): Promise<VapidKeys> {
  if (config.vapidKeys) return config.vapidKeys;
  if (storage.shared) {
    const stored = await storage.shared.getOrCreate(VAPID_SECRET_NAME, () =>
      JSON.stringify(webpush.generateVAPIDKeys()),
    );
    const keys = parseKeys(stored);
    if (!keys) throw new Error(`server_secrets: ${VAPID_SECRET_NAME} holds no usable VAPID keys`);
    return keys;
  }
  if (storage.inMemory) return webpush.generateVAPIDKeys();
  return loadOrCreateVapidKeys(storage.dataDir);
}

/** The pair kept in DATA_DIR/vapid.json, if any (the move to a shared database copies it). */
export async function readVapidKeyFile(dataDir: string): Promise<VapidKeys | undefined> {
  return readKeys(path.join(dataDir, VAPID_FILE));
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
  const keys = parseKeys(text);
  if (!keys) throw new Error(`${file}: publicKey or privateKey is missing or malformed`);
  return keys;
}

function parseKeys(text: string): VapidKeys | undefined {
  const parsed = JSON.parse(text) as Partial<VapidKeys>;
  const isKey = (value: unknown, bytes: number) =>
    typeof value === 'string' && Buffer.from(value, 'base64url').length === bytes;
  if (!isKey(parsed.publicKey, 65) || !isKey(parsed.privateKey, 32)) return undefined;
  return { publicKey: parsed.publicKey as string, privateKey: parsed.privateKey as string };
}
