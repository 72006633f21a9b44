import { eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { photoBlobs } from '../../db/schema/index.ts';
import { isStoredPhotoKey, type PhotoStore } from './photo-store.ts';

/**
 * Photos in PostgreSQL (`photo_blobs`), so every node reads what any node stored (scaled mode,
 * docs/decisions/0024). A key never changes content: a second put of the same key keeps the first.
 */
export function createPhotoBlobRepository(db: Database): PhotoStore {
  return {
    kind: 'database',
    async put(key, data) {
      if (!isStoredPhotoKey(key)) throw new Error(`not a photo key: ${key.slice(0, 80)}`);
      await db.insert(photoBlobs).values({ key, data }).onConflictDoNothing();
    },
    async get(key) {
      if (!isStoredPhotoKey(key)) return undefined;
      const [row] = await db.select({ data: photoBlobs.data }).from(photoBlobs).where(eq(photoBlobs.key, key));
      return row ? Buffer.from(row.data) : undefined;
    },
    async delete(keys) {
      const valid = keys.filter(isStoredPhotoKey);
      if (valid.length > 0) await db.delete(photoBlobs).where(inArray(photoBlobs.key, valid));
    },
  };
}
