import path from 'node:path';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createPhotoBlobRepository } from './photo-blob-repository.ts';
import { createFilesystemPhotoStore, createMemoryPhotoStore, type PhotoStore } from './photo-store.ts';

/** PHOTO_STORE: the shared database or DATA_DIR/photos; memory for in-memory (test) databases. */
export function choosePhotoStore(db: Database, config: Config): PhotoStore {
  if (config.databaseUrl && config.photoStore === 'database') return createPhotoBlobRepository(db);
  if (config.isEphemeral && !config.databaseUrl) return createMemoryPhotoStore();
  return createFilesystemPhotoStore(path.join(config.dataDir, 'photos'));
}
