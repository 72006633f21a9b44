/**
 * The demo data of a first embedded start, in a process of its own (`dist/server/seed-demo.js`,
 * started by `seedDemoInChildProcess`): the configured database — the running app's embedded
 * PostgreSQL, over its socket — and the app's photo store. Rendering the photos and hashing the
 * demo password leave native memory behind (libvips' and glibc's per-thread arenas, ~100 MB) that
 * a process keeps for its whole life; in a child it goes when the child exits (docs/decisions/0041,
 * amendment of session 17).
 */
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { choosePhotoStore } from '../features/photos/choose-photo-store.ts';
import { loggerOptions } from '../logger.ts';
import { seedDemoOnFirstStart } from './demo-start.ts';

const config = loadConfig();
const logger = pino(loggerOptions(config.logLevel));
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  canShareRunningServer: true,
  logger,
});
try {
  await seedDemoOnFirstStart(database.db, choosePhotoStore(database.db, config), logger);
} finally {
  await database.close();
}
