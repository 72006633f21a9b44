import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type PushSubscriptionRow, pushSubscriptions } from '../../db/schema/index.ts';

export type PushSubscriptionRecord = PushSubscriptionRow;

export type PushRepository = ReturnType<typeof createPushRepository>;

export function createPushRepository(db: Database) {
  return {
    /**
     * One row per endpoint (a browser): saving it again updates its keys, and moves it to the user
     * who saved it last (another account signed in on the same browser).
     */
    async upsert(subscription: {
      userId: string;
      endpoint: string;
      p256dh: string;
      auth: string;
      expirationTime: Date | null;
      now: Date;
    }): Promise<void> {
      const { now, ...values } = subscription;
      await db
        .insert(pushSubscriptions)
        .values({ ...values, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: {
            userId: values.userId,
            p256dh: values.p256dh,
            auth: values.auth,
            expirationTime: values.expirationTime,
            updatedAt: now,
          },
        });
    },

    /** Keeps the user's `max` most recently saved subscriptions; deletes older ones. */
    async trimForUser(userId: string, max: number): Promise<void> {
      const rows = await db
        .select({ id: pushSubscriptions.id })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
        .orderBy(sql`${pushSubscriptions.updatedAt} desc`, asc(pushSubscriptions.id));
      const extra = rows.slice(max).map((row) => row.id);
      if (extra.length > 0) await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, extra));
    },

    listForUser(userId: string): Promise<PushSubscriptionRecord[]> {
      return db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
    },

    /** Deletes the caller's own subscription for an endpoint; true when there was one. */
    async deleteOwned(userId: string, endpoint: string): Promise<boolean> {
      const rows = await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
        .returning({ id: pushSubscriptions.id });
      return rows.length > 0;
    },

    /** Deletes a subscription the push service reported gone, unless it was saved again meanwhile. */
    async deleteGone(id: string, savedAt: Date): Promise<void> {
      await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.updatedAt, savedAt)));
    },
  };
}
