import type { Database } from '../db/client.ts';
import type { PhotoStore } from '../features/photos/photo-store.ts';
import type { Logger } from '../logger.ts';
import { isDatabaseEmpty, seedDemoData } from './seed.ts';
import { seedDemoAccountLife } from './seed-demo-account.ts';

/**
 * The demo data on a first embedded start (config.demoData, an empty database): generated people
 * around Madrid with photos, and the README's demo account with its matches, chats,
 * notifications and quedadas (#19 §4).
 */
export async function seedDemoOnFirstStart(db: Database, photoStore: PhotoStore, logger: Logger): Promise<void> {
  if (!(await isDatabaseEmpty(db))) return;
  const started = Date.now();
  const report = await seedDemoData(db, { photoStore });
  logger.info({ ms: Date.now() - started }, report);
  logger.info({}, await seedDemoAccountLife(db));
}
