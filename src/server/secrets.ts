import { hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SharedSecretStore } from './secrets-repository.ts';

export const SECRETS_FILE = 'secrets.json';
const MIN_SECRET_LENGTH = 32;

/** The row of `server_secrets` holding the generated token secret (docs/deploy.md, rotation). */
export const TOKEN_SECRET_NAME = 'token-secret';

const generateSecret = () => randomBytes(48).toString('base64url');

/**
 * Where the token secret comes from, first match wins: the operator's TOKEN_SECRET; the shared
 * database (generated once by whichever node starts first, docs/decisions/0024); a throwaway one
 * for in-memory test databases; DATA_DIR/secrets.json in embedded mode.
 */
export async function resolveTokenSecret(options: {
  configured: string | undefined;
  shared: SharedSecretStore | undefined;
  dataDir: string;
  inMemory: boolean;
}): Promise<string> {
  if (options.configured) return options.configured;
  if (options.shared) {
    const secret = await options.shared.getOrCreate(TOKEN_SECRET_NAME, generateSecret);
    if (secret.length < MIN_SECRET_LENGTH) {
      throw new Error(`server_secrets: ${TOKEN_SECRET_NAME} is shorter than ${MIN_SECRET_LENGTH} characters`);
    }
    return secret;
  }
  if (options.inMemory) return generateSecret();
  return loadOrCreateTokenSecret(options.dataDir);
}

/**
 * The embedded mode's token secret: generated once and kept in DATA_DIR/secrets.json (mode 0600),
 * so sessions survive restarts without any setting. Scaled deployments set TOKEN_SECRET instead.
 */
export async function loadOrCreateTokenSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, SECRETS_FILE);
  const existing = await readSecrets(file);
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true });
  const secret = generateSecret();
  try {
    // 'wx': when two processes race on a fresh DATA_DIR, exactly one file wins and both read it.
    await writeFile(file, `${JSON.stringify({ tokenSecret: secret }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readSecrets(file);
    if (!winner) throw new Error(`${file} exists but holds no usable tokenSecret`);
    return winner;
  }
}

/** The token secret kept in DATA_DIR/secrets.json, if any (the move to a shared database copies it). */
export async function readTokenSecretFile(dataDir: string): Promise<string | undefined> {
  return readSecrets(path.join(dataDir, SECRETS_FILE));
}

async function readSecrets(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as { tokenSecret?: unknown };
  if (typeof parsed.tokenSecret !== 'string' || parsed.tokenSecret.length < MIN_SECRET_LENGTH) {
    throw new Error(`${file}: tokenSecret is missing or shorter than ${MIN_SECRET_LENGTH} characters`);
  }
  return parsed.tokenSecret;
}

export type ServerKeys = {
  /** HS256 key of the session tokens. */
  token: Uint8Array;
  /** HMAC key of stored SMS codes. */
  smsCode: Buffer;
  /** HMAC key of stored reset-link tokens. */
  resetToken: Buffer;
  /** Two-step verification (docs/decisions/0032): the authenticator secrets' AES-256-GCM key. */
  totpSecret: Buffer;
  /** HMAC key of stored recovery codes and remembered-device tokens. */
  secondStepHash: Buffer;
  /** HS256 key of the short-lived "pending second step" tokens (never a session token's key). */
  secondStepToken: Uint8Array;
};

/** One secret, independent keys per use (HKDF-SHA256), so no key serves two purposes. */
export function deriveServerKeys(secret: string): ServerKeys {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', secret, 'entreno', info, 32));
  return {
    token: new Uint8Array(derive('entreno/session-token/v1')),
    smsCode: derive('entreno/sms-code/v1'),
    resetToken: derive('entreno/reset-token/v1'),
    totpSecret: derive('entreno/totp-secret/v1'),
    secondStepHash: derive('entreno/second-step-hash/v1'),
    secondStepToken: new Uint8Array(derive('entreno/second-step-token/v1')),
  };
}
