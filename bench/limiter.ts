/**
 * The limiter swap (docs/decisions/0021): `infra/rate-limit.ts` on rate-limiter-flexible against
 * the hand-written limiter it replaced (kept below, verbatim in what it does, as the baseline),
 * in the same run: in memory, and on Redis when REDIS_URL is set. Each figure is the time of one
 * `consume`, sequential (one at a time) and with 64 in flight.
 */
import os from 'node:os';
import { Redis } from 'ioredis';
import { systemClock } from '../src/server/infra/clock.ts';
import {
  createFailFastRedis,
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type RateLimitCheck,
  type RateLimiter,
  type RateLimitRule,
} from '../src/server/infra/rate-limit.ts';
import type { BenchResult } from './load.ts';

const OPERATIONS = Number(process.env.BENCH_LIMITER_OPS ?? 50_000);
const REDIS_OPERATIONS = Number(process.env.BENCH_LIMITER_REDIS_OPS ?? 10_000);
const KEYS = 1000;
const RULE: RateLimitRule = { name: 'bench', limit: 1_000_000, windowMs: 60_000 };

// ---- the baseline: the limiter before the swap (fixed windows in a Map; INCR + PEXPIRE in Redis) ----

function legacyMemoryLimiter(): Pick<RateLimiter, 'consume'> {
  const counts = new Map<string, { count: number; expiresAtMs: number }>();
  let nextSweepMs = 0;
  return {
    async consume(check) {
      const nowMs = Date.now();
      if (nowMs >= nextSweepMs || counts.size >= 100_000) {
        nextSweepMs = nowMs + 60_000;
        for (const [key, entry] of counts) if (entry.expiresAtMs <= nowMs) counts.delete(key);
      }
      const index = Math.floor(nowMs / check.rule.windowMs);
      const retryAfterMs = (index + 1) * check.rule.windowMs - nowMs;
      const key = `${check.rule.name}:${check.key}:${index}`;
      const count = (counts.get(key)?.count ?? 0) + 1;
      counts.set(key, { count, expiresAtMs: nowMs + retryAfterMs });
      return { count, isLimited: count > check.rule.limit, retryAfterMs };
    },
  };
}

const LEGACY_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

function legacyRedisLimiter(redis: Redis, prefix: string): Pick<RateLimiter, 'consume'> {
  return {
    async consume(check) {
      const nowMs = Date.now();
      const index = Math.floor(nowMs / check.rule.windowMs);
      const key = `${prefix}${check.rule.name}:${check.key}:${index}`;
      const count = Number(await redis.eval(LEGACY_SCRIPT, 1, key, String(check.rule.windowMs + 60_000)));
      return { count, isLimited: count > check.rule.limit, retryAfterMs: (index + 1) * check.rule.windowMs - nowMs };
    },
  };
}

// ---- measuring ----

const check = (index: number): RateLimitCheck => ({ rule: RULE, key: `user-${index % KEYS}` });

/** Mean µs per consume: one at a time, then `inFlight` at a time. */
async function measure(limiter: Pick<RateLimiter, 'consume'>, operations: number, inFlight: number) {
  for (let index = 0; index < Math.min(2000, operations); index += 1) await limiter.consume(check(index));
  let started = performance.now();
  for (let index = 0; index < operations; index += 1) await limiter.consume(check(index));
  const sequentialUs = ((performance.now() - started) * 1000) / operations;
  started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < operations) await limiter.consume(check(next++));
    }),
  );
  const concurrentUs = ((performance.now() - started) * 1000) / operations;
  return { sequentialUs, concurrentUs };
}

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

function lines(label: string, measured: { sequentialUs: number; concurrentUs: number }, baseline: typeof measured) {
  return [
    `${label}, one at a time: ${measured.sequentialUs.toFixed(2)} µs per consume; baseline ${baseline.sequentialUs.toFixed(2)} µs; ratio ${(measured.sequentialUs / baseline.sequentialUs).toFixed(2)}× (load average ${load()})`,
    `${label}, 64 in flight: ${measured.concurrentUs.toFixed(2)} µs per consume; baseline ${baseline.concurrentUs.toFixed(2)} µs; ratio ${(measured.concurrentUs / baseline.concurrentUs).toFixed(2)}× (load average ${load()})`,
  ];
}

export async function benchLimiter(): Promise<BenchResult> {
  const result: BenchResult = {
    name: `Rate limiter: rate-limiter-flexible (infra/rate-limit.ts) vs the hand-written limiter it replaced (baseline), ${KEYS} keys`,
    lines: [],
  };
  const memoryBaseline = await measure(legacyMemoryLimiter(), OPERATIONS, 64);
  const memory = await measure(createMemoryRateLimiter({ clock: systemClock }), OPERATIONS, 64);
  result.lines.push(...lines(`memory, ${OPERATIONS} consumes`, memory, memoryBaseline));
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    result.lines.push('Redis: skipped (REDIS_URL unset)');
    return result;
  }
  const prefix = `entreno-bench:limiter:${process.pid}:`;
  const baselineRedis = new Redis(redisUrl);
  const redis = createFailFastRedis(redisUrl, () => {});
  await redis.connect();
  try {
    const redisBaseline = await measure(legacyRedisLimiter(baselineRedis, prefix), REDIS_OPERATIONS, 64);
    const onRedis = await measure(
      createRedisRateLimiter({ redis, clock: systemClock, keyPrefix: prefix }),
      REDIS_OPERATIONS,
      64,
    );
    result.lines.push(...lines(`Redis, ${REDIS_OPERATIONS} consumes`, onRedis, redisBaseline));
  } finally {
    const keys = await baselineRedis.keys(`${prefix}*`);
    if (keys.length > 0) await baselineRedis.del(...keys);
    baselineRedis.disconnect();
    redis.disconnect();
  }
  return result;
}
