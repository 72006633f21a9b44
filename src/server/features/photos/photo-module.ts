import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../infra/clock.ts';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import type { Logger } from '../../logger.ts';
import type { ProfileRepository } from '../profiles/profile-repository.ts';
import { choosePhotoStore } from './choose-photo-store.ts';
import { processPhoto } from './photo-processor.ts';
import { photoFileRoutes, photoRoutes } from './photo-routes.ts';
import { createPhotoService, type PhotoService } from './photo-service.ts';
import type { PhotoStore } from './photo-store.ts';

export type PhotoModule = {
  photos: PhotoService;
  /** Where photo files live (the demo seed writes there too). */
  photoStore: PhotoStore;
  /** `/api/profiles/:id/photos…` and the files at `/photos/…`. */
  register(http: FastifyInstance): Promise<void>;
};

/** Profile photos (spec 001 §2): the store PHOTO_STORE chooses, processing, routes. */
export function createPhotoModule(deps: {
  db: Database;
  config: Config;
  clock: Clock;
  logger: Logger;
  limiter: RateLimiter;
  profiles: ProfileRepository;
  /** Tests only: another photo store (default: DATA_DIR/photos, or memory for in-memory databases). */
  photoStore?: PhotoStore;
  /** Told after photos were added to a profile (profile verification, docs/decisions/0034). */
  onPhotosAdded(userId: string): Promise<void>;
}): PhotoModule {
  const photoStore = deps.photoStore ?? choosePhotoStore(deps.db, deps.config);
  const photos = createPhotoService({
    profiles: deps.profiles,
    store: photoStore,
    process: processPhoto,
    limiter: deps.limiter,
    clock: deps.clock,
    logger: deps.logger,
    onPhotosAdded: deps.onPhotosAdded,
  });
  return {
    photos,
    photoStore,
    async register(http) {
      await http.register(photoRoutes, { prefix: '/api', photos });
      await http.register(photoFileRoutes, { photos });
    },
  };
}
