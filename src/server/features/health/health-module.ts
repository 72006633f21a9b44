import type { FastifyInstance } from 'fastify';
import type { Health } from '#shared/api';
import type { Database } from '../../db/client.ts';
import { createHealthRepository, latestShippedMigration } from './health-repository.ts';
import { healthRoutes } from './health-routes.ts';
import { createReadinessProbe, type ReadinessProbe } from './readiness.ts';

export type HealthModule = {
  /** `/api/ready`'s checks; `markDraining()` makes it answer 503 before a graceful stop. */
  readiness: ReadinessProbe;
  /** `GET /api/health` and `GET /api/ready`. */
  register(http: FastifyInstance): Promise<void>;
};

/** Liveness and readiness (docs/deploy.md, "Health checks"). */
export function createHealthModule(deps: {
  db: Database;
  health: () => Health;
  /** Redis's pings, when there is a Redis. */
  redisPings: (() => Promise<unknown>)[];
}): HealthModule {
  const readiness = createReadinessProbe({
    health: createHealthRepository(deps.db),
    expectedMigration: latestShippedMigration(),
    redisPings: deps.redisPings,
  });
  return {
    readiness,
    async register(http) {
      await http.register(healthRoutes, { prefix: '/api', health: deps.health, readiness });
    },
  };
}
