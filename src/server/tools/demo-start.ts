import { spawn } from 'node:child_process';
import type { Database } from '../db/client.ts';
import type { PhotoStore } from '../features/photos/photo-store.ts';
import type { Logger } from '../logger.ts';
import { isDatabaseEmpty, seedDemoData } from './seed.ts';
import { seedDemoAccountLife } from './seed-demo-account.ts';

/** How the app seeds the demo data on a first start: in its own process, or in a child's. */
export type DemoSeeder = (db: Database, photoStore: PhotoStore, logger: Logger) => Promise<void>;

/**
 * The demo data on a first embedded start (config.demoData, an empty database): generated people
 * around Madrid with photos, and the README's demo account with its matches, chats,
 * notifications and quedadas (#19 §4).
 */
export const seedDemoOnFirstStart: DemoSeeder = async (db, photoStore, logger) => {
  if (!(await isDatabaseEmpty(db))) return;
  const started = Date.now();
  const report = await seedDemoData(db, { photoStore });
  logger.info({ ms: Date.now() - started }, report);
  logger.info({}, await seedDemoAccountLife(db));
};

/**
 * The same seeding in a child process running `script` (the built `seed-demo.js`, seed-demo-cli.ts)
 * with the app's environment: it reaches the running app's database and photo store the way the
 * operator's commands do, and the native memory the seeding leaves behind goes with it. Only an
 * empty database starts a child; a failure fails the start, as the seeding in process would.
 */
export function seedDemoInChildProcess(script: string): DemoSeeder {
  return async (db, _photoStore, logger) => {
    if (!(await isDatabaseEmpty(db))) return;
    const started = Date.now();
    const child = spawn(process.execPath, [script], { env: process.env, stdio: ['ignore', 'inherit', 'inherit'] });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (exitCode, signal) => resolve(signal ? null : exitCode));
    });
    if (code !== 0) throw new Error(`the demo data could not be seeded (${script} exited with ${code ?? 'a signal'})`);
    logger.info({ ms: Date.now() - started }, 'demo data seeded in a child process');
  };
}
