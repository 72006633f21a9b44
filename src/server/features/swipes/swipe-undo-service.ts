import {
  DISCOVERY_MESSAGES,
  type UndoSwipeResponse,
  UndoSwipeRequestSchema,
} from '#shared/discovery/discovery-schemas';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { parseInput } from '../../validation.ts';
import { isUuid } from '../profiles/profile-repository.ts';
import type { SwipeNotifier } from './swipe-notifier.ts';
import type { SwipeUndoRepository } from './swipe-undo-repository.ts';

export type SwipeUndoService = ReturnType<typeof createSwipeUndoService>;

/** "Deshacer" (docs/decisions/0023): the caller takes back one of their own swipes. */
export function createSwipeUndoService(deps: { undos: SwipeUndoRepository; notifier?: SwipeNotifier; logger: Logger }) {
  return {
    /**
     * Idempotent: an undo replayed by the outbox after it already took effect answers
     * `undone: false`. A swipe that made a match is refused (409): unmatching exists for that.
     */
    async undo(callerId: string, pathUserId: string, body: unknown): Promise<UndoSwipeResponse> {
      if (pathUserId !== callerId) throw forbidden(DISCOVERY_MESSAGES.notOwnData);
      const input = parseInput(UndoSwipeRequestSchema, body);
      const targetId = input.target_user_id;
      if (targetId === callerId) throw badRequest(DISCOVERY_MESSAGES.swipeSelf, 'VALIDATION');
      if (!isUuid(targetId)) throw notFound(DISCOVERY_MESSAGES.userNotFound);
      const outcome = await deps.undos.undo({
        swiperId: callerId,
        targetId,
        swipeClientId: input.swipeClientId ?? null,
      });
      if (outcome.status === 'matched') throw conflict(DISCOVERY_MESSAGES.undoMatched, 'MATCHED');
      if (outcome.status === 'undone' && outcome.removedNotificationIds.length > 0) {
        try {
          await deps.notifier?.notificationsRemoved(targetId, {
            ids: outcome.removedNotificationIds,
            unread: outcome.unreadNotificationsRemoved,
          });
        } catch (error) {
          deps.logger.warn({ err: error }, 'could not announce the notifications an undo removed');
        }
      }
      return { success: true, undone: outcome.status === 'undone' };
    },
  };
}
