// @setup scaled — limits counted in Redis across nodes, and while Redis is away
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addressKey,
  createFailFastRedis,
  createMemoryRateLimiter,
  createRedisRateLimiter,
  enforceRateLimits,
  type RateLimiter,
  scalePerIpLimits,
} from '../../src/server/infra/rate-limit.ts';
import { eventually } from '../helpers/chat-api.ts';
import { createTestClock, MINUTE, type TestClock } from '../helpers/test-clock.ts';

const redisUrl = process.env.REDIS_URL;
const connections: Redis[] = [];
/** A fail-fast client (as the app's), connected: before 'ready' every call goes to the insurance limiter. */
async function connectedRedis(): Promise<Redis> {
  const redis = createFailFastRedis(redisUrl as string, () => {});
  connections.push(redis);
  await redis.connect();
  return redis;
}
afterAll(async () => {
  for (const redis of connections) redis.disconnect();
});

const implementations: [string, (clock: TestClock) => Promise<RateLimiter>][] = [
  ['memory', async (clock) => createMemoryRateLimiter({ clock })],
];
if (redisUrl) {
  implementations.push([
    'redis',
    async (clock) =>
      createRedisRateLimiter({
        redis: await connectedRedis(),
        clock,
        keyPrefix: `entreno-test:${randomBytes(6).toString('hex')}:`,
      }),
  ]);
}

describe.each(implementations)('%s rate limiter', (_kind, create) => {
  const rule = { name: 'test', limit: 3, windowMs: 10 * MINUTE };

  it('counts within a window, reports the time left and starts over in the next one', async () => {
    const clock = createTestClock('2026-03-10T09:00:00.000Z');
    const limiter = await create(clock);
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
    const limiter = await create(clock);
    const check = { rule, key: 'c' };
    await limiter.consume(check);
    await limiter.consume(check);
    await limiter.reset(check);
    expect(await limiter.peek(check)).toMatchObject({ count: 0 });
  });

  it('throws a 429 with the longest Retry-After among the exceeded limits', async () => {
    const clock = createTestClock('2026-03-10T09:00:00.000Z');
    const limiter = await create(clock);
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
    const [one, two] = [await connectedRedis(), await connectedRedis()];
    const nodeA = createRedisRateLimiter({ redis: one, clock, keyPrefix });
    const nodeB = createRedisRateLimiter({ redis: two, clock, keyPrefix });
    const check = { rule: { name: 'shared', limit: 2, windowMs: MINUTE }, key: 'x' };
    await nodeA.consume(check);
    await nodeB.consume(check);
    expect(await nodeA.consume(check)).toMatchObject({ count: 3, isLimited: true });
    const ttl = await one.pttl(`${keyPrefix}rl:shared:x:${Math.floor(clock.now().getTime() / MINUTE)}`);
    expect(ttl).toBeGreaterThan(0);
  });

  it('hot writes answer from memory: strict per node, the shared count refuses one event late', async () => {
    const clock = createTestClock('2026-03-10T09:00:00.000Z');
    const keyPrefix = `entreno-test:${randomBytes(6).toString('hex')}:`;
    const [one, two] = [await connectedRedis(), await connectedRedis()];
    const nodeA = createRedisRateLimiter({ redis: one, clock, keyPrefix });
    const nodeB = createRedisRateLimiter({ redis: two, clock, keyPrefix });
    const check = { rule: { name: 'quick', limit: 3, windowMs: MINUTE }, key: 'y' };
    const shared = () => one.get(`${keyPrefix}rl:quick:y:${Math.floor(clock.now().getTime() / MINUTE)}`);
    // Per node, exactly: the fourth on one node is refused at once.
    for (let event = 1; event <= 3; event += 1) {
      expect(await nodeA.consumeQuickly(check)).toMatchObject({ isLimited: false });
    }
    expect(await nodeA.consumeQuickly(check)).toMatchObject({ isLimited: true });
    await eventually(async () => Number(await shared()) === 4);
    // Node B has counted nothing itself: its first event passes and learns the shared count…
    expect(await nodeB.consumeQuickly(check)).toMatchObject({ isLimited: false });
    await eventually(async () => Number(await shared()) === 5);
    // …after which B refuses from memory until the window ends, and counts again in the next one.
    await eventually(async () => (await nodeB.consumeQuickly(check)).isLimited);
    expect(await nodeB.consumeQuickly(check)).toMatchObject({ isLimited: true, retryAfterMs: MINUTE });
    clock.advance(MINUTE);
    expect(await nodeB.consumeQuickly(check)).toMatchObject({ isLimited: false });
  });
});

describe('client address keys', () => {
  it('keys IPv4 as it is, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('2001:db8:0:12:a:b:c:d')).toBe('2001:db8:0:12::/64');
    expect(addressKey('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:db8::ffff:1')).toBe(addressKey('2001:db8:0:0:1:2:3:4'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('one /64 is one client for per-address limits: rotating the interface id does not escape', async () => {
    const limiter = createMemoryRateLimiter({ clock: createTestClock() });
    const rule = { name: 'probe-v6', limit: 3, windowMs: MINUTE, isPerIp: true };
    const states = [];
    for (let host = 1; host <= 4; host += 1) states.push(await limiter.consume({ rule, key: `2001:db8:1:2::${host}` }));
    expect(states.map((state) => state.isLimited)).toEqual([false, false, false, true]);
    // The neighbouring /64 is someone else.
    expect(await limiter.consume({ rule, key: '2001:db8:1:3::1' })).toMatchObject({ count: 1, isLimited: false });
  });
});

describe.runIf(redisUrl)('redis rate limiter while Redis is away', () => {
  it('answers at once from the in-memory insurance limiter, still limiting', async () => {
    // A client that never reaches Redis (nothing listens on port 1): every command fails at once.
    const redis = createFailFastRedis('redis://127.0.0.1:1', () => {});
    connections.push(redis);
    redis.connect().catch(() => {});
    const limiter = createRedisRateLimiter({ redis, clock: createTestClock(), keyPrefix: 'entreno-test:away:' });
    const rule = { name: 'away', limit: 2, windowMs: MINUTE };
    const states = [];
    for (let event = 0; event < 3; event += 1) states.push(await limiter.consume({ rule, key: 'k' }));
    expect(states.map((state) => state.isLimited)).toEqual([false, false, true]);
    expect(await limiter.peek({ rule, key: 'k' })).toMatchObject({ count: 3, isLimited: true });
    await limiter.reset({ rule, key: 'k' });
    expect(await limiter.peek({ rule, key: 'k' })).toMatchObject({ count: 0 });
  });
});
