import { and, count, desc, eq, getTableColumns, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type NotificationRow, notifications, streakReminders, users } from '../../db/schema/index.ts';

export type NotificationRecord = NotificationRow;

export type NewNotification = {
  userId: string;
  type: string;
  priority: string;
  title: string;
  body: string;
  referenceId: string | null;
  referenceType: string | null;
  collapseKey: string | null;
  createdAt: Date;
};

export type NotificationFilter = { type?: string; isRead?: boolean };

export type NotificationRepository = ReturnType<typeof createNotificationRepository>;

/** Every query is scoped by the owner: a notification of someone else is simply not found. */
export function createNotificationRepository(db: Database) {
  const owned = (userId: string, id: string) => and(eq(notifications.userId, userId), eq(notifications.id, id));
  const filtered = (userId: string, filter: NotificationFilter) =>
    and(
      eq(notifications.userId, userId),
      filter.type === undefined ? undefined : eq(notifications.type, filter.type),
      filter.isRead === undefined ? undefined : eq(notifications.isRead, filter.isRead),
    );

  return {
    async insert(row: NewNotification): Promise<NotificationRecord> {
      const [created] = await db.insert(notifications).values(row).returning();
      if (!created) throw new Error('notifications insert returned no row');
      return created;
    },

    /**
     * Stores a notification that collapses into the owner's unread one with the same key: that one
     * is updated (count + 1, new texts, moved to now) instead of a second being created. `bodyFor`
     * gets the new count. Safe under concurrency: the partial unique index lets only one unread row
     * per key exist, and a lost insert race retries as an update. A collapse also answers the
     * owner's unread count (read by the same statement: the row was unread and stays so), which
     * saves the caller a query on a chat message's path (QUALITY 26).
     */
    async upsertCollapsed(
      row: NewNotification & { collapseKey: string },
      bodyFor: (count: number) => string,
    ): Promise<{ record: NotificationRecord; isNew: boolean; unreadCount?: number }> {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const [collapsed] = await db
          .update(notifications)
          .set({
            collapseCount: sql`${notifications.collapseCount} + 1`,
            title: row.title,
            priority: row.priority,
            referenceId: row.referenceId,
            referenceType: row.referenceType,
            createdAt: row.createdAt,
          })
          .where(
            and(
              eq(notifications.userId, row.userId),
              eq(notifications.collapseKey, row.collapseKey),
              eq(notifications.isRead, false),
            ),
          )
          .returning({
            ...getTableColumns(notifications),
            unreadCount: sql<number>`(select count(*)::int from notifications n
              where n.user_id = ${row.userId} and n.is_read = false)`,
          });
        if (collapsed) {
          const { unreadCount, ...updated } = collapsed;
          const body = bodyFor(updated.collapseCount);
          const [withBody] = await db
            .update(notifications)
            .set({ body })
            .where(and(eq(notifications.id, updated.id), eq(notifications.collapseCount, updated.collapseCount)))
            .returning();
          return { record: withBody ?? { ...updated, body }, isNew: false, unreadCount: Number(unreadCount) };
        }
        const [created] = await db
          .insert(notifications)
          .values(row)
          .onConflictDoNothing({
            target: [notifications.userId, notifications.collapseKey],
            where: sql`${notifications.isRead} = false and ${notifications.collapseKey} is not null`,
          })
          .returning();
        if (created) return { record: created, isNew: true };
      }
      throw new Error('notifications: could not collapse a notification after 3 attempts');
    },

    async list(
      userId: string,
      filter: NotificationFilter,
      page: { offset: number; limit: number },
    ): Promise<{ rows: NotificationRecord[]; total: number }> {
      const where = filtered(userId, filter);
      const [rows, totals] = await Promise.all([
        db
          .select()
          .from(notifications)
          .where(where)
          .orderBy(desc(notifications.createdAt), desc(notifications.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ total: count() }).from(notifications).where(where),
      ]);
      return { rows, total: totals[0]?.total ?? 0 };
    },

    async unreadCount(userId: string): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)));
      return row?.total ?? 0;
    },

    /** Read clears the collapse key: only unread notifications collapse (and unread → read → unread never clashes). */
    async setRead(userId: string, id: string, isRead: boolean): Promise<NotificationRecord | undefined> {
      const [row] = await db
        .update(notifications)
        .set(isRead ? { isRead: true, collapseKey: null } : { isRead: false })
        .where(owned(userId, id))
        .returning();
      return row;
    },

    async markAllRead(userId: string): Promise<number> {
      const rows = await db
        .update(notifications)
        .set({ isRead: true, collapseKey: null })
        .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
        .returning({ id: notifications.id });
      return rows.length;
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const rows = await db.delete(notifications).where(owned(userId, id)).returning({ id: notifications.id });
      return rows.length > 0;
    },

    /**
     * Users whose streak ends tonight: last login yesterday (Madrid), a streak of at least one
     * day, and no reminder sent today. Up to `limit` of them.
     */
    async streakReminderCandidates(
      today: string,
      yesterday: string,
      limit: number,
    ): Promise<Array<{ userId: string; streak: number }>> {
      return db
        .select({ userId: users.id, streak: users.streak })
        .from(users)
        .leftJoin(streakReminders, eq(streakReminders.userId, users.id))
        .where(
          and(
            eq(users.lastLoginDate, yesterday),
            sql`${users.streak} >= 1`,
            or(sql`${streakReminders.sentOn} is null`, lt(streakReminders.sentOn, today)),
            isNotNull(users.lastLoginDate),
          ),
        )
        .limit(limit);
    },

    /** Claims today's reminder for a user; true for exactly one caller per user and day, whichever node. */
    async claimStreakReminder(userId: string, today: string): Promise<boolean> {
      const rows = await db
        .insert(streakReminders)
        .values({ userId, sentOn: today })
        .onConflictDoUpdate({
          target: streakReminders.userId,
          set: { sentOn: today },
          setWhere: lt(streakReminders.sentOn, today),
        })
        .returning({ userId: streakReminders.userId });
      return rows.length > 0;
    },
  };
}
