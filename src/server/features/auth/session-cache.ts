import { LRUCache } from 'lru-cache';
import type { InvalidationBus } from '../../infra/invalidation-bus.ts';
import type { SessionRecord } from './session-repository.ts';

/** The safety TTL (docs/decisions/0018 §2): a lost invalidation keeps a dead session alive at most this long. */
export const SESSION_CACHE_TTL_MS = 60_000;
const SESSION_CACHE_SIZE = 100_000;
/**
 * A session used since the last pass whose row was read longer ago than this is read again by the
 * next pass (`takeDue`), all of them in one statement, before its entry expires: sockets that
 * keep sending never miss the cache, and a node's sessions are not read one by one in a wave 60 s
 * after many sockets connected at once (a restart, a bench).
 */
export const SESSION_REFRESH_AFTER_MS = 40_000;

export type CachedSession = Pick<SessionRecord, 'id' | 'userId' | 'rememberMe' | 'expiresAt' | 'maxExpiresAt'>;

export type SessionCache = ReturnType<typeof createSessionCache>;

/**
 * This node's live sessions (docs/decisions/0018 §2): session id → the row's fields that decide
 * whether a token is good, filled on first use, bounded (LRU) and expiring 60 s after its row was
 * read; a session in use is read again before that, with the others due, in one statement
 * (`takeDue`, 0018's amendment of session 19). Only live sessions are kept; a revocation heard on
 * the bus (any node's) drops them at once, and a `reset` (the bus may have missed events) drops
 * everything.
 */
export function createSessionCache(
  bus: InvalidationBus,
  timing = { ttlMs: SESSION_CACHE_TTL_MS, refreshAfterMs: SESSION_REFRESH_AFTER_MS },
) {
  const cache = new LRUCache<string, CachedSession>({ max: SESSION_CACHE_SIZE, ttl: timing.ttlMs });
  /** Sessions read from the cache since their row was last read. */
  const used = new Set<string>();
  /** Counts drops; what a pass read before a drop it did not see must not refill the entry. */
  let drops = 0;
  const droppedAt = new Map<string, number>();
  const drop = (id: string) => {
    cache.delete(id);
    if (refreshing > 0) droppedAt.set(id, drops);
  };
  let refreshing = 0;
  const set = (session: CachedSession) => {
    cache.set(session.id, {
      id: session.id,
      userId: session.userId,
      rememberMe: session.rememberMe,
      expiresAt: session.expiresAt,
      maxExpiresAt: session.maxExpiresAt,
    });
  };
  const dropUser = (userId: string) => {
    for (const [id, session] of cache.entries()) if (session.userId === userId) drop(id);
  };
  bus.subscribe((event) => {
    if (event.type !== 'reset' && event.type !== 'sessions-revoked' && event.type !== 'user-deleted') return;
    drops += 1;
    if (event.type === 'reset') {
      for (const id of cache.keys()) drop(id);
    } else if (event.type === 'sessions-revoked') {
      if (event.sessionIds === 'all') dropUser(event.userId);
      else for (const id of event.sessionIds) drop(id);
    } else if (event.type === 'user-deleted') dropUser(event.userId);
  });
  return {
    get(sessionId: string) {
      const session = cache.get(sessionId);
      if (session) used.add(sessionId);
      return session;
    },
    /**
     * The sessions used since their rows were read, over SESSION_REFRESH_AFTER_MS ago, and
     * `settle` for what their rows say now (the live ones): a live one is kept (its 60 s start
     * again), anything else dropped — unless a revocation dropped it while the rows were being
     * read. `abandon` when the rows could not be read (they expire as they would have).
     */
    takeDue() {
      const due = [...used].filter((id) => cache.getRemainingTTL(id) < timing.ttlMs - timing.refreshAfterMs);
      for (const id of due) used.delete(id);
      const since = drops;
      refreshing += 1;
      const done = () => {
        refreshing -= 1;
        if (refreshing === 0) droppedAt.clear();
      };
      return {
        ids: due,
        abandon: done,
        settle(live: readonly CachedSession[]) {
          const fresh = new Map(live.map((session) => [session.id, session]));
          for (const id of due) {
            const dropped = droppedAt.get(id);
            if (dropped !== undefined && dropped > since) continue;
            const session = fresh.get(id);
            if (session) set(session);
            else cache.delete(id);
          }
          done();
        },
      };
    },
    /** Remembers a live session (a revoked one is never stored). */
    set,
    delete(sessionId: string) {
      used.delete(sessionId);
      return cache.delete(sessionId);
    },
    get size() {
      return cache.size;
    },
  };
}
