import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../infra/clock.ts';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import type { Logger } from '../../logger.ts';
import type { PrivacyReader } from './profile-model.ts';
import { createProfileRepository, type ProfileRepository } from './profile-repository.ts';
import { profileRoutes } from './profile-routes.ts';
import { createProfileService, type ProfileService } from './profile-service.ts';

export type ProfileModule = {
  /** The profile rows, for the features that read or change them (photos, the deck, swipes). */
  repository: ProfileRepository;
  profiles: ProfileService;
  /** `/api/profiles`. */
  register(http: FastifyInstance): Promise<void>;
};

/** Profiles (spec 001 §2): repository, service and routes. */
export function createProfileModule(deps: {
  db: Database;
  clock: Clock;
  logger: Logger;
  limiter: RateLimiter;
  /**
   * Told of every profile this node wrote, before the write answers: the deck index refreshes
   * it, so the next deck request here sees it (other nodes hear the change feed; decision 0022).
   */
  afterWrite(userIds: string[]): Promise<void>;
  rememberGym(name: string, city: string | null): Promise<void>;
  discardPhotos(keys: readonly string[]): Promise<void>;
  /** Whether a user lets others find their profile (settings privacy.showProfile). */
  isShownToOthers(userId: string): Promise<boolean>;
  /** What each user lets others see (settings privacy, docs/decisions/0025). */
  privacyOf: PrivacyReader;
}): ProfileModule {
  const repository = announcingWrites(createProfileRepository(deps.db), deps.afterWrite);
  const profiles = createProfileService({
    profiles: repository,
    clock: deps.clock,
    logger: deps.logger,
    limiter: deps.limiter,
    rememberGym: deps.rememberGym,
    discardPhotos: deps.discardPhotos,
    isShownToOthers: deps.isShownToOthers,
    privacyOf: deps.privacyOf,
  });
  return {
    repository,
    profiles,
    async register(http) {
      await http.register(profileRoutes, { prefix: '/api', profiles });
    },
  };
}

/** The repository whose writes call `afterWrite` with the profile's user before they return. */
function announcingWrites(
  repository: ProfileRepository,
  afterWrite: (userIds: string[]) => Promise<void>,
): ProfileRepository {
  return {
    ...repository,
    async create(userId, content, now) {
      const result = await repository.create(userId, content, now);
      await afterWrite([userId]);
      return result;
    },
    async modify(userId, mutate, now) {
      const result = await repository.modify(userId, mutate, now);
      await afterWrite([userId]);
      return result;
    },
    async setVisible(userId, isVisible, now) {
      await repository.setVisible(userId, isVisible, now);
      await afterWrite([userId]);
    },
  };
}
