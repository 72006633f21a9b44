import { defineConfig } from 'vitest/config';

/**
 * The integration suite, on one database server for the whole run (tests/helpers/database-setup.ts):
 * the embedded PostgreSQL that `npm start` runs (in-process realtime and limits), or DATABASE_URL's
 * PostgreSQL with Redis (the scaled mode).
 *
 * Not isolated: every file of a project runs in one worker that imports the server once. Isolated,
 * each file imported the whole server again, which was about half of the suite's CPU time (a same-run
 * A/B on 8 files: 50 → 26 CPU seconds). Every file already starts its own apps on databases of its
 * own and sets no global state (no mocks, no environment changes), which is what makes sharing the
 * module graph safe. Each project is its own group (`groupOrder`), so its files follow one another
 * in the same worker instead of being interleaved with another project's (which would start a new
 * worker, and import everything again, at each switch).
 *
 * Several workers per project (`maxWorkers`; vitest's default on this 2-core machine is one): the
 * integration files mostly wait (sockets, timers, CREATE/DROP DATABASE on a PostgreSQL that
 * fsyncs), so one worker left the machine idle (load ~1.4) for the whole 650 s of the suite. Each
 * worker imports the server once and then takes file after file of its project. Files already
 * share nothing (own apps, own databases, own Redis key prefix), which is what makes this safe.
 */
const integration = (name: string, database: 'embedded' | 'postgres', groupOrder: number, maxWorkers: number) => ({
  extends: true as const,
  test: {
    name,
    include: ['tests/integration/**/*.test.ts'],
    env: { TEST_DATABASE: database },
    globalSetup: ['tests/helpers/database-setup.ts'],
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
      integration('integration-embedded', 'embedded', 1, 3),
      // The same suite on the real PostgreSQL (and Redis) whenever they are configured; CI sets both.
      ...(process.env.DATABASE_URL ? [integration('integration-postgres', 'postgres', 2, 4)] : []),
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
