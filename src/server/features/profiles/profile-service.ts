import { DISCOVERY_MESSAGES } from '#shared/discovery/discovery-schemas';
import { PROFILE_MESSAGES } from '#shared/profile/profile-messages';
import {
  LocationUpdateRequestSchema,
  profileCreateRequestSchema,
  profileUpdateRequestSchema,
} from '#shared/profile/profile-schema';
import type { OwnProfile, PublicProfile } from '#shared/profile/profile-views';
import type { Clock } from '../../infra/clock.ts';
import { AppError, badRequest, conflict, forbidden, notFound, tooManyRequests } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import { parseInput } from '../../validation.ts';
import {
  openPrivacyReader,
  type PrivacyReader,
  type ProfileContent,
  ownProfileView,
  publicProfileView,
  type StoredProfile,
  snappedLocation,
} from './profile-model.ts';
import type { ProfileRepository } from './profile-repository.ts';
import { isNewCell, isPlausibleMove, LOCATION_MOVE_RULE } from './location-moves.ts';

/** What the profile service tells others about: typed gyms join the search, dropped photos are deleted. */
export type ProfileServiceDeps = {
  profiles: ProfileRepository;
  clock: Clock;
  logger: Logger;
  /** Counts moves to another cell (location-moves.ts). */
  limiter: RateLimiter;
  /** A gym someone typed in their profile, for the gym search (best effort). */
  rememberGym(name: string, city: string | null): Promise<void>;
  /** Photo keys no profile uses any more: their files can go. */
  discardPhotos(keys: readonly string[]): Promise<void>;
  /** Whether the user lets others find their profile (settings privacy.showProfile); true when unknown. */
  isShownToOthers?(userId: string): Promise<boolean>;
  /** What each user lets others see (settings privacy); everyone open when absent. */
  privacyOf?: PrivacyReader;
};

export type ProfileService = ReturnType<typeof createProfileService>;

export const profileNotFound = () => notFound(DISCOVERY_MESSAGES.profileNotFound);

type SocialHandles = NonNullable<ProfileContent['social']>;

/**
 * The social block after a write: `change` merges into `current` handle by handle (absent keeps,
 * null clears, docs/decisions/0014), `null` clears them all; only set handles are stored, and a
 * block without any is null (the profile modal then leaves the block out).
 */
function socialBlock(current: SocialHandles | null, change: SocialHandles | null | undefined) {
  const merged: SocialHandles = change === null ? {} : { ...current, ...change };
  const kept = Object.fromEntries(Object.entries(merged).filter(([, handle]) => handle)) as SocialHandles;
  return Object.keys(kept).length > 0 ? kept : null;
}

/**
 * Profiles (spec 001 §3, §5, §7): create, read, update and locate one's own; read another's
 * allowlisted view. Every write checks that the caller is the owner (QUALITY 8).
 */
export function createProfileService(deps: ProfileServiceDeps) {
  const { profiles, clock } = deps;
  const privacyOf = deps.privacyOf ?? openPrivacyReader;
  const now = () => clock.now();
  const createSchema = profileCreateRequestSchema(now);
  const updateSchema = profileUpdateRequestSchema(now);

  const rememberGym = (content: ProfileContent) => {
    deps.rememberGym(content.gym.name, content.city).catch((error) => {
      deps.logger.warn({ err: error }, 'could not add a typed gym to the search');
    });
  };

  /**
   * Refuses a move to another cell that is too far for the time since the last one (422) or over
   * the daily budget (429); a move within the same cell passes uncounted (location-moves.ts).
   */
  const guardMove = async (callerId: string, location: { latitude: number; longitude: number }) => {
    const current = await profiles.findByUserId(callerId);
    if (!current) return;
    const next = snappedLocation(location);
    if (!isNewCell(current, next)) return;
    if (!isPlausibleMove(current, next, now())) {
      throw new AppError(422, PROFILE_MESSAGES.locationTooFar, 'LOCATION_TOO_FAR');
    }
    const state = await deps.limiter.consume({ rule: LOCATION_MOVE_RULE, key: callerId });
    if (state.isLimited) {
      throw tooManyRequests(PROFILE_MESSAGES.locationTooOften, state.retryAfterMs / 1000, 'LOCATION_RATE_LIMIT');
    }
  };

  const discard = (keys: readonly string[]) => {
    if (keys.length === 0) return;
    deps.discardPhotos(keys).catch((error) => deps.logger.warn({ err: error }, 'could not delete dropped photos'));
  };

  return {
    async create(callerId: string, body: unknown): Promise<OwnProfile> {
      const input = parseInput(createSchema, body);
      if (input.userId !== callerId) throw forbidden(DISCOVERY_MESSAGES.notOwnProfile);
      // Keys come from uploads to an existing profile: a new profile has none to name yet.
      if (input.photos.length > 0) throw badRequest(PROFILE_MESSAGES.photoInvalid, 'VALIDATION');
      const content: ProfileContent = {
        name: input.name,
        lastName: input.lastName ?? null,
        birthDate: input.birthDate,
        gender: input.gender ?? null,
        bio: input.bio,
        photos: [],
        ...snappedLocation(input.location),
        gym: input.gym,
        training: {
          ...input.training,
          experienceLevel: input.training.experienceLevel ?? null,
          commitment_level: input.training.commitment_level ?? null,
          socialPreference: input.training.socialPreference ?? null,
        },
        health: input.health ?? null,
        preferences: {
          ...input.preferences,
          age_range: { min: input.preferences.age_range.min, max: input.preferences.age_range.max },
        },
        social: socialBlock(null, input.social),
      };
      const created = await profiles.create(callerId, content, now());
      if (created.status !== 'created') {
        throw created.status === 'exists'
          ? conflict(DISCOVERY_MESSAGES.profileExists, 'PROFILE_EXISTS')
          : notFound(DISCOVERY_MESSAGES.userNotFound);
      }
      rememberGym(content);
      // A user who hid their profile in settings before creating it stays hidden.
      if (deps.isShownToOthers && !(await deps.isShownToOthers(callerId))) {
        await profiles.setVisible(callerId, false, now());
      }
      return ownProfileView(created.profile, now(), await profiles.stats(callerId));
    },

    /** Shows or hides the user's profile in everyone's deck (settings privacy.showProfile). */
    async setShownToOthers(userId: string, isShown: boolean): Promise<void> {
      await profiles.setVisible(userId, isShown, now());
    },

    /** The caller's own profile (OwnProfile) or another user's public view. */
    async get(callerId: string, id: string): Promise<OwnProfile | PublicProfile> {
      const profile = await profiles.findByIdOrUserId(id);
      if (!profile) throw profileNotFound();
      if (profile.userId === callerId) return ownProfileView(profile, now(), await profiles.stats(callerId));
      if (await profiles.isBlockedEitherWay(callerId, profile.userId)) throw profileNotFound();
      const [viewer, isMatched, privacy] = await Promise.all([
        profiles.findByUserId(callerId),
        profiles.haveMatch(callerId, profile.userId),
        privacyOf([profile.userId]).then((found) => found.get(profile.userId)),
      ]);
      // A hidden profile does not exist for anyone it has not matched (docs/decisions/0025).
      if (privacy && !privacy.showProfile && !isMatched) throw profileNotFound();
      return publicProfileView(profile, viewer, now(), await profiles.stats(profile.userId), { isMatched, privacy });
    },

    /** The other user of a conversation, for the chat: only between matched users. */
    async getChatPartner(callerId: string, id: string): Promise<PublicProfile> {
      const profile = await profiles.findByIdOrUserId(id);
      if (!profile) throw profileNotFound();
      if (profile.userId === callerId) throw forbidden(DISCOVERY_MESSAGES.profileForbidden);
      const [isMatched, isBlocked] = await Promise.all([
        profiles.haveMatch(callerId, profile.userId),
        profiles.isBlockedEitherWay(callerId, profile.userId),
      ]);
      if (!isMatched || isBlocked) throw forbidden(DISCOVERY_MESSAGES.profileForbidden);
      const [viewer, privacy] = await Promise.all([
        profiles.findByUserId(callerId),
        privacyOf([profile.userId]).then((found) => found.get(profile.userId)),
      ]);
      return publicProfileView(profile, viewer, now(), await profiles.stats(profile.userId), { isMatched, privacy });
    },

    async update(callerId: string, pathUserId: string, body: unknown): Promise<OwnProfile> {
      if (pathUserId !== callerId) throw forbidden(DISCOVERY_MESSAGES.notOwnProfile);
      const input = parseInput(updateSchema, body);
      if (input.userId !== pathUserId) throw forbidden(DISCOVERY_MESSAGES.notOwnProfile);
      if (input.location) await guardMove(callerId, input.location);
      const changed = await profiles.modify(
        callerId,
        (current) => {
          let photos = current.photos;
          let dropped: string[] = [];
          if (input.photos) {
            // Only keys this profile already holds, in any order; the ones left out are deleted.
            const held = new Set(current.photos);
            if (!input.photos.every((key) => held.has(key))) {
              throw badRequest(PROFILE_MESSAGES.photoInvalid, 'VALIDATION');
            }
            photos = input.photos;
            dropped = current.photos.filter((key) => !input.photos?.includes(key));
          }
          const health = input.health
            ? {
                injuries: [],
                height: null,
                weight: null,
                dietaryPreferences: [],
                ...current.health,
                ...input.health,
              }
            : current.health;
          const content: ProfileContent = {
            name: input.name ?? current.name,
            lastName: input.lastName !== undefined ? input.lastName : current.lastName,
            birthDate: input.birthDate ?? current.birthDate,
            gender: input.gender !== undefined ? input.gender : current.gender,
            bio: input.bio ?? current.bio,
            photos,
            ...(input.location
              ? snappedLocation(input.location)
              : { latitude: current.latitude, longitude: current.longitude, city: current.city }),
            gym: { ...current.gym, ...input.gym },
            training: { ...current.training, ...input.training },
            health,
            preferences: { ...current.preferences, ...input.preferences },
            social: socialBlock(current.social, input.social),
          };
          return { content, result: dropped };
        },
        now(),
      );
      if (!changed) throw profileNotFound();
      discard(changed.result);
      if (input.gym?.name) rememberGym(changed.profile);
      return ownProfileView(changed.profile, now(), await profiles.stats(callerId));
    },

    async updateLocation(callerId: string, pathUserId: string, body: unknown): Promise<OwnProfile> {
      if (pathUserId !== callerId) throw forbidden(DISCOVERY_MESSAGES.notOwnProfile);
      const { location } = parseInput(LocationUpdateRequestSchema, body);
      await guardMove(callerId, location);
      const changed = await profiles.modify(
        callerId,
        (current) => ({ content: { ...current, ...snappedLocation(location) }, result: null }),
        now(),
      );
      if (!changed) throw profileNotFound();
      return ownProfileView(changed.profile, now(), await profiles.stats(callerId));
    },

    /** The caller's own profile, or a 404 'Perfil no encontrado' (the client then shows the wizard). */
    async requireOwn(callerId: string): Promise<StoredProfile> {
      const profile = await profiles.findByUserId(callerId);
      if (!profile) throw profileNotFound();
      return profile;
    },
  };
}
