import { describe, expect, it } from 'vitest';
import type { HealthRepository } from './health-repository.ts';
import { createReadinessProbe } from './readiness.ts';

const answering = (applied: number): HealthRepository => ({
  ping: async () => {},
  latestAppliedMigration: async () => applied,
});
const never = () => new Promise<never>(() => {});

describe('readiness probe', () => {
  it('is ready when the database answers with every migration and each Redis answers', async () => {
    const probe = createReadinessProbe({
      health: answering(5),
      expectedMigration: 5,
      redisPings: [async () => 'PONG'],
    });
    expect(await probe.check()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', redis: 'ok', accepting: 'ok' },
    });
  });

  it('reports embedded mode (no Redis) as ready, and a missing migration as pending', async () => {
    expect(
      (await createReadinessProbe({ health: answering(5), expectedMigration: 5, redisPings: [] }).check()).checks,
    ).toMatchObject({ redis: 'absent' });
    const behind = await createReadinessProbe({ health: answering(4), expectedMigration: 5, redisPings: [] }).check();
    expect(behind).toMatchObject({ status: 'unavailable', checks: { database: 'ok', migrations: 'pending' } });
  });

  it('fails, without hanging, when the database or Redis throws or never answers', async () => {
    const broken: HealthRepository = { ping: never, latestAppliedMigration: async () => 5 };
    const probe = createReadinessProbe({
      health: broken,
      expectedMigration: 5,
      redisPings: [async () => 'PONG', () => Promise.reject(new Error('ECONNREFUSED'))],
      timeoutMs: 20,
    });
    expect(await probe.check()).toEqual({
      status: 'unavailable',
      checks: { database: 'failing', migrations: 'failing', redis: 'failing', accepting: 'ok' },
    });
  });

  it('reports draining once a graceful stop has begun', async () => {
    const probe = createReadinessProbe({ health: answering(5), expectedMigration: 5, redisPings: [] });
    probe.markDraining();
    expect(probe.isDraining).toBe(true);
    expect(await probe.check()).toMatchObject({ status: 'unavailable', checks: { accepting: 'draining' } });
  });
});
