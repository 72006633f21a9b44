import { isIPv4, isIPv6 } from 'node:net';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Clock } from './clock.ts';
import { tooManyRequests } from '../errors.ts';

/**
 * Throttling shared by every node (QUALITY 3; docs/decisions/0018 §6, 0021). The counting is
 * rate-limiter-flexible's: `RateLimiterMemory` embedded, `RateLimiterRedis` with an in-memory
 * insurance limiter when REDIS_URL is set, so a Redis outage never stalls a request (each node
 * then counts on its own until Redis returns). Windows are fixed and numbered from the injected
 * clock (the window's number is part of the key), so a window always ends (no lockout is
 * permanent) and tests move time without sleeping; the stores' own expiry only cleans up.
 */
export type RateLimitRule = {
  /** Part of the key, e.g. 'login-failures-account'. */
  name: string;
  limit: number;
  windowMs: number;
  /** Counts per client address (an IPv6 address by its /64); scales with RATE_LIMIT_IP_FACTOR. */
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
  /**
   * The same for the hot writes (a message, a swipe: docs/decisions/0035), answered from this
   * node's memory: in memory it is `consume`; on Redis this node counts locally (strict per node)
   * and adds the shared count in the background, remembering a shared "over" until the window
   * ends, so the event is refused from memory from then on. Across nodes the shared limit is
   * therefore enforced one event late; per node, exactly.
   */
  consumeQuickly(check: RateLimitCheck): Promise<RateLimitState>;
  /** Reports whether one more event would go over the limit, without counting. */
  peek(check: RateLimitCheck): Promise<RateLimitState>;
  /** Forgets the current window's count (e.g. failures, after a successful login). */
  reset(check: RateLimitCheck): Promise<void>;
  /** Takes back one event `consume` counted in the current window (a reservation not needed). */
  giveBack(check: RateLimitCheck): Promise<void>;
}

/**
 * The key of a client address: an IPv4 address as it is, an IPv6 address by its /64 (one
 * subscriber usually holds a whole /64, so counting single addresses would let them rotate).
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (isIPv4(address) || !isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]?.split('::') ?? [''];
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  return [...left, ...Array.from({ length: Math.max(0, missing) }, () => '0'), ...right].map((group) =>
    (group || '0').toLowerCase().replace(/^0+(?=.)/, ''),
  );
}

// How long a store keeps a window's count beyond the window (clock and store time may differ).
const STORE_MARGIN_S = 60;

function windowOf(rule: RateLimitRule, nowMs: number) {
  const index = Math.floor(nowMs / rule.windowMs);
  return { index, retryAfterMs: (index + 1) * rule.windowMs - nowMs };
}

const storeKey = (check: RateLimitCheck, index: number) =>
  `${check.rule.isPerIp ? addressKey(check.key) : check.key}:${index}`;

/** Counts consumed in a window, whether rate-limiter-flexible resolved (under) or rejected (over). */
async function consumedPoints(operation: Promise<RateLimiterRes>): Promise<number> {
  try {
    return (await operation).consumedPoints;
  } catch (error) {
    if (error instanceof RateLimiterRes) return error.consumedPoints;
    throw error;
  }
}

/** The limiter over one kind of store: one rate-limiter-flexible instance per rule shape. */
function createFlexibleRateLimiter(
  kind: RateLimiter['kind'],
  clock: Clock,
  build: (options: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract,
  quickly?: (consume: RateLimiter['consume']) => RateLimiter['consumeQuickly'],
): RateLimiter {
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiterFor = (rule: RateLimitRule) => {
    const id = `${rule.name}|${rule.limit}|${rule.windowMs}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = build({
        keyPrefix: `rl:${rule.name}`,
        points: rule.limit,
        duration: Math.ceil(rule.windowMs / 1000) + STORE_MARGIN_S,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  };
  const locate = (check: RateLimitCheck) => {
    const { index, retryAfterMs } = windowOf(check.rule, clock.now().getTime());
    return { limiter: limiterFor(check.rule), key: storeKey(check, index), retryAfterMs };
  };
  const consume: RateLimiter['consume'] = async (check) => {
    const { limiter, key, retryAfterMs } = locate(check);
    const count = await consumedPoints(limiter.consume(key));
    return { count, isLimited: count > check.rule.limit, retryAfterMs };
  };
  return {
    kind,
    consume,
    consumeQuickly: quickly ? quickly(consume) : consume,
    async peek(check) {
      const { limiter, key, retryAfterMs } = locate(check);
      const count = (await limiter.get(key))?.consumedPoints ?? 0;
      return { count, isLimited: count >= check.rule.limit, retryAfterMs };
    },
    async reset(check) {
      const { limiter, key } = locate(check);
      await limiter.delete(key);
    },
    async giveBack(check) {
      const { limiter, key } = locate(check);
      await limiter.reward(key, 1);
    },
  };
}

/** One process's counters: the embedded mode, or tests. */
export function createMemoryRateLimiter(options: { clock: Clock }): RateLimiter {
  return createFlexibleRateLimiter('memory', options.clock, (shape) => new RateLimiterMemory(shape));
}

/**
 * Counters in Redis, shared by every node (`REDIS_URL`). While Redis is unreachable (the client
 * is not ready, a command fails or times out) each call falls back at once to this node's
 * in-memory insurance limiter: limits stay local until Redis returns, requests never wait.
 */
export function createRedisRateLimiter(options: { redis: Redis; clock: Clock; keyPrefix: string }): RateLimiter {
  const local = createMemoryRateLimiter({ clock: options.clock });
  // Shared "over the limit" answers, by rule and key, until their window ends.
  const overUntil = new Map<string, number>();
  const quickly = (shared: RateLimiter['consume']): RateLimiter['consumeQuickly'] => {
    return async (check) => {
      const now = options.clock.now().getTime();
      const id = `${check.rule.name}|${check.rule.isPerIp ? addressKey(check.key) : check.key}`;
      void shared(check).then(
        (state) => {
          if (!state.isLimited) return;
          // Bounded: only keys over a limit are kept, and each only until its window ends.
          if (overUntil.size >= 100_000) overUntil.clear();
          overUntil.set(id, now + state.retryAfterMs);
        },
        // The shared store's own insurance limiter answers while Redis is down; nothing to do.
        () => {},
      );
      const state = await local.consume(check);
      const until = overUntil.get(id);
      if (until !== undefined && until <= now) overUntil.delete(id);
      if (state.isLimited || until === undefined || until <= now) return state;
      return { count: state.count, isLimited: true, retryAfterMs: Math.max(state.retryAfterMs, until - now) };
    };
  };
  return createFlexibleRateLimiter(
    'redis',
    options.clock,
    (shape) => {
      return new RateLimiterRedis({
        ...shape,
        keyPrefix: `${options.keyPrefix}${shape.keyPrefix}`,
        storeClient: options.redis,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(shape),
      });
    },
    quickly,
  );
}

/** Redis command timeout of the fail-fast client (ms): a hung Redis costs a request at most this. */
export const REDIS_COMMAND_TIMEOUT_MS = 250;

/**
 * A Redis client for request paths: no offline queue (a command while disconnected fails at
 * once), one short timeout per command, no retries of a command; the connection itself keeps
 * reconnecting in the background. Errors go to `onError` (an 'error' event without a listener
 * would end the process).
 */
export function createFailFastRedis(url: string, onError: (error: unknown) => void): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(200 * attempt, 2000),
  });
  redis.on('error', onError);
  return redis;
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

/** Throws the 429 (the longest Retry-After of those over their limit) when any state is limited. */
export function throwIfLimited(states: RateLimitState[], message: string, errorType: string) {
  const limited = states.filter((state) => state.isLimited);
  if (limited.length === 0) return;
  const retryAfterMs = Math.max(...limited.map((state) => state.retryAfterMs));
  throw tooManyRequests(message, retryAfterMs / 1000, errorType);
}

/** Checks counted together under one 429 message (the first group over its limit speaks). */
export type GuessLimitGroup = { checks: RateLimitCheck[]; message: string; errorType?: string };

/**
 * One guess at a guess-limited secret (a code, a recovery code, a password: QUALITY 36). The
 * attempt is reserved on every check first, atomically (`consume`), and only then is the secret
 * checked: N requests at once check at most the limit, where reading the count first and raising
 * it after a failure let a burst pass the read together. The reservation is given back only where
 * that is safe: when the attempt was refused (it checked nothing, so refused attempts never lock
 * the owner out from elsewhere), when it succeeded (the `resetOnSuccess` windows, the growing
 * delays, are forgotten), and when it failed without a wrong guess (`isWrongGuess` false: e.g. an
 * inner limit refused it before the secret was compared).
 */
export async function guessUnderLimits<T>(
  limiter: RateLimiter,
  groups: GuessLimitGroup[],
  guess: () => Promise<T>,
  options: { isWrongGuess(error: unknown): boolean; resetOnSuccess?: RateLimitCheck[] },
): Promise<T> {
  const reserved = groups.flatMap((group) => group.checks);
  const states = await Promise.all(reserved.map((check) => limiter.consume(check)));
  const giveBack = (checks: RateLimitCheck[]) => Promise.all(checks.map((check) => limiter.giveBack(check)));
  if (states.some((state) => state.isLimited)) {
    await giveBack(reserved);
    let offset = 0;
    for (const group of groups) {
      throwIfLimited(
        states.slice(offset, offset + group.checks.length),
        group.message,
        group.errorType ?? 'RATE_LIMITED',
      );
      offset += group.checks.length;
    }
  }
  let result: T;
  try {
    result = await guess();
  } catch (error) {
    if (!options.isWrongGuess(error)) await giveBack(reserved);
    throw error;
  }
  const resets = options.resetOnSuccess ?? [];
  const isReset = (check: RateLimitCheck) =>
    resets.some((reset) => reset.rule === check.rule && reset.key === check.key);
  await Promise.all([
    ...resets.map((check) => limiter.reset(check)),
    giveBack(reserved.filter((check) => !isReset(check))),
  ]);
  return result;
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
    consumeQuickly: (check) => limiter.consumeQuickly(scaled(check)),
    peek: (check) => limiter.peek(scaled(check)),
    reset: (check) => limiter.reset(scaled(check)),
    giveBack: (check) => limiter.giveBack(scaled(check)),
  };
}
