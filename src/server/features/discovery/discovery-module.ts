import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../infra/clock.ts';
import type { InvalidationBus } from '../../infra/invalidation-bus.ts';
import type { Logger } from '../../logger.ts';
import type { PrivacyReader } from '../profiles/profile-model.ts';
import type { ProfileRepository } from '../profiles/profile-repository.ts';
import { createDeckIndexRepository } from './ranking/deck-index-repository.ts';
import { createDeckSnapshots } from './deck-snapshots.ts';
import { createLiveDeckIndex, type LiveDeckIndex } from './ranking/live-deck-index.ts';
import { createRecommendationRepository } from './recommendation-repository.ts';
import { recommendationRoutes } from './recommendation-routes.ts';
import { createRecommendationService, type RecommendationService } from './recommendation-service.ts';

export type DiscoveryModule = {
  recommendations: RecommendationService;
  /** This node's deck candidate index (docs/decisions/0022); undefined when DECK_INDEX=0. */
  deckIndex: LiveDeckIndex | undefined;
  /** Re-reads these profiles into this node's index now (a no-op without the index). */
  refresh(userIds: string[]): Promise<void>;
  /** `/api/users/:id/recommendations`; starts loading the index (until it ends, the deck ranks with SQL). */
  register(http: FastifyInstance): Promise<void>;
};

/** The deck (spec 001 §3): the candidate index, its SQL fallback, the deck snapshots, the route. */
export function createDiscoveryModule(deps: {
  db: Database;
  config: Config;
  clock: Clock;
  logger: Logger;
  profiles: ProfileRepository;
  /** What each user lets others see (settings privacy, docs/decisions/0025). */
  privacyOf: PrivacyReader;
  /** Every node's `user-deleted`: the deck index drops the profile before the deletion answers here. */
  bus: InvalidationBus;
}): DiscoveryModule {
  const { db, logger } = deps;
  const deckIndexRepository = createDeckIndexRepository(db);
  const deckIndex = deps.config.isDeckIndexEnabled
    ? createLiveDeckIndex({ source: deckIndexRepository, logger })
    : undefined;
  // A deleted account's profile leaves through the change feed too, but the feed is heard a moment
  // after the deletion answers: this node's next deck request must not count it (decision 0022).
  deps.bus.subscribe((event) => {
    if (event.type === 'user-deleted') void deckIndex?.refresh([event.userId]);
  });
  const recommendationRepository = createRecommendationRepository(db);
  const deckSnapshots = createDeckSnapshots({ store: recommendationRepository, logger });
  const recommendations = createRecommendationService({
    recommendations: recommendationRepository,
    snapshots: deckSnapshots,
    profiles: deps.profiles,
    clock: deps.clock,
    privacyOf: deps.privacyOf,
    index: deckIndex && { live: deckIndex, repository: deckIndexRepository },
  });
  return {
    recommendations,
    deckIndex,
    async refresh(userIds) {
      await deckIndex?.refresh(userIds);
    },
    async register(http) {
      // Listens, then loads in the background: until the load ends, the deck ranks with SQL.
      await deckIndex?.start();
      http.addHook('onClose', async () => {
        await deckIndex?.close();
        await deckSnapshots.flush();
      });
      await http.register(recommendationRoutes, { prefix: '/api', recommendations });
    },
  };
}
