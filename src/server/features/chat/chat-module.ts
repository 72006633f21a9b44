import type { FastifyInstance } from 'fastify';
import type { Server } from 'socket.io';
import type { Clock } from '../../infra/clock.ts';
import type { Database } from '../../db/client.ts';
import type { InvalidationBus } from '../../infra/invalidation-bus.ts';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import type { MatchEvents } from '../swipes/match-events.ts';
import { createSnapshotReader } from '../sync/change-log-repository.ts';
import { syncRoutes } from '../sync/sync-routes.ts';
import { createSyncService, type SyncService } from '../sync/sync-service.ts';
import { createNotificationDelivery } from './chat-deliveries.ts';
import { chatRoutes, groupRoutes } from './chat-routes.ts';
import { type ChatNotifier, type ChatRealtime, type ChatService, createChatService } from './chat-service.ts';
import { createAliasPresence } from './alias-presence.ts';
import { attachChatSocket, createChatRealtime } from './chat-socket.ts';
import { createChatSyncSource } from './chat-sync.ts';
import { createMembershipCache } from './conversation-membership.ts';
import { createConversationRepository } from './conversation-repository.ts';
import { createDeliveryDrain } from './delivery-drain.ts';
import { createDeliveryRepository } from './delivery-repository.ts';
import { createGroupChat, type GroupChat } from './group-chat.ts';
import { createGroupReports, type GroupReports } from './group-report.ts';
import { createGroupReportRepository } from './group-report-repository.ts';
import { createGroupRepository } from './group-repository.ts';
import { createMessageRepository } from './message-repository.ts';

export type ChatModule = {
  chat: ChatService;
  sync: SyncService;
  /** Hand to the swipes feature: each new match becomes participants, a notification and an event. */
  matchEvents: MatchEvents;
  /** The one emitter to users' sockets, for the features that tell a chat's people something. */
  realtime: ChatRealtime;
  /**
   * Group conversations (issue 35, docs/decisions/0056), for the open-sessions feature. Each call
   * takes an optional `executor` (the caller's transaction); without one it runs its own and then
   * tells every node and the members. With one, call `announceChange(change, notice)` once the
   * caller's transaction has committed.
   */
  groups: Pick<
    GroupChat,
    'createGroupConversation' | 'addGroupMember' | 'removeGroupMember' | 'closeGroupConversation' | 'announceChange'
  >;
  /** Who a report made from a group chat is about, for the safety feature (404 to non-members). */
  groupReports: GroupReports;
  /** Finishes the notification work in flight (before the database closes). */
  close(): Promise<void>;
  /** Resolves once no delivery drain is running (tests). */
  whenDelivered(): Promise<void>;
};

/**
 * The chat (spec 001 §7 conversation and message calls and socket events) and the sync
 * (docs/decisions/0041): repositories, service, `/api/messages/*`, `/api/sync` and the socket
 * handlers, wired in one call from app.ts.
 */
export async function registerChat(
  http: FastifyInstance,
  deps: {
    db: Database;
    io: Server;
    clock: Clock;
    limiter: RateLimiter;
    notifier?: ChatNotifier;
    bus: InvalidationBus;
    /** No other node shares the database (embedded): the start-up sweep is the only one. */
    isSoleNode: boolean;
  },
): Promise<ChatModule> {
  const logger = http.log;
  const conversations = createConversationRepository(deps.db);
  const messages = createMessageRepository(deps.db);
  let drain: ReturnType<typeof createDeliveryDrain> | undefined;
  const aliases = createAliasPresence(deps.io, { isSoleNode: deps.isSoleNode });
  const realtime = createChatRealtime(deps.io, logger, { aliases });
  const membership = createMembershipCache({ bus: deps.bus, load: (id) => conversations.findMembership(id) });
  const onStored = (conversationId: string) => drain?.kick(conversationId);
  const groupRepository = createGroupRepository(deps.db);
  const groups = createGroupChat({
    groups: groupRepository,
    messages,
    conversations,
    realtime,
    membership,
    bus: deps.bus,
    limiter: deps.limiter,
    clock: deps.clock,
    onStored,
  });
  const chat = createChatService({
    conversations,
    membership,
    groups,
    bus: deps.bus,
    onStored,
    messages,
    realtime,
    notifier: deps.notifier,
    limiter: deps.limiter,
    clock: deps.clock,
    logger,
  });
  const sync = createSyncService({
    snapshots: createSnapshotReader(deps.db),
    source: createChatSyncSource({ conversations, messages, groups: groupRepository, clock: deps.clock }),
  });
  drain = createDeliveryDrain({
    deliveries: createDeliveryRepository(deps.db),
    deliver: createNotificationDelivery(realtime, deps.notifier),
    clock: deps.clock,
    logger,
    isSoleNode: deps.isSoleNode,
  });
  drain.begin();
  attachChatSocket(deps.io, { chat, logger });
  await http.register(
    async (api) => {
      await api.register(chatRoutes, { prefix: '/messages', chat });
      await api.register(groupRoutes, { prefix: '/groups', groups });
      await api.register(syncRoutes, { sync });
    },
    { prefix: '/api' },
  );
  const started = drain;
  return {
    chat,
    sync,
    realtime,
    groups,
    groupReports: createGroupReports({ repository: createGroupReportRepository(deps.db) }),
    close: () => {
      aliases.close();
      return started.close();
    },
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
