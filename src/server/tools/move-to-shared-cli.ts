/**
 * Moves what an embedded install keeps in DATA_DIR into the shared database of a scaled one
 * (docs/deploy.md, "From embedded to scaled"): the photo files into `photo_blobs`, the generated
 * token secret and VAPID keys into `server_secrets` (so sessions and push subscriptions survive
 * the move). The rows themselves move with pg_dump/pg_restore beforehand. Safe to run again: keys
 * are immutable and a secret already in the database is kept. Nothing in DATA_DIR is deleted.
 *
 *   DATABASE_URL=postgres://… node dist/server/move-to-shared.js ./data
 *   DATABASE_URL=postgres://… npm run move-to-shared -- ./data
 */
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { copyPhotoFiles } from '../features/photos/copy-photo-files.ts';
import { createPhotoBlobRepository } from '../features/photos/photo-blob-repository.ts';
import { readVapidKeyFile, VAPID_SECRET_NAME } from '../features/push/vapid-keys.ts';
import { readTokenSecretFile, TOKEN_SECRET_NAME } from '../secrets.ts';
import { createDatabaseSecretStore, type SharedSecretStore } from '../secrets-repository.ts';
import { openDatabase } from '../db/client.ts';

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

const from = process.argv[2];
if (!from) fail('Usage: DATABASE_URL=postgres://… move-to-shared <embedded DATA_DIR>');
let config: ReturnType<typeof loadConfig> | undefined;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}
if (!config?.databaseUrl) fail('DATABASE_URL: required (the shared database the photos and secrets move into)');
const dataDir = path.resolve(from as string);

const database = await openDatabase({ databaseUrl: config?.databaseUrl, dataDir });
try {
  const secrets = createDatabaseSecretStore(database.db);
  const copySecret = async (store: SharedSecretStore, name: string, value: string | undefined) => {
    if (value === undefined) return `${name}: none in ${dataDir}`;
    const stored = await store.getOrCreate(name, () => value);
    return stored === value
      ? `${name}: in the shared database`
      : `${name}: the shared database already had another one, kept it`;
  };
  const vapid = await readVapidKeyFile(dataDir);
  console.log(await copySecret(secrets, TOKEN_SECRET_NAME, await readTokenSecretFile(dataDir)));
  console.log(await copySecret(secrets, VAPID_SECRET_NAME, vapid && JSON.stringify(vapid)));
  const report = await copyPhotoFiles(path.join(dataDir, 'photos'), createPhotoBlobRepository(database.db));
  console.log(`photos: ${report.copied} files in the shared database`);
  if (report.ignored.length > 0) console.log(`ignored (not photo files): ${report.ignored.join(', ')}`);
} finally {
  await database.close();
}
