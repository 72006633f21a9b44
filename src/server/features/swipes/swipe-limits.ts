import { DISCOVERY_MESSAGES } from '#shared/discovery/discovery-schemas';
import { type RateLimiter, type RateLimitRule, throwIfLimited } from '../../infra/rate-limit.ts';

/**
 * Swipes per user (issue #19 §3, docs/decisions/0021): a person looking at each card swipes a
 * few a second at most and a few hundred an hour; a script does fifty in a blink. Shared by every
 * node (the limiter is Redis-backed when scaled). Over either, a 429 with Retry-After and the
 * same shape as the message flood limit (`errorType: 'RATE_LIMIT'`); the outbox retries it.
 */
export const SWIPE_LIMITS = [
  { name: 'swipe-user-10s', limit: 30, windowMs: 10_000 },
  { name: 'swipe-user-1h', limit: 1000, windowMs: 60 * 60_000 },
] as const satisfies readonly RateLimitRule[];

/**
 * Counts one swipe of `userId`; throws the 429 when over a limit. Answered from this node's
 * memory (`consumeQuickly`, docs/decisions/0035): the swipe's only I/O is its statement.
 */
export async function enforceSwipeLimit(limiter: RateLimiter, userId: string): Promise<void> {
  const states = await Promise.all(SWIPE_LIMITS.map((rule) => limiter.consumeQuickly({ rule, key: userId })));
  throwIfLimited(states, DISCOVERY_MESSAGES.swipeRateLimited, 'RATE_LIMIT');
}
