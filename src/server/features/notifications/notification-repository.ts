import { and, count, desc, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import { type Database, preparedStatement } from '../../db/client.ts';
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

/**
 * A data-modifying statement run with a notification's write: the write happens only when it
 * returns a row. `text` is fixed per `name` and takes its one value as `$1` (the notification's
 * statement is a named statement: docs/decisions/0037).
 */
export type NotificationGuard = { name: string; text: string; value: string };

/** No guard: the notification is always written. */
const ALWAYS: NotificationGuard = { name: 'always', text: 'select $1::text as always', value: '' };

/** The count `upsertCollapsed` renders a collapsed body with, replaced in SQL by the real one. */
const COUNT_MARKER = 987_654_321_012;

type StoredRow = {
  id: string;
  user_id: string;
  type: string;
  priority: string;
  title: string;
  body: string;
  is_read: boolean;
  created_at: Date | string;
  reference_id: string | null;
  reference_type: string | null;
  collapse_key: string | null;
  collapse_count: number | string;
  unread_before: number | string;
  has_push: boolean;
};

const recordOf = (row: StoredRow): NotificationRecord => ({
  id: row.id,
  userId: row.user_id,
  type: row.type,
  priority: row.priority,
  title: row.title,
  body: row.body,
  isRead: row.is_read,
  createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
  referenceId: row.reference_id,
  referenceType: row.reference_type,
  collapseKey: row.collapse_key,
  collapseCount: Number(row.collapse_count),
});

/**
 * `upsertCollapsed`'s text for a guard: $1 the guard's value, $2–$10 the row, $11 the collapsed
 * body's template and, when `isCounted`, $12 the count marker in it (replaced by the new count).
 */
const collapseStatement = (guardText: string, isCounted: boolean) => `
  with owed as (${guardText}),
  upserted as (
    insert into notifications as n (user_id, type, priority, title, body, reference_id, reference_type,
      collapse_key, created_at)
    select $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text, $10::timestamptz
    where exists (select 1 from owed)
    on conflict (user_id, collapse_key) where is_read = false and collapse_key is not null
    do update set collapse_count = n.collapse_count + 1, title = excluded.title,
      body = ${isCounted ? 'replace($11::text, $12::text, (n.collapse_count + 1)::text)' : '$11::text'},
      priority = excluded.priority, reference_id = excluded.reference_id,
      reference_type = excluded.reference_type, created_at = excluded.created_at
    returning n.*)
  select u.*, (select count(*)::int from notifications c where c.user_id = $2::uuid
      and c.is_read = false) as unread_before,
    exists (select 1 from push_subscriptions s where s.user_id = $2::uuid) as has_push
  from upserted u`;

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
     * is updated (count + 1, new texts, moved to now) instead of a second being created — **one
     * statement** (`INSERT … ON CONFLICT` on the partial unique index of unread keys, so concurrent
     * writers of one key serialize on it and none is lost). The collapsed body is rendered by
     * `bodyFor(count)` with a marker count and the marker replaced by the new count in SQL, so
     * `bodyFor` must write the count as digits. The statement also answers the owner's unread count
     * and whether the owner has any push subscription (so a push with nowhere to go reads nothing).
     *
     * `owed`, when given, is a data-modifying statement (e.g. deleting the durable record that the
     * notification is owed, docs/decisions/0035) run as a CTE of the same statement: the
     * notification is written only when it returns a row, and both commit or neither does, so a
     * record is turned into its notification exactly once. Undefined: `owed` returned nothing.
     */
    async upsertCollapsed(
      row: NewNotification & { collapseKey: string },
      bodyFor: (count: number) => string,
      owed?: NotificationGuard,
    ): Promise<
      { record: NotificationRecord; isNew: boolean; unreadCount: number; hasPushSubscription: boolean } | undefined
    > {
      const template = bodyFor(COUNT_MARKER);
      const isCounted = template.includes(String(COUNT_MARKER));
      const guard = owed ?? ALWAYS;
      const [stored] = await preparedStatement<StoredRow>(
        db,
        `notification_collapse_${guard.name}_${isCounted ? 'counted' : 'plain'}`,
        collapseStatement(guard.text, isCounted),
      )([
        guard.value,
        row.userId,
        row.type,
        row.priority,
        row.title,
        row.body,
        row.referenceId,
        row.referenceType,
        row.collapseKey,
        row.createdAt,
        template,
        // A parameter the text does not use would have no type: the marker only where it is replaced.
        ...(isCounted ? [String(COUNT_MARKER)] : []),
      ]);
      if (!stored) return undefined;
      const isNew = Number(stored.collapse_count) === 1;
      // The count was read from the statement's snapshot: a new row is not in it yet, a collapsed one is.
      return {
        record: recordOf(stored),
        isNew,
        unreadCount: Number(stored.unread_before) + (isNew ? 1 : 0),
        hasPushSubscription: stored.has_push,
      };
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
