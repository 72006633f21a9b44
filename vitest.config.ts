import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * The integration suite, on one database server per setup for the whole run
 * (tests/helpers/database-setup.ts). Each file runs ONCE, on the setup it is about, which its first
 * line names (a file without the mark fails the run):
 *
 *   // @setup embedded   the embedded PostgreSQL that `npm start` runs (in-process realtime and limits)
 *   // @setup scaled     DATABASE_URL's PostgreSQL 15 with REDIS_URL's Redis: the Redis adapter, limits
 *                        and invalidations over Redis, several nodes, photos and secrets in PostgreSQL,
 *                        the load balancer, every migration and the hot statements (pg15-smoke)
 *
 * Without DATABASE_URL (a laptop without the services) the scaled files run on the embedded server,
 * where their scaled parts skip themselves (`describe.runIf`), as before.
 *
 * Files are not isolated and each project has several workers: files share nothing (own apps, own
 * databases, own Redis key prefix), so they may share one import of the server; why, with the
 * measurements, is docs/performance.md "The test suite".
 */
const INTEGRATION_DIR = 'tests/integration';
const SETUP_MARK = /^\/\/ @setup (embedded|scaled)\b/;

/** Every integration file by the setup its first line names; throws on a file without the mark. */
function integrationFilesBySetup(): { embedded: string[]; scaled: string[] } {
  const files = { embedded: [] as string[], scaled: [] as string[] };
  const unmarked: string[] = [];
  for (const entry of readdirSync(INTEGRATION_DIR, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.test.ts')) continue;
    const file = `${INTEGRATION_DIR}/${entry.split('\\').join('/')}`;
    const setup = SETUP_MARK.exec(readFileSync(file, 'utf8'))?.[1] as 'embedded' | 'scaled' | undefined;
    if (setup) files[setup].push(file);
    else unmarked.push(file);
  }
  if (unmarked.length > 0) {
    throw new Error(
      `Each integration file must name its setup on its first line, \`// @setup embedded\` or \`// @setup scaled\` (vitest.config.ts); missing in: ${unmarked.join(', ')}`,
    );
  }
  return files;
}

const bySetup = integrationFilesBySetup();
const isScaledConfigured = !!process.env.DATABASE_URL;

const integration = (
  name: string,
  database: 'embedded' | 'postgres',
  include: string[],
  groupOrder: number,
  maxWorkers: number,
) => ({
  extends: true as const,
  test: {
    name,
    include,
    env: { TEST_DATABASE: database },
    globalSetup: ['tests/helpers/database-setup.ts', 'tests/helpers/server-bundle-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    isolate: false,
    maxWorkers,
    sequence: { groupOrder },
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'sw/**/*.test.ts', 'tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      integration(
        'integration-embedded',
        'embedded',
        isScaledConfigured ? bySetup.embedded : [...bySetup.embedded, ...bySetup.scaled],
        1,
        3,
      ),
      // The scaled files on the real PostgreSQL and Redis whenever they are configured; CI sets both.
      // Two workers: these are the heavy files (child processes started from sources, nginx, two
      // nodes each); four side by side ran past a node's start-up (docs/performance.md "The test suite").
      ...(isScaledConfigured ? [integration('integration-scaled', 'postgres', bySetup.scaled, 2, 2)] : []),
      // `npm run test:faults`: private PostgreSQL and Redis stopped and started under traffic (slow).
      ...(process.env.ENTRENO_FAULTS === '1'
        ? [
            {
              extends: true as const,
              test: {
                name: 'faults',
                include: ['tests/faults/**/*.test.ts'],
                testTimeout: 120_000,
                hookTimeout: 120_000,
                fileParallelism: false,
                sequence: { groupOrder: 3 },
              },
            },
          ]
        : []),
    ],
  },
});
