import type { FastifyInstance } from 'fastify';
import type { Server } from 'socket.io';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { isDatabaseEmpty, seedDemoData } from '../db/seed.ts';
import { seedDemoAccountLife } from '../db/seed-demo-account.ts';
import type { InvalidationBus } from '../plugins/invalidation-bus.ts';
import type { RateLimiter } from '../plugins/rate-limit.ts';
import { createDeckIndexRepository } from './discovery/deck-index-repository.ts';
import { createDeckSnapshots } from './discovery/deck-snapshots.ts';
import { createLiveDeckIndex, type LiveDeckIndex } from './discovery/live-deck-index.ts';
import { createRecommendationRepository } from './discovery/recommendation-repository.ts';
import { recommendationRoutes } from './discovery/recommendation-routes.ts';
import { createRecommendationService } from './discovery/recommendation-service.ts';
import { createGymRepository } from './gyms/gym-repository.ts';
import { gymRoutes } from './gyms/gym-routes.ts';
import { createGymService } from './gyms/gym-service.ts';
import { choosePhotoStore } from './photos/choose-photo-store.ts';
import { processPhoto } from './photos/photo-processor.ts';
import { photoFileRoutes, photoRoutes } from './photos/photo-routes.ts';
import { createPhotoService } from './photos/photo-service.ts';
import type { PhotoStore } from './photos/photo-store.ts';
import { createProfileRepository, type ProfileRepository } from './profiles/profile-repository.ts';
import { profileRoutes } from './profiles/profile-routes.ts';
import { createProfileService } from './profiles/profile-service.ts';
import type { MatchEvents } from './swipes/match-events.ts';
import { createSwipeRepository } from './swipes/swipe-repository.ts';
import { swipeRoutes } from './swipes/swipe-routes.ts';
import { createSwipeService } from './swipes/swipe-service.ts';
import type { SwipeNotifier } from './swipes/swipe-notifier.ts';
import { createSwipeUndoRepository } from './swipes/swipe-undo-repository.ts';
import { createSwipeUndoService } from './swipes/swipe-undo-service.ts';
import type { PrivacyReader } from './profiles/profile-model.ts';

export type DiscoveryFeaturesDeps = {
  db: Database;
  config: Config;
  clock: Clock;
  limiter: RateLimiter;
  io: Server;
  /** Tests only: another photo store (default: DATA_DIR/photos, or memory for in-memory databases). */
  photoStore?: PhotoStore;
  /** Also told of each new match, after the socket event (the chat: participants, notification). */
  matchEvents?: MatchEvents;
  /** Whether a user lets others find their profile (settings privacy.showProfile). */
  isShownToOthers?(userId: string): Promise<boolean>;
  /** What each user lets others see (settings privacy, docs/decisions/0025). */
  privacyOf?: PrivacyReader;
  /** Superlike notifications and their removal by "Deshacer" (docs/decisions/0023). */
  swipeNotifier?: SwipeNotifier;
  /** Told after photos were added to a profile (profile verification, docs/decisions/0034). */
  onPhotosAdded?(userId: string): Promise<void>;
  /** Every node's `user-deleted`: the deck index drops the profile before the deletion answers here. */
  bus?: InvalidationBus;
};

/** `match` to every socket of the user (room `user:<id>`); the notification feature will build on it. */
export function createSocketMatchEvents(io: Server): MatchEvents {
  return {
    matched(userId, event) {
      io.to(`user:${userId}`).emit('match', event);
    },
  };
}

/** The socket events, then the other listener (added by the chat feature). */
function alsoTell(first: MatchEvents, second: MatchEvents | undefined): MatchEvents {
  if (!second) return first;
  return {
    matched(userId, event) {
      first.matched(userId, event);
      second.matched(userId, event);
    },
  };
}

/**
 * This node's own profile writes refresh its deck index before they answer, so the next deck
 * request here sees them (other nodes hear the change feed; docs/decisions/0022).
 */
function refreshingDeckIndex(repository: ProfileRepository, index: LiveDeckIndex | undefined): ProfileRepository {
  if (!index) return repository;
  return {
    ...repository,
    async create(userId, content, now) {
      const result = await repository.create(userId, content, now);
      await index.refresh([userId]);
      return result;
    },
    async modify(userId, mutate, now) {
      const result = await repository.modify(userId, mutate, now);
      await index.refresh([userId]);
      return result;
    },
    async setVisible(userId, isVisible, now) {
      await repository.setVisible(userId, isVisible, now);
      await index.refresh([userId]);
    },
  };
}

/**
 * Profiles, photos, gym search, recommendations, swipes and matches (spec 001): repositories,
 * services and routes wired in one place, so app.ts stays a list of features. Also seeds the gym
 * list, and the demo data on a first embedded start (config.demoData).
 */
export async function registerDiscoveryFeatures(http: FastifyInstance, deps: DiscoveryFeaturesDeps) {
  const { db, config, clock, limiter } = deps;
  const logger = http.log;
  const photoStore = deps.photoStore ?? choosePhotoStore(db, config);

  const deckIndexRepository = createDeckIndexRepository(db);
  const deckIndex = config.isDeckIndexEnabled
    ? createLiveDeckIndex({ source: deckIndexRepository, logger })
    : undefined;
  const profileRepository = refreshingDeckIndex(createProfileRepository(db), deckIndex);
  // A deleted account's profile leaves through the change feed too, but the feed is heard a moment
  // after the deletion answers: this node's next deck request must not count it (decision 0022).
  deps.bus?.subscribe((event) => {
    if (event.type === 'user-deleted') void deckIndex?.refresh([event.userId]);
  });
  const gyms = createGymService({ gyms: createGymRepository(db), logger });
  const photos = createPhotoService({
    profiles: profileRepository,
    store: photoStore,
    process: processPhoto,
    limiter,
    clock,
    logger,
    onPhotosAdded: deps.onPhotosAdded,
  });
  const profiles = createProfileService({
    profiles: profileRepository,
    clock,
    logger,
    limiter,
    rememberGym: gyms.remember,
    discardPhotos: photos.discard,
    isShownToOthers: deps.isShownToOthers,
    privacyOf: deps.privacyOf,
  });
  const recommendationRepository = createRecommendationRepository(db);
  const deckSnapshots = createDeckSnapshots({ store: recommendationRepository, logger });
  const recommendations = createRecommendationService({
    recommendations: recommendationRepository,
    snapshots: deckSnapshots,
    profiles: profileRepository,
    clock,
    privacyOf: deps.privacyOf,
    index: deckIndex && { live: deckIndex, repository: deckIndexRepository },
  });
  const swipes = createSwipeService({
    swipes: createSwipeRepository(db),
    profiles: profileRepository,
    events: alsoTell(createSocketMatchEvents(deps.io), deps.matchEvents),
    clock,
    privacyOf: deps.privacyOf,
    logger,
    notifier: deps.swipeNotifier,
  });
  const undos = createSwipeUndoService({
    undos: createSwipeUndoRepository(db),
    notifier: deps.swipeNotifier,
    logger,
  });

  await gyms.ensureSeeded();
  if (config.demoData && (await isDatabaseEmpty(db))) {
    const started = Date.now();
    const report = await seedDemoData(db, { photoStore });
    logger.info({ ms: Date.now() - started }, report);
    // The README's demo account opens to matches, chats, notifications and quedadas (#19 §4).
    logger.info(await seedDemoAccountLife(db));
  }

  // Listens, then loads in the background: until the load ends, the deck ranks with SQL.
  await deckIndex?.start();
  http.addHook('onClose', async () => {
    await deckIndex?.close();
    await deckSnapshots.flush();
  });

  await http.register(
    async (api) => {
      await api.register(profileRoutes, { profiles });
      await api.register(photoRoutes, { photos });
      await api.register(gymRoutes, { gyms });
      await api.register(recommendationRoutes, { recommendations });
      await api.register(swipeRoutes, { prefix: '/swipes', swipes, undos, limiter });
    },
    { prefix: '/api' },
  );
  await http.register(photoFileRoutes, { photos });
  return { photoStore, profiles, photos, gyms, recommendations, swipes, deckIndex };
}
