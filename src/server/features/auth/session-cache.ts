import { LRUCache } from 'lru-cache';
import type { InvalidationBus } from '../../infra/invalidation-bus.ts';
import type { SessionRecord } from './session-repository.ts';

/** The safety TTL (docs/decisions/0018 §2): a lost invalidation keeps a dead session alive at most this long. */
export const SESSION_CACHE_TTL_MS = 60_000;
const SESSION_CACHE_SIZE = 100_000;

export type CachedSession = Pick<SessionRecord, 'id' | 'userId' | 'rememberMe' | 'expiresAt' | 'maxExpiresAt'>;

export type SessionCache = ReturnType<typeof createSessionCache>;

/**
 * This node's live sessions (docs/decisions/0018 §2): session id → the row's fields that decide
 * whether a token is good, filled on first use, bounded (LRU) and expiring after 60 s. Only live
 * sessions are kept; a revocation heard on the bus (any node's) drops them at once, and a
 * `reset` (the bus may have missed events) drops everything.
 */
export function createSessionCache(bus: InvalidationBus) {
  const cache = new LRUCache<string, CachedSession>({ max: SESSION_CACHE_SIZE, ttl: SESSION_CACHE_TTL_MS });
  const dropUser = (userId: string) => {
    for (const [id, session] of cache.entries()) if (session.userId === userId) cache.delete(id);
  };
  bus.subscribe((event) => {
    if (event.type === 'reset') cache.clear();
    else if (event.type === 'sessions-revoked') {
      if (event.sessionIds === 'all') dropUser(event.userId);
      else for (const id of event.sessionIds) cache.delete(id);
    } else if (event.type === 'user-deleted') dropUser(event.userId);
  });
  return {
    get: (sessionId: string) => cache.get(sessionId),
    /** Remembers a live session (a revoked one is never stored). */
    set(session: CachedSession) {
      cache.set(session.id, {
        id: session.id,
        userId: session.userId,
        rememberMe: session.rememberMe,
        expiresAt: session.expiresAt,
        maxExpiresAt: session.maxExpiresAt,
      });
    },
    delete: (sessionId: string) => cache.delete(sessionId),
    get size() {
      return cache.size;
    },
  };
}
