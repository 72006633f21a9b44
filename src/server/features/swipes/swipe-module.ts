import type { FastifyInstance } from 'fastify';
import type { Server } from 'socket.io';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../infra/clock.ts';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import type { Logger } from '../../logger.ts';
import { userRoom } from '../../plugins/realtime-auth.ts';
import type { NotificationService } from '../notifications/index.ts';
import type { PrivacyReader } from '../profiles/profile-model.ts';
import type { ProfileRepository } from '../profiles/profile-repository.ts';
import type { MatchEvents } from './match-events.ts';
import { createSwipeRepository } from './swipe-repository.ts';
import { swipeRoutes } from './swipe-routes.ts';
import { createSwipeService, type SwipeService } from './swipe-service.ts';
import type { SwipeNotifier } from './swipe-notifier.ts';
import { createSwipeUndoRepository, SUPERLIKE_REFERENCE_TYPE } from './swipe-undo-repository.ts';
import { createSwipeUndoService, type SwipeUndoService } from './swipe-undo-service.ts';

export type SwipeModule = {
  swipes: SwipeService;
  undos: SwipeUndoService;
  /** A new match's announcement (the `match` socket event, then `matchEvents`), for matches made elsewhere. */
  announce: MatchEvents;
  /** `/api/swipes/users/:id/{swipe,undo,matches}`. */
  register(http: FastifyInstance): Promise<void>;
};

/** Swipes, undo and matches (spec 001 §3-4): a match reaches both users' sockets, then `matchEvents`. */
export function createSwipeModule(deps: {
  db: Database;
  io: Server;
  clock: Clock;
  logger: Logger;
  limiter: RateLimiter;
  profiles: ProfileRepository;
  /** What each user lets others see (settings privacy, docs/decisions/0025). */
  privacyOf: PrivacyReader;
  /** Also told of each new match, after the socket event (the chat: participants, notification). */
  matchEvents: MatchEvents;
  /** Superlike notifications and their removal by "Deshacer" (docs/decisions/0023). */
  notifications: Pick<NotificationService, 'notifySuperlike' | 'removed'>;
}): SwipeModule {
  const { io, logger, notifications } = deps;
  const notifier: SwipeNotifier = {
    async superliked(targetId, swipeId) {
      await notifications.notifySuperlike(targetId, { swipeId, referenceType: SUPERLIKE_REFERENCE_TYPE });
    },
    notificationsRemoved: (userId, removed) => notifications.removed(userId, removed),
  };
  const announce: MatchEvents = {
    matched(userId, event) {
      io.to(userRoom(userId)).emit('match', event);
      deps.matchEvents.matched(userId, event);
    },
  };
  const swipes = createSwipeService({
    swipes: createSwipeRepository(deps.db),
    profiles: deps.profiles,
    events: announce,
    clock: deps.clock,
    privacyOf: deps.privacyOf,
    logger,
    notifier,
  });
  const undos = createSwipeUndoService({ undos: createSwipeUndoRepository(deps.db), notifier, logger });
  return {
    swipes,
    undos,
    announce,
    async register(http) {
      await http.register(swipeRoutes, { prefix: '/api/swipes', swipes, undos, limiter: deps.limiter });
    },
  };
}
