import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createMemoryRateLimiter,
  createRedisRateLimiter,
  enforceRateLimits,
  type RateLimiter,
  scalePerIpLimits,
} from '../../src/server/plugins/rate-limit.ts';
import { createTestClock, MINUTE, type TestClock } from '../helpers/test-clock.ts';

const redisUrl = process.env.REDIS_URL;
const connections: Redis[] = [];
afterAll(async () => {
  await Promise.all(connections.map((redis) => redis.quit()));
});

const implementations: [string, (clock: TestClock) => RateLimiter][] = [
  ['memory', (clock) => createMemoryRateLimiter({ clock })],
];
if (redisUrl) {
  implementations.push([
    'redis',
    (clock) => {
      const redis = new Redis(redisUrl);
      connections.push(redis);
      return createRedisRateLimiter({ redis, clock, keyPrefix: `entreno-test:${randomBytes(6).toString('hex')}:` });
    },
  ]);
}

describe.each(implementations)('%s rate limiter', (_kind, create) => {
  const rule = { name: 'test', limit: 3, windowMs: 10 * MINUTE };

  it('counts within a window, reports the time left and starts over in the next one', async () => {
    const clock = createTestClock('2026-03-10T09:00:00.000Z');
    const limiter = create(clock);
    const check = { rule, key: 'a' };
    for (let event = 1; event <= 3; event += 1) {
      expect(await limiter.consume(check)).toMatchObject({ count: event, isLimited: false });
    }
    clock.advance(4 * MINUTE);
    expect(await limiter.peek(check)).toEqual({ count: 3, isLimited: true, retryAfterMs: 6 * MINUTE });
    expect(await limiter.consume(check)).toEqual({ count: 4, isLimited: true, retryAfterMs: 6 * MINUTE });
    expect(await limiter.peek({ rule, key: 'b' })).toMatchObject({ count: 0, isLimited: false });
    clock.advance(6 * MINUTE);
    expect(await limiter.consume(check)).toMatchObject({ count: 1, isLimited: false });
  });

  it('forgets a key on reset', async () => {
    const clock = createTestClock('2026-03-10T09:00:00.000Z');
    const limiter = create(clock);
    const check = { rule, key: 'c' };
    await limiter.consume(check);
    await limiter.consume(check);
    await limiter.reset(check);
    expect(await limiter.peek(check)).toMatchObject({ count: 0 });
  });

  it('throws a 429 with the longest Retry-After among the exceeded limits', async () => {
    const clock = createTestClock('2026-03-10T09:00:00.000Z');
    const limiter = create(clock);
    const short = { rule: { name: 'short', limit: 1, windowMs: MINUTE }, key: 'k' };
    const long = { rule: { name: 'long', limit: 1, windowMs: 10 * MINUTE }, key: 'k' };
    await enforceRateLimits(limiter, [short, long], 'Espera');
    await expect(enforceRateLimits(limiter, [short, long], 'Espera')).rejects.toMatchObject({
      statusCode: 429,
      message: 'Espera',
      headers: { 'retry-after': '600' },
    });
  });
});

describe('per-IP limit factor', () => {
  it('multiplies only the limits counted per address', async () => {
    const clock = createTestClock();
    const limiter = scalePerIpLimits(createMemoryRateLimiter({ clock }), 3);
    const perIp = { rule: { name: 'probe-ip', limit: 2, windowMs: MINUTE, isPerIp: true }, key: '127.0.0.1' };
    const perAccount = { rule: { name: 'probe-account', limit: 2, windowMs: MINUTE }, key: 'ana@example.com' };
    const ipStates = [];
    const accountStates = [];
    for (let i = 0; i < 7; i++) {
      ipStates.push((await limiter.consume(perIp)).isLimited);
      accountStates.push((await limiter.consume(perAccount)).isLimited);
    }
    expect(ipStates).toEqual([false, false, false, false, false, false, true]);
    expect(accountStates).toEqual([false, false, true, true, true, true, true]);
  });
});

describe.runIf(redisUrl)('redis rate limiter across nodes', () => {
  it('shares one count between two nodes', async () => {
    const clock = createTestClock('2026-03-10T09:00:00.000Z');
    const keyPrefix = `entreno-test:${randomBytes(6).toString('hex')}:`;
    const [one, two] = [new Redis(redisUrl as string), new Redis(redisUrl as string)];
    connections.push(one, two);
    const nodeA = createRedisRateLimiter({ redis: one, clock, keyPrefix });
    const nodeB = createRedisRateLimiter({ redis: two, clock, keyPrefix });
    const check = { rule: { name: 'shared', limit: 2, windowMs: MINUTE }, key: 'x' };
    await nodeA.consume(check);
    await nodeB.consume(check);
    expect(await nodeA.consume(check)).toMatchObject({ count: 3, isLimited: true });
    const ttl = await one.pttl(`${keyPrefix}rl:shared:x:${Math.floor(clock.now().getTime() / MINUTE)}`);
    expect(ttl).toBeGreaterThan(0);
  });
});
