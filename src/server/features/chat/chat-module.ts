import type { FastifyInstance } from 'fastify';
import type { Server } from 'socket.io';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import type { InvalidationBus } from '../../plugins/invalidation-bus.ts';
import type { RateLimiter } from '../../plugins/rate-limit.ts';
import type { MatchEvents } from '../swipes/match-events.ts';
import { createChangeLogRepository } from '../sync/change-log-repository.ts';
import { syncRoutes } from '../sync/sync-routes.ts';
import { createSyncService, type SyncService, type SyncSource } from '../sync/sync-service.ts';
import { chatRoutes } from './chat-routes.ts';
import { type ChatNotifier, type ChatRealtime, type ChatService, createChatService } from './chat-service.ts';
import { attachChatSocket, createChatRealtime } from './chat-socket.ts';
import { createMembershipCache } from './conversation-membership.ts';
import { createConversationRepository } from './conversation-repository.ts';
import { createDeliveryDrain } from './delivery-drain.ts';
import { createDeliveryRepository } from './delivery-repository.ts';
import { createMessageRepository } from './message-repository.ts';

export type ChatModule = {
  chat: ChatService;
  sync: SyncService;
  /** Hand to the swipes feature: each new match becomes participants, a notification and an event. */
  matchEvents: MatchEvents;
  /** The one emitter to users' sockets, for the features that tell a chat's people something. */
  realtime: ChatRealtime;
  /** Finishes the notification work in flight (before the database closes). */
  close(): Promise<void>;
  /** Resolves once no delivery drain is running (tests). */
  whenDelivered(): Promise<void>;
};

/**
 * The chat (spec 001 §7 conversation and message calls and socket events) and the sync
 * (docs/decisions/0010): repositories, service, `/api/messages/*`, `/api/sync` and the socket
 * handlers, wired in one call from app.ts. `extraSyncSources` is where other features (the
 * notifications) will join the sync.
 */
export async function registerChat(
  http: FastifyInstance,
  deps: {
    db: Database;
    io: Server;
    clock: Clock;
    limiter: RateLimiter;
    notifier?: ChatNotifier;
    extraSyncSources?: readonly SyncSource[];
    bus: InvalidationBus;
    /** No other node shares the database (embedded): a start takes over every unfinished delivery. */
    isSoleNode: boolean;
  },
): Promise<ChatModule> {
  const logger = http.log;
  const conversations = createConversationRepository(deps.db);
  let drain: ReturnType<typeof createDeliveryDrain> | undefined;
  const realtime = createChatRealtime(deps.io, logger, { isSoleNode: deps.isSoleNode });
  const chat = createChatService({
    conversations,
    membership: createMembershipCache({ bus: deps.bus, load: (id) => conversations.findMembership(id) }),
    bus: deps.bus,
    onStored: () => drain?.kick(),
    messages: createMessageRepository(deps.db),
    realtime,
    notifier: deps.notifier,
    limiter: deps.limiter,
    clock: deps.clock,
    logger,
  });
  const sync = createSyncService({
    changes: createChangeLogRepository(deps.db),
    sources: [chat.syncSource, ...(deps.extraSyncSources ?? [])],
  });
  drain = createDeliveryDrain({
    deliveries: createDeliveryRepository(deps.db),
    deliver: (batch, done) => chat.deliverNotifications(batch, done),
    clock: deps.clock,
    logger,
    isSoleNode: deps.isSoleNode,
  });
  drain.begin();
  attachChatSocket(deps.io, { chat, logger });
  await http.register(
    async (api) => {
      await api.register(chatRoutes, { prefix: '/messages', chat });
      await api.register(syncRoutes, { sync });
    },
    { prefix: '/api' },
  );
  const started = drain;
  return {
    chat,
    sync,
    realtime,
    close: () => started.close(),
    whenDelivered: () => started.whenIdle(),
    matchEvents: {
      matched(userId, event) {
        chat.matched(userId, event).catch((error: unknown) => {
          logger.warn({ err: error, conversationId: event.conversationId }, 'chat: match hook failed');
        });
      },
    },
  };
}
