import { defineConfig } from 'vitest/config';

/**
 * The integration suite, on one database server for the whole run (tests/helpers/database-setup.ts):
 * the embedded PostgreSQL that `npm start` runs (in-process realtime and limits), or DATABASE_URL's
 * PostgreSQL with Redis (the scaled mode).
 */
const integration = (name: string, database: 'embedded' | 'postgres') => ({
  extends: true as const,
  test: {
    name,
    include: ['tests/integration/**/*.test.ts'],
    env: { TEST_DATABASE: database },
    globalSetup: ['tests/helpers/database-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
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
        },
      },
      integration('integration-embedded', 'embedded'),
      // The same suite on the real PostgreSQL (and Redis) whenever they are configured; CI sets both.
      ...(process.env.DATABASE_URL ? [integration('integration-postgres', 'postgres')] : []),
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
              },
            },
          ]
        : []),
    ],
  },
});
