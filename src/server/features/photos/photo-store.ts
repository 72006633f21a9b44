import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where photo files live, behind the smallest interface a shared store (S3-like) can also offer.
 * Keys are chosen by the server ("photos/<userId>/<random>.webp", see photo-keys.ts) and checked
 * again here, so no key can reach outside the store.
 */
export interface PhotoStore {
  readonly kind: 'filesystem' | 'database' | 'memory';
  put(key: string, data: Buffer): Promise<void>;
  /** The bytes, or undefined when there is no such photo. */
  get(key: string): Promise<Buffer | undefined>;
  /** Deletes what exists among the keys; missing ones are ignored. */
  delete(keys: readonly string[]): Promise<void>;
}

/** photos/<user uuid>/<22 base64url characters>[.thumb].webp */
export const PHOTO_KEY_PATTERN =
  /^photos\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[A-Za-z0-9_-]{22}(\.thumb)?\.webp$/;

export function isStoredPhotoKey(key: string): boolean {
  return PHOTO_KEY_PATTERN.test(key);
}

/**
 * A strong ETag for a stored photo: its key's random part. Keys are immutable (a new photo gets a
 * new key), so the key identifies the bytes as well as a hash of them would.
 */
export function photoEtag(key: string): string {
  const file = key.slice(key.lastIndexOf('/') + 1);
  return `"${file.replace(/\.webp$/, '')}"`;
}

/** The key of a photo's small variant (400 px), stored next to it. */
export function thumbnailKey(key: string): string {
  return key.replace(/\.webp$/, '.thumb.webp');
}

/** A new, unguessable key (128 random bits) in the user's folder. */
export function newPhotoKey(userId: string): string {
  return `photos/${userId}/${randomBytes(16).toString('base64url')}.webp`;
}

function checkedKey(key: string): string {
  if (!isStoredPhotoKey(key)) throw new Error(`not a photo key: ${key.slice(0, 80)}`);
  return key;
}

/** Files under DATA_DIR/photos (embedded mode). Writes go through a temporary file and a rename. */
export function createFilesystemPhotoStore(root: string): PhotoStore {
  const fileOf = (key: string) => path.join(root, checkedKey(key).slice('photos/'.length));
  return {
    kind: 'filesystem',
    async put(key, data) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temporary, data);
      await rename(temporary, file);
    },
    async get(key) {
      if (!isStoredPhotoKey(key)) return undefined;
      try {
        return await readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(keys) {
      await Promise.all(keys.filter(isStoredPhotoKey).map((key) => rm(fileOf(key), { force: true })));
    },
  };
}

/** Photos in memory: for throwaway (in-memory) databases, i.e. tests. */
export function createMemoryPhotoStore(): PhotoStore {
  const files = new Map<string, Buffer>();
  return {
    kind: 'memory',
    async put(key, data) {
      files.set(checkedKey(key), data);
    },
    async get(key) {
      return files.get(key);
    },
    async delete(keys) {
      for (const key of keys) files.delete(key);
    },
  };
}
