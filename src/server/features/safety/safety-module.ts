import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../infra/clock.ts';
import type { Database } from '../../db/client.ts';
import type { InvalidationBus } from '../../infra/invalidation-bus.ts';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import type { PasswordHasher, SessionService } from '../auth/index.ts';
import type { ChatRealtime } from '../chat/index.ts';
import { createSafetyRepository } from './safety-repository.ts';
import { accountRoutes, safetyRoutes } from './safety-routes.ts';
import { type AfterBlock, createSafetyService, type ReportContexts, type SafetyService } from './safety-service.ts';

/**
 * Blocks, reports, the data export and account deletion (docs/decisions/0012): repository,
 * service and the `/api/safety/*` and `/api/account*` routes, wired in one call from app.ts.
 */
export async function registerSafety(
  http: FastifyInstance,
  deps: {
    db: Database;
    /** The chat's emitter: `user:<id>` on every node (QUALITY 16), the spec's aliases included. */
    realtime: ChatRealtime;
    clock: Clock;
    limiter: RateLimiter;
    sessions: Pick<SessionService, 'revokeAllSessions'>;
    hasher: Pick<PasswordHasher, 'verify' | 'verifyDummy'>;
    discardPhotos(keys: readonly string[]): Promise<void>;
    /** Every node's membership caches hear each ended conversation (`pair-ended`). */
    bus: InvalidationBus;
    /** What reports of an open session or a group chat are about (their features answer, 404 otherwise). */
    contexts?: ReportContexts;
    /** After each block: features holding both people together act on it (an open session's host and member). */
    afterBlock?: AfterBlock;
  },
): Promise<SafetyService> {
  // Through the chat's emitter, so sockets that asked for the spec's aliases get `conversationsUpdated`.
  const chatRealtime = deps.realtime;
  const safety = createSafetyService({
    repository: createSafetyRepository(deps.db),
    contexts: deps.contexts,
    afterBlock: deps.afterBlock,
    realtime: {
      conversationEnded(userId, conversationId, status) {
        // Applied on this node before the answer; the other nodes within the pub/sub delay.
        void deps.bus.publish({ type: 'pair-ended', userIds: [userId], conversationIds: [conversationId] });
        chatRealtime.emitToUser(userId, 'conversationUpdated', { conversationId, status });
      },
      groupsChanged(conversationIds) {
        void deps.bus.publish({ type: 'group-changed', conversationIds });
      },
    },
    revokeAllSessions: (userId) => deps.sessions.revokeAllSessions(userId, 'revoked'),
    // Applied on this node before the answer (the deck index drops the profile: decision 0022).
    accountDeleted: (userId) => deps.bus.publish({ type: 'user-deleted', userId }),
    passwords: deps.hasher,
    discardPhotos: deps.discardPhotos,
    limiter: deps.limiter,
    clock: deps.clock,
    logger: http.log,
  });
  await http.register(
    async (api) => {
      await api.register(safetyRoutes, { prefix: '/safety', safety });
      await api.register(accountRoutes, { prefix: '/account', safety });
    },
    { prefix: '/api' },
  );
  return safety;
}
