import { DISCOVERY_MESSAGES, PhotoOrderRequestSchema } from '#shared/discovery/discovery-schemas';
import { MAX_PHOTOS } from '#shared/profile/options';
import type { Clock } from '../../infra/clock.ts';
import { AppError, badRequest, forbidden, notFound } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { enforceRateLimits, type RateLimiter, type RateLimitRule } from '../../infra/rate-limit.ts';
import { parseInput } from '../../validation.ts';
import type { StoredProfile } from '../profiles/profile-model.ts';
import type { ProfileRepository } from '../profiles/profile-repository.ts';
import { type ProcessedPhoto, PhotoRejectedError } from './photo-processor.ts';
import { isStoredPhotoKey, newPhotoKey, type PhotoStore, thumbnailKey } from './photo-store.ts';

/** Uploads per user: a whole profile (6 photos) several times over, not a flood of re-encodes. */
export const PHOTO_UPLOAD_LIMIT: RateLimitRule = { name: 'photo-upload-user', limit: 20, windowMs: 60 * 60_000 };

export type PhotoServiceDeps = {
  profiles: ProfileRepository;
  store: PhotoStore;
  /** Checks and re-encodes one upload (photo-processor.ts). */
  process(data: Buffer): Promise<ProcessedPhoto>;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** Told after photos were added (a verified profile's badge waits for a re-check: 0034). */
  onPhotosAdded?(userId: string): Promise<void>;
};

export type PhotoService = ReturnType<typeof createPhotoService>;

export const photoTooLarge = () => new AppError(413, DISCOVERY_MESSAGES.photoTooLarge, 'FILE_SIZE');
/** Small enough in bytes, too big in pixels (a pixel bomb or a huge scan): say that, not "5 MB". */
export const photoTooManyPixels = () => new AppError(422, DISCOVERY_MESSAGES.photoTooManyPixels, 'IMAGE_DIMENSIONS');
export const photoFormat = () => new AppError(415, DISCOVERY_MESSAGES.photoFormat, 'FILE_FORMAT');
const photosMax = () => badRequest(DISCOVERY_MESSAGES.photosMax, 'PHOTO_LIMIT');

/**
 * Profile photos (spec 001 §8, QUALITY 10): only the owner uploads, deletes or reorders; at most
 * MAX_PHOTOS per profile even under parallel uploads (the profile row is locked while the keys
 * are added); files are re-encoded before they are stored under server-chosen keys.
 */
export function createPhotoService(deps: PhotoServiceDeps) {
  const { profiles, store, clock } = deps;

  const ownProfile = async (callerId: string, id: string): Promise<StoredProfile> => {
    const profile = await profiles.findByIdOrUserId(id);
    if (profile && profile.userId !== callerId) throw forbidden(DISCOVERY_MESSAGES.photoPermission);
    if (!profile) {
      if (id !== callerId) throw forbidden(DISCOVERY_MESSAGES.photoPermission);
      throw notFound(DISCOVERY_MESSAGES.profileNotFound);
    }
    return profile;
  };

  const discard = async (keys: readonly string[]) => {
    const all = keys.filter(isStoredPhotoKey).flatMap((key) => [key, thumbnailKey(key)]);
    await store.delete(all);
  };

  return {
    /**
     * Everything that can refuse an upload before its bytes are read: the owner (403), the
     * profile (404), the rate limit (429) and a profile that is already full.
     */
    async beginUpload(callerId: string, id: string): Promise<{ userId: string }> {
      const profile = await ownProfile(callerId, id);
      await enforceRateLimits(
        deps.limiter,
        [{ rule: PHOTO_UPLOAD_LIMIT, key: callerId }],
        DISCOVERY_MESSAGES.photoRateLimit,
        'RATE_LIMIT',
      );
      if (profile.photos.length >= MAX_PHOTOS) throw photosMax();
      return { userId: profile.userId };
    },

    /** Re-encodes and stores the files, then adds their keys under the profile's row lock. */
    async addPhotos(
      userId: string,
      files: readonly Buffer[],
    ): Promise<{ photoKeys: string[]; uploadedKeys: string[] }> {
      if (files.length === 0) throw badRequest(DISCOVERY_MESSAGES.photoMissing, 'VALIDATION');
      if (files.length > MAX_PHOTOS) throw photosMax();
      let processed: ProcessedPhoto[];
      try {
        processed = await Promise.all(files.map((file) => deps.process(file)));
      } catch (error) {
        if (error instanceof PhotoRejectedError)
          throw error.reason === 'too-many-pixels' ? photoTooManyPixels() : photoFormat();
        throw error;
      }
      const keys = processed.map(() => newPhotoKey(userId));
      try {
        await Promise.all(
          processed.flatMap((photo, index) => {
            const key = keys[index] as string;
            return [store.put(key, photo.photo), store.put(thumbnailKey(key), photo.thumbnail)];
          }),
        );
        const changed = await profiles.modify(
          userId,
          (current) => {
            if (current.photos.length + keys.length > MAX_PHOTOS) throw photosMax();
            return { content: { ...current, photos: [...current.photos, ...keys] }, result: null };
          },
          clock.now(),
        );
        if (!changed) throw notFound(DISCOVERY_MESSAGES.profileNotFound);
        await deps.onPhotosAdded?.(userId);
        return { photoKeys: changed.profile.photos, uploadedKeys: keys };
      } catch (error) {
        await discard(keys).catch((cleanupError) =>
          deps.logger.warn({ err: cleanupError }, 'could not delete the files of a refused upload'),
        );
        throw error;
      }
    },

    async deletePhoto(callerId: string, id: string, key: string): Promise<string[]> {
      const profile = await ownProfile(callerId, id);
      const changed = await profiles.modify(
        profile.userId,
        (current) => {
          if (!current.photos.includes(key)) throw notFound(DISCOVERY_MESSAGES.photoNotFound);
          return { content: { ...current, photos: current.photos.filter((item) => item !== key) }, result: null };
        },
        clock.now(),
      );
      if (!changed) throw notFound(DISCOVERY_MESSAGES.profileNotFound);
      await discard([key]);
      return changed.profile.photos;
    },

    /** A new order: exactly the keys the profile holds, each once. */
    async reorder(callerId: string, id: string, body: unknown): Promise<string[]> {
      const profile = await ownProfile(callerId, id);
      const { photoKeys } = parseInput(PhotoOrderRequestSchema, body);
      const changed = await profiles.modify(
        profile.userId,
        (current) => {
          const isSameSet =
            new Set(photoKeys).size === photoKeys.length &&
            photoKeys.length === current.photos.length &&
            photoKeys.every((key) => current.photos.includes(key));
          if (!isSameSet) throw badRequest(DISCOVERY_MESSAGES.photoOrder, 'VALIDATION');
          return { content: { ...current, photos: photoKeys }, result: null };
        },
        clock.now(),
      );
      if (!changed) throw notFound(DISCOVERY_MESSAGES.profileNotFound);
      return changed.profile.photos;
    },

    /** Deletes files no profile refers to any more (called by the profile service). */
    discard,

    /** The bytes of a stored photo or thumbnail, or undefined. */
    async read(key: string): Promise<Buffer | undefined> {
      if (!isStoredPhotoKey(key)) return undefined;
      return store.get(key);
    },
  };
}
