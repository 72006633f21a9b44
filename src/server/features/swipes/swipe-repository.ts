import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { blocks, conversations, matches, type SwipeRow, swipes } from '../../db/schema/index.ts';

export type SwipeActionValue = 'dislike' | 'like' | 'superlike';

export type StoredMatch = {
  matchId: string;
  conversationId: string;
  swipeType: 'like' | 'superlike';
  createdAt: Date;
  userLow: string;
  userHigh: string;
};

export type SwipeOutcome = {
  /** False when the swipe (same pair, or same clientId) was already recorded: nothing new was written. */
  isNew: boolean;
  /** The match the (original) swipe created, if any. */
  match: StoredMatch | undefined;
};

export type SwipeRepository = ReturnType<typeof createSwipeRepository>;

const orderedPair = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);

export function createSwipeRepository(db: Database) {
  type Executor = Pick<Database, 'select'>;

  const matchById = async (executor: Executor, matchId: string): Promise<StoredMatch | undefined> => {
    const [row] = await executor
      .select({
        matchId: matches.id,
        conversationId: conversations.id,
        swipeType: matches.swipeType,
        createdAt: matches.createdAt,
        userLow: matches.userLow,
        userHigh: matches.userHigh,
      })
      .from(matches)
      .innerJoin(conversations, eq(conversations.matchId, matches.id))
      .where(eq(matches.id, matchId));
    return row && { ...row, swipeType: row.swipeType === 'superlike' ? 'superlike' : 'like' };
  };

  const outcomeOf = async (executor: Executor, swipe: SwipeRow): Promise<SwipeOutcome> => ({
    isNew: false,
    match: swipe.matchId ? await matchById(executor, swipe.matchId) : undefined,
  });

  return {
    /**
     * Records a swipe once per pair and creates the match and its conversation when it completes
     * a mutual like. The two swipes of a pair are serialized by a transaction-scoped advisory lock
     * on the ordered pair, so when both like each other at the same instant the second one sees
     * the first (and under READ COMMITTED it would not, otherwise: no match at all). The unique
     * keys (swiper, target), (user_low, user_high) and (match_id) with ON CONFLICT DO NOTHING make
     * any repeat a no-op on top of that.
     */
    async record(input: {
      swiperId: string;
      targetId: string;
      action: SwipeActionValue;
      clientId: string | undefined;
      now: Date;
    }): Promise<SwipeOutcome> {
      const { swiperId, targetId, action, clientId, now } = input;
      return db.transaction(async (tx) => {
        if (clientId) {
          const [replayed] = await tx
            .select()
            .from(swipes)
            .where(and(eq(swipes.swiperId, swiperId), eq(swipes.clientId, clientId)));
          if (replayed) return outcomeOf(tx, replayed);
        }
        const [low, high] = orderedPair(swiperId, targetId);
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${low}), hashtext(${high}))`);
        const [inserted] = await tx
          .insert(swipes)
          .values({ swiperId, targetId, action, clientId: clientId ?? null, createdAt: now })
          .onConflictDoNothing()
          .returning();
        if (!inserted) {
          const [existing] = await tx
            .select()
            .from(swipes)
            .where(
              or(
                and(eq(swipes.swiperId, swiperId), eq(swipes.targetId, targetId)),
                clientId ? and(eq(swipes.swiperId, swiperId), eq(swipes.clientId, clientId)) : sql`false`,
              ),
            )
            .limit(1);
          if (!existing) throw new Error('swipe conflict without an existing swipe');
          return outcomeOf(tx, existing);
        }
        if (action === 'dislike') return { isNew: true, match: undefined };
        const [reciprocal] = await tx
          .select({ action: swipes.action })
          .from(swipes)
          .where(
            and(
              eq(swipes.swiperId, targetId),
              eq(swipes.targetId, swiperId),
              sql`${swipes.action} in ('like', 'superlike')`,
            ),
          );
        if (!reciprocal) return { isNew: true, match: undefined };
        const swipeType = action === 'superlike' || reciprocal.action === 'superlike' ? 'superlike' : 'like';
        await tx
          .insert(matches)
          .values({ userLow: low, userHigh: high, swipeType, createdAt: now })
          .onConflictDoNothing({ target: [matches.userLow, matches.userHigh] });
        const [match] = await tx
          .select({ id: matches.id })
          .from(matches)
          .where(and(eq(matches.userLow, low), eq(matches.userHigh, high)));
        if (!match) throw new Error('match missing after insert');
        await tx
          .insert(conversations)
          .values({ matchId: match.id, userA: low, userB: high, swipeType, createdAt: now, updatedAt: now })
          .onConflictDoNothing({ target: conversations.matchId });
        await tx.update(swipes).set({ matchId: match.id }).where(eq(swipes.id, inserted.id));
        return { isNew: true, match: await matchById(tx, match.id) };
      });
    },

    /**
     * The user's matches, newest first: only pairs whose conversation is still `active` (an
     * unmatched or blocked one has ended, docs/decisions/0009 and 0012), and never a pair where
     * either blocks the other now — checked against `blocks` too, so a block counts even before
     * its conversation is marked.
     */
    async listMatches(userId: string): Promise<StoredMatch[]> {
      const rows = await db
        .select({
          matchId: matches.id,
          conversationId: conversations.id,
          swipeType: matches.swipeType,
          createdAt: matches.createdAt,
          userLow: matches.userLow,
          userHigh: matches.userHigh,
        })
        .from(matches)
        .innerJoin(conversations, eq(conversations.matchId, matches.id))
        .where(
          and(
            or(eq(matches.userLow, userId), eq(matches.userHigh, userId)),
            eq(conversations.status, 'active'),
            sql`not exists (select 1 from ${blocks} b
              where (b.blocker_id = ${matches.userLow} and b.blocked_id = ${matches.userHigh})
                 or (b.blocker_id = ${matches.userHigh} and b.blocked_id = ${matches.userLow}))`,
          ),
        )
        .orderBy(desc(matches.createdAt), desc(matches.id));
      return rows.map((row) => ({ ...row, swipeType: row.swipeType === 'superlike' ? 'superlike' : 'like' }));
    },
  };
}
