/**
 * Start-up: how long `npm start`'s server takes from `node dist/server/main.js` to a 200 from
 * /api/health, on a fresh DATA_DIR (the embedded PostgreSQL's initdb, every migration, the disk-space
 * check) and on a warm restart of the same DATA_DIR. Baseline in the same run: the embedded
 * PostgreSQL alone (initdb or not, start, the app's database ensured, stop) on a directory of its
 * own, so the ratio is what the app adds to the database it cannot start without.
 * Rounds alternate baseline and app; medians. Needs `npm run build` first.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EMBEDDED_DATABASE } from '../src/server/db/client.ts';
import { startEmbeddedPostgres } from '../src/server/db/embedded-postgres.ts';
import { freePort } from '../tests/helpers/private-services.ts';
import type { BenchResult } from './load.ts';

const ROUNDS = 5;
const MAIN = path.resolve(import.meta.dirname, '../dist/server/main.js');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const load = () => os.loadavg()[0]?.toFixed(1);

/** A directory the embedded PostgreSQL may enter when it runs as its own user (the app run as root). */
function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'entreno-bench-startup-'));
  chmodSync(dir, 0o711);
  return dir;
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** Seconds from spawning the server to its first healthy answer. */
async function appStart(dir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: '',
      REDIS_URL: '',
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      PUBLIC_ORIGIN: `http://localhost:${port}`,
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was healthy`);
      const healthy = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((response) => response.ok)
        .catch(() => false);
      if (healthy) return (performance.now() - started) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await stopped(child);
  }
}

/** Seconds for the embedded PostgreSQL alone to be ready with the app's database. */
async function databaseStart(dir: string): Promise<number> {
  const started = performance.now();
  const server = await startEmbeddedPostgres({ dir });
  await server.ensureDatabase(EMBEDDED_DATABASE);
  const seconds = (performance.now() - started) / 1000;
  await server.stop();
  return seconds;
}

export async function benchStartup(): Promise<BenchResult> {
  if (!existsSync(MAIN)) return { name: 'startup', lines: ['skipped: no dist/server/main.js (npm run build)'] };
  const figures = {
    dbFresh: [] as number[],
    dbWarm: [] as number[],
    appFresh: [] as number[],
    appWarm: [] as number[],
  };
  const loads: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const dbDir = dataDir();
    const appDir = dataDir();
    try {
      figures.dbFresh.push(await databaseStart(path.join(dbDir, 'pg')));
      figures.appFresh.push(await appStart(appDir));
      figures.dbWarm.push(await databaseStart(path.join(dbDir, 'pg')));
      figures.appWarm.push(await appStart(appDir));
      loads.push(load() ?? '?');
    } finally {
      rmSync(dbDir, { recursive: true, force: true });
      rmSync(appDir, { recursive: true, force: true });
    }
  }
  const line = (label: string, app: number[], db: number[]) =>
    `${label}: app ${median(app).toFixed(2)} s to healthy, the embedded PostgreSQL alone ${median(db).toFixed(2)} s → ${(median(app) / median(db)).toFixed(2)}× (median of ${ROUNDS})`;
  return {
    name: 'startup (npm start on the embedded PostgreSQL)',
    lines: [
      line('fresh DATA_DIR', figures.appFresh, figures.dbFresh),
      line('warm restart', figures.appWarm, figures.dbWarm),
      `load average after each round: ${loads.join(', ')}`,
    ],
  };
}
