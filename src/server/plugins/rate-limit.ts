import type { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';
import { tooManyRequests } from '../errors.ts';

/**
 * Throttling shared by every node (QUALITY 3). Counters live in fixed windows numbered from the
 * injected clock, so a window always ends (no lockout is permanent) and tests move time without
 * sleeping; Redis only stores the counts (with a TTL that cleans them up), the clock decides.
 */
export type RateLimitRule = {
  /** Part of the key, e.g. 'login-email-failures'. */
  name: string;
  limit: number;
  windowMs: number;
  /** Counts per client address; these limits scale with RATE_LIMIT_IP_FACTOR (shared addresses). */
  isPerIp?: boolean;
};

export type RateLimitCheck = { rule: RateLimitRule; key: string };

export type RateLimitState = {
  /** Events counted in the current window, this one included for `consume`. */
  count: number;
  /** True when the count is over the rule's limit (consume) or at it (peek: one more would be). */
  isLimited: boolean;
  /** Milliseconds until the current window ends. */
  retryAfterMs: number;
};

export interface RateLimiter {
  readonly kind: 'memory' | 'redis';
  /** Counts one event and reports whether it went over the limit. */
  consume(check: RateLimitCheck): Promise<RateLimitState>;
  /** Reports whether one more event would go over the limit, without counting. */
  peek(check: RateLimitCheck): Promise<RateLimitState>;
  /** Forgets the current window's count (e.g. failures, after a successful login). */
  reset(check: RateLimitCheck): Promise<void>;
}

function windowOf(rule: RateLimitRule, nowMs: number) {
  const index = Math.floor(nowMs / rule.windowMs);
  return { index, retryAfterMs: (index + 1) * rule.windowMs - nowMs };
}

const windowKey = (check: RateLimitCheck, index: number) => `${check.rule.name}:${check.key}:${index}`;

/** One process's counters: the embedded mode, or tests. Old windows are swept as time passes. */
export function createMemoryRateLimiter(options: { clock: Clock; maxKeys?: number }): RateLimiter {
  const maxKeys = options.maxKeys ?? 100_000;
  const counts = new Map<string, { count: number; expiresAtMs: number }>();
  let nextSweepMs = 0;

  const sweep = (nowMs: number) => {
    if (nowMs < nextSweepMs && counts.size < maxKeys) return;
    nextSweepMs = nowMs + 60_000;
    for (const [key, entry] of counts) if (entry.expiresAtMs <= nowMs) counts.delete(key);
    // Still full of live keys (a flood of distinct IPs): drop the oldest rather than grow forever.
    for (const key of counts.keys()) {
      if (counts.size < maxKeys) break;
      counts.delete(key);
    }
  };

  const read = (check: RateLimitCheck, nowMs: number) => {
    const { index, retryAfterMs } = windowOf(check.rule, nowMs);
    const key = windowKey(check, index);
    return { key, retryAfterMs, count: counts.get(key)?.count ?? 0 };
  };

  return {
    kind: 'memory',
    async consume(check) {
      const nowMs = options.clock.now().getTime();
      sweep(nowMs);
      const { key, retryAfterMs, count } = read(check, nowMs);
      counts.set(key, { count: count + 1, expiresAtMs: nowMs + retryAfterMs });
      return { count: count + 1, isLimited: count + 1 > check.rule.limit, retryAfterMs };
    },
    async peek(check) {
      const { retryAfterMs, count } = read(check, options.clock.now().getTime());
      return { count, isLimited: count >= check.rule.limit, retryAfterMs };
    },
    async reset(check) {
      counts.delete(read(check, options.clock.now().getTime()).key);
    },
  };
}

// INCR then set the TTL on the window's first event, atomically.
const CONSUME_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/** Counters in Redis, shared by every node (`REDIS_URL`). */
export function createRedisRateLimiter(options: { redis: Redis; clock: Clock; keyPrefix: string }): RateLimiter {
  const { redis, clock } = options;
  const prefix = `${options.keyPrefix}rl:`;
  const locate = (check: RateLimitCheck) => {
    const { index, retryAfterMs } = windowOf(check.rule, clock.now().getTime());
    return { key: prefix + windowKey(check, index), retryAfterMs };
  };
  return {
    kind: 'redis',
    async consume(check) {
      const { key, retryAfterMs } = locate(check);
      // The TTL is real time, the window is the clock's: keep keys a whole window plus a margin.
      const ttlMs = check.rule.windowMs + 60_000;
      const count = Number(await redis.eval(CONSUME_SCRIPT, 1, key, String(ttlMs)));
      return { count, isLimited: count > check.rule.limit, retryAfterMs };
    },
    async peek(check) {
      const { key, retryAfterMs } = locate(check);
      const count = Number((await redis.get(key)) ?? 0);
      return { count, isLimited: count >= check.rule.limit, retryAfterMs };
    },
    async reset(check) {
      await redis.del(locate(check).key);
    },
  };
}

/**
 * Counts every check, then throws a 429 with the longest Retry-After among those over their
 * limit. Every check is counted even when one already failed, so hammering one dimension cannot
 * dodge another.
 */
export async function enforceRateLimits(
  limiter: RateLimiter,
  checks: RateLimitCheck[],
  message: string,
  errorType = 'RATE_LIMITED',
): Promise<void> {
  const states = await Promise.all(checks.map((check) => limiter.consume(check)));
  throwIfLimited(states, message, errorType);
}

/** Like enforceRateLimits without counting: for limits that count failures only. */
export async function checkRateLimits(
  limiter: RateLimiter,
  checks: RateLimitCheck[],
  message: string,
  errorType = 'RATE_LIMITED',
): Promise<void> {
  const states = await Promise.all(checks.map((check) => limiter.peek(check)));
  throwIfLimited(states, message, errorType);
}

function throwIfLimited(states: RateLimitState[], message: string, errorType: string) {
  const limited = states.filter((state) => state.isLimited);
  if (limited.length === 0) return;
  const retryAfterMs = Math.max(...limited.map((state) => state.retryAfterMs));
  throw tooManyRequests(message, retryAfterMs / 1000, errorType);
}

/**
 * Multiplies the per-IP limits by `factor`, for places where many people share one address (a
 * carrier NAT, an office, or an end-to-end test run from one machine). Per-account, per-phone and
 * per-range limits stay as they are: they are what stops guessing and SMS pumping.
 */
export function scalePerIpLimits(limiter: RateLimiter, factor: number): RateLimiter {
  if (factor === 1) return limiter;
  const scaled = (check: RateLimitCheck): RateLimitCheck =>
    check.rule.isPerIp ? { ...check, rule: { ...check.rule, limit: check.rule.limit * factor } } : check;
  return {
    kind: limiter.kind,
    consume: (check) => limiter.consume(scaled(check)),
    peek: (check) => limiter.peek(scaled(check)),
    reset: (check) => limiter.reset(scaled(check)),
  };
}
