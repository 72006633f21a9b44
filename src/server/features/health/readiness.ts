import type { Readiness, ReadinessCheck } from '#shared/api';
import type { HealthRepository } from './health-repository.ts';

/** A dependency that has not answered after this long counts as failing: the probe never hangs. */
export const READINESS_CHECK_TIMEOUT_MS = 2000;

export type ReadinessDeps = {
  health: HealthRepository;
  /** The newest migration this build ships (health-repository.ts `latestShippedMigration`). */
  expectedMigration: number;
  /** Each Redis connection the node needs (absent when embedded); resolves when it answers PING. */
  redisPings: readonly (() => Promise<unknown>)[];
  timeoutMs?: number;
};

export type ReadinessProbe = {
  check(): Promise<Readiness>;
  /** From now on the node reports itself unavailable (graceful shutdown has begun). */
  markDraining(): void;
  readonly isDraining: boolean;
};

/**
 * Readiness (`GET /api/ready`), unlike liveness (`/api/health`), asks the dependencies: the
 * database answers and has every shipped migration, Redis answers, and the node is not draining.
 */
export function createReadinessProbe(deps: ReadinessDeps): ReadinessProbe {
  const timeoutMs = deps.timeoutMs ?? READINESS_CHECK_TIMEOUT_MS;
  let isDraining = false;

  const within = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    });
    try {
      return await Promise.race([work(), timeout]);
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    get isDraining() {
      return isDraining;
    },
    markDraining() {
      isDraining = true;
    },
    async check() {
      const [applied, redisAnswers] = await Promise.all([
        within(async () => {
          await deps.health.ping();
          return deps.health.latestAppliedMigration();
        }),
        Promise.all(deps.redisPings.map((ping) => within(async () => (await ping(), true)))),
      ]);
      const database: ReadinessCheck = applied === undefined ? 'failing' : 'ok';
      const migrations: ReadinessCheck =
        applied === undefined ? 'failing' : applied >= deps.expectedMigration ? 'ok' : 'pending';
      const redis: ReadinessCheck =
        deps.redisPings.length === 0 ? 'absent' : redisAnswers.every(Boolean) ? 'ok' : 'failing';
      const accepting: ReadinessCheck = isDraining ? 'draining' : 'ok';
      const checks = { database, migrations, redis, accepting };
      const isReady = Object.values(checks).every((check) => check === 'ok' || check === 'absent');
      return { status: isReady ? 'ready' : 'unavailable', checks };
    },
  };
}
