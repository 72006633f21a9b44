/**
 * `npm run seed [count]`: fills the configured database (DATABASE_URL, or the embedded PostgreSQL in
 * DATA_DIR/pg) with demo users and profiles, their photos going to the configured photo store.
 * Refused in production.
 */
import { loadConfig } from '../config.ts';
import { choosePhotoStore } from '../features/photos/choose-photo-store.ts';
import { openDatabase } from '../db/client.ts';
import { DEFAULT_DEMO_COUNT, seedDemoData } from './seed.ts';
import { seedDemoAccountLife } from './seed-demo-account.ts';

const config = loadConfig();
if (config.env === 'production') {
  console.error('Demo data is never seeded in production (NODE_ENV=production).');
  process.exit(1);
}
const count = process.argv[2] ? Number(process.argv[2]) : DEFAULT_DEMO_COUNT;
if (!Number.isInteger(count) || count < 1 || count > 100_000) {
  console.error('Usage: npm run seed [count between 1 and 100000]');
  process.exit(1);
}
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  logger: { debug() {}, info() {}, warn: console.warn, error: console.error },
});
try {
  const started = Date.now();
  const report = await seedDemoData(database.db, {
    photoStore: choosePhotoStore(database.db, config),
    count,
  });
  console.log(`${report} (${Date.now() - started} ms)`);
  console.log(await seedDemoAccountLife(database.db));
} finally {
  await database.close();
}
