import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../sync/change-log-repository.ts';

/** The reference a superlike's notification carries (the swipe's id), so an undo can take it back. */
export const SUPERLIKE_REFERENCE_TYPE = 'superlike';

export type UndoOutcome =
  /** No swipe of the caller on the target (with that client id): never made, or already undone. */
  | { status: 'absent' }
  /** The swipe made a match (or the pair has one): nothing was removed. */
  | { status: 'matched' }
  /** The swipe is gone, and with it the target's notifications `removedNotificationIds` (`unread` of them unread). */
  | { status: 'undone'; removedNotificationIds: string[]; unreadNotificationsRemoved: number };

type UndoRow = {
  found: number;
  is_matched: boolean;
  removed: number;
  notification_ids: string[] | null;
  unread: number;
};

export type SwipeUndoRepository = ReturnType<typeof createSwipeUndoRepository>;

export function createSwipeUndoRepository(db: Database) {
  return {
    /**
     * Takes back the swiper's swipe on the target in one statement (docs/decisions/0023): only a
     * swipe of the swiper's own, only when the pair has no match (the first like of a pair never
     * carries the match id, so the pair's match row is checked too), and with it the notification
     * a superlike gave the target. Running it again finds nothing: idempotent.
     */
    async undo(input: { swiperId: string; targetId: string; swipeClientId: string | null }): Promise<UndoOutcome> {
      const { swiperId, targetId, swipeClientId } = input;
      const [low, high] = swiperId < targetId ? [swiperId, targetId] : [targetId, swiperId];
      const [row] = rowsOf<UndoRow>(
        await db.execute(sql`with found as (
            select s.id, (s.match_id is not null or exists (select 1 from matches m
                where m.user_low = ${low}::uuid and m.user_high = ${high}::uuid)) as is_matched
            from swipes s
            where s.swiper_id = ${swiperId}::uuid and s.target_id = ${targetId}::uuid
              and (${swipeClientId}::text is null or s.client_id = ${swipeClientId}::text)
          ),
          removed as (
            delete from swipes s using found f where s.id = f.id and not f.is_matched returning s.id
          ),
          gone as (
            delete from notifications n using removed r
            where n.user_id = ${targetId}::uuid and n.reference_type = ${SUPERLIKE_REFERENCE_TYPE}
              and n.reference_id = r.id::text
            returning n.id, n.is_read
          )
          select (select count(*) from found)::int as found,
            coalesce((select bool_or(is_matched) from found), false) as is_matched,
            (select count(*) from removed)::int as removed,
            (select array_agg(id::text) from gone) as notification_ids,
            (select count(*) from gone where not is_read)::int as unread`),
      );
      if (!row || Number(row.found) === 0) return { status: 'absent' };
      if (row.is_matched) return { status: 'matched' };
      // Found but removed by a concurrent undo of the same swipe: nothing left for this one.
      if (Number(row.removed) === 0) return { status: 'absent' };
      return {
        status: 'undone',
        removedNotificationIds: row.notification_ids ?? [],
        unreadNotificationsRemoved: Number(row.unread),
      };
    },
  };
}
