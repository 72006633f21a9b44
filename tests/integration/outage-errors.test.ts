// @setup embedded
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages';
import { dependencyFailureOf } from '../../src/server/errors.ts';
import { errorsPlugin } from '../../src/server/plugins/errors.ts';

/** What the drivers throw when a dependency goes away (shapes as pg, drizzle, ioredis and fs throw them). */
const failures = {
  refused: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  terminated: new Error('Connection terminated unexpectedly'),
  adminShutdown: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
  poolTimeout: new Error('timeout exceeded when trying to connect'),
  wrapped: Object.assign(new Error('Failed query: insert into "messages" …'), {
    cause: Object.assign(new Error('the database system is shutting down'), { code: '57P03' }),
  }),
  redisOffline: new Error("Stream isn't writeable and enableOfflineQueue options is false"),
  redisTimeout: new Error('Command timed out'),
  enospc: Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
  diskFull: Object.assign(new Error('Failed query'), {
    cause: Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' }),
  }),
  bug: new TypeError("Cannot read properties of undefined (reading 'id')"),
};

/** Issue #24 item 7: an outage answers 503 (a full disk 507) with Retry-After and a Spanish text, never 500. */
describe('dependency failures through the error mapping', () => {
  const app = Fastify();
  beforeAll(async () => {
    await app.register(errorsPlugin);
    app.get('/fail/:kind', async (request) => {
      throw failures[(request.params as { kind: keyof typeof failures }).kind];
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('classifies what the drivers throw', () => {
    expect(dependencyFailureOf(failures.bug)).toBeUndefined();
    expect(dependencyFailureOf(failures.enospc)).toBe('storage-full');
    expect(dependencyFailureOf(failures.diskFull)).toBe('storage-full');
    for (const kind of [
      'refused',
      'terminated',
      'adminShutdown',
      'poolTimeout',
      'wrapped',
      'redisOffline',
      'redisTimeout',
    ] as const) {
      expect(dependencyFailureOf(failures[kind]), kind).toBe('unavailable');
    }
  });

  it('answers 503 with Retry-After and the Spanish text while a dependency is away', async () => {
    for (const kind of ['refused', 'terminated', 'adminShutdown', 'poolTimeout', 'wrapped', 'redisOffline']) {
      const response = await app.inject(`/fail/${kind}`);
      expect(response.statusCode, kind).toBe(503);
      expect(Number(response.headers['retry-after']), kind).toBeGreaterThan(0);
      expect(response.json(), kind).toEqual({
        success: false,
        message: 'El servicio no está disponible. Inténtalo en unos segundos.',
        errorType: 'SERVICE_UNAVAILABLE',
      });
    }
  });

  it('answers 507 for a full disk, and still 500 (without details) for a bug', async () => {
    for (const kind of ['enospc', 'diskFull']) {
      const response = await app.inject(`/fail/${kind}`);
      expect(response.statusCode, kind).toBe(507);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(response.json()).toEqual({
        success: false,
        message: SERVER_MESSAGES.storageFull,
        errorType: 'STORAGE_FULL',
      });
    }
    const bug = await app.inject('/fail/bug');
    expect(bug.statusCode).toBe(500);
    expect(bug.json()).toEqual({ success: false, message: SERVER_MESSAGES.internal });
  });
});
