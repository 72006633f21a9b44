import {
  DISCOVERY_MESSAGES,
  type MatchEvent,
  type MatchesResponse,
  type MatchListItem,
  type SwipeResponse,
  SwipeRequestSchema,
} from '#shared/discovery/discovery-schemas';
import { compatibility } from '#shared/discovery/compatibility';
import { RECENT_MATCH_DAYS } from '#shared/profile/options';
import type { Clock } from '../../infra/clock.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../../errors.ts';
import { SERVER_MESSAGES } from '#shared/messages';
import type { Logger } from '../../logger.ts';
import { parseInput } from '../../validation.ts';
import { ageOf, openPrivacyReader, type PrivacyReader } from '../profiles/profile-model.ts';
import { isUuid, type ProfileRepository } from '../profiles/profile-repository.ts';
import type { MatchEvents } from './match-events.ts';
import type { SwipeNotifier } from './swipe-notifier.ts';
import type { ListedMatch, MatchFace, StoredMatch, SwipeRepository } from './swipe-repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export type SwipeServiceDeps = {
  swipes: SwipeRepository;
  profiles: ProfileRepository;
  events: MatchEvents;
  clock: Clock;
  logger: Logger;
  /** What each matched person lets others see (settings privacy); everyone open when absent. */
  privacyOf?: PrivacyReader;
  /** Notifies a superlike's target (docs/decisions/0023); none when absent. */
  notifier?: SwipeNotifier;
};

export type SwipeService = ReturnType<typeof createSwipeService>;

/** Swipes and matches (spec 001 §3, §4, §7): one swipe per pair, one match and conversation per mutual like. */
export function createSwipeService(deps: SwipeServiceDeps) {
  const { swipes, profiles, events, clock } = deps;

  const otherOf = (match: ListedMatch, userId: string) => (match.userLow === userId ? match.userHigh : match.userLow);

  const matchData = (match: StoredMatch, other: MatchFace | undefined, otherId: string) => ({
    matchId: match.matchId,
    conversationId: match.conversationId,
    otherUser: { userId: otherId, name: other?.name ?? '', photos: other?.photos ?? [] },
    swipeType: match.swipeType,
  });

  return {
    /**
     * One statement on the embedded database (docs/performance.md, "Swipes"): the target's
     * existence and the blocks are checked by the statement that records the swipe, and the two
     * users' names and photos are read only when a match is made.
     */
    async swipe(
      caller: { userId: string; sessionId: string },
      pathUserId: string,
      body: unknown,
    ): Promise<SwipeResponse> {
      const callerId = caller.userId;
      if (pathUserId !== callerId) throw forbidden(DISCOVERY_MESSAGES.notOwnData);
      const input = parseInput(SwipeRequestSchema, body);
      const targetId = input.target_user_id;
      if (targetId === callerId) throw badRequest(DISCOVERY_MESSAGES.swipeSelf, 'VALIDATION');
      if (!isUuid(targetId)) throw notFound(DISCOVERY_MESSAGES.userNotFound);
      const outcome = await swipes.record({
        swiperId: callerId,
        sessionId: caller.sessionId,
        targetId,
        action: input.action,
        clientId: input.clientId,
        now: clock.now(),
      });
      if (outcome.status === 'revoked') throw unauthorized(SERVER_MESSAGES.invalidToken);
      // A blocked pair looks like a missing user: a block is never revealed.
      if (outcome.status === 'refused') throw notFound(DISCOVERY_MESSAGES.userNotFound);
      const { match } = outcome;
      if (!match && outcome.isNew && outcome.swipeId && input.action === 'superlike') {
        // Awaited: an undo right after the answer must find the notification to take back.
        try {
          await deps.notifier?.superliked(targetId, outcome.swipeId);
        } catch (error) {
          deps.logger.warn({ err: error }, 'could not notify a superlike');
        }
      }
      if (!match) return { success: true, match: false };
      if (outcome.isNew && outcome.isNewMatch !== false) {
        const timestamp = match.createdAt.toISOString();
        const forCaller: MatchEvent = { ...matchData(match, outcome.target, outcome.targetId), timestamp };
        const forTarget: MatchEvent = { ...matchData(match, outcome.swiper, callerId), timestamp };
        try {
          events.matched(callerId, forCaller);
          events.matched(outcome.targetId, forTarget);
        } catch (error) {
          deps.logger.warn({ err: error }, 'could not announce a match');
        }
      }
      return { success: true, match: true, matchData: matchData(match, outcome.target, outcome.targetId) };
    },

    async listMatches(callerId: string, pathUserId: string): Promise<MatchesResponse> {
      if (pathUserId !== callerId) throw forbidden(DISCOVERY_MESSAGES.notOwnData);
      const found = await swipes.listMatches(callerId);
      const otherIds = found.map((match) => otherOf(match, callerId));
      const [me, others, privacy] = await Promise.all([
        profiles.findByUserId(callerId),
        profiles.findManyByUserIds([...new Set(otherIds)]),
        (deps.privacyOf ?? openPrivacyReader)(otherIds),
      ]);
      const byUser = new Map(others.map((profile) => [profile.userId, profile]));
      const now = clock.now();
      const items: MatchListItem[] = [];
      for (const match of found) {
        const other = byUser.get(otherOf(match, callerId));
        if (!other) continue;
        // A match still sees a hidden profile; age and city only when shared (docs/decisions/0025).
        const shares = privacy.get(other.userId);
        items.push({
          matchId: match.matchId,
          conversationId: match.conversationId,
          timestamp: match.createdAt.toISOString(),
          otherUser: {
            userId: other.userId,
            name: other.name,
            age: shares?.showAgeRange === false ? null : ageOf(other, now),
            photos: other.photos,
            location: { city: shares?.shareLocation === false ? null : other.city },
            compatibilityScore: me ? compatibility(me, other).score : 0,
            training: { goals: other.training.goals },
          },
          lastMessage: match.lastMessage && {
            text: match.lastMessage.text,
            timestamp: match.lastMessage.at.toISOString(),
            senderId: match.lastMessage.senderId,
            read: match.lastMessage.isRead,
          },
          isRecent: now.getTime() - match.createdAt.getTime() < RECENT_MATCH_DAYS * DAY_MS,
        });
      }
      return {
        success: true,
        message: items.length > 0 ? DISCOVERY_MESSAGES.matchesFound : DISCOVERY_MESSAGES.noMatches,
        matches: items,
      };
    },
  };
}
