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
 * A data-modifying statement run with a batch of notifications' write: it takes the keys of what
 * is owed as `$1` (a uuid array) and returns those still owed to each recipient, as `user_id` and
 * `keys` (a uuid array per row; the chat's guard moves members' `notified_seq` cursors:
 * docs/decisions/0041); a notification is written only for the keys it returned to its owner. `text` is fixed per `name` (a named statement: docs/decisions/0037).
 */
export type NotificationGuard = { name: string; text: string };

/** One collapsing notification of a batch, owed once per key in `keys` (N keys count N). */
export type OwedNotification = NewNotification & {
  collapseKey: string;
  /** The body once N ≥ 2 are collapsed, with the count as digits (see `upsertCollapsed`). */
  bodyFor: (count: number) => string;
  keys: readonly string[];
};

export type StoredNotification = {
  record: NotificationRecord;
  isNew: boolean;
  /** The owner's unread notifications once this statement's are in. */
  unreadCount: number;
  hasPushSubscription: boolean;
};

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
 * `upsertCollapsed`'s text: $1–$9 the row, $10 the collapsed body's template and, when
 * `isCounted`, $11 the count marker in it (replaced by the new count).
 */
const collapseStatement = (isCounted: boolean) => `
  with upserted as (
    insert into notifications as n (user_id, type, priority, title, body, reference_id, reference_type,
      collapse_key, created_at)
    values ($1::uuid, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::timestamptz)
    on conflict (user_id, collapse_key) where is_read = false and collapse_key is not null
    do update set collapse_count = n.collapse_count + 1, title = excluded.title,
      body = ${isCounted ? 'replace($10::text, $11::text, (n.collapse_count + 1)::text)' : '$10::text'},
      priority = excluded.priority, reference_id = excluded.reference_id,
      reference_type = excluded.reference_type, created_at = excluded.created_at
    returning n.*)
  select u.*, (select count(*)::int from notifications c where c.user_id = $1::uuid
      and c.is_read = false) as unread_before,
    exists (select 1 from push_subscriptions s where s.user_id = $1::uuid) as has_push
  from upserted u`;

/**
 * `insert`'s text: the row ($1–$9), with the owner's unread count before it and whether the
 * owner has a push subscription, as `collapseStatement` answers them.
 */
const INSERT_COUNTED = `
  with inserted as (
    insert into notifications (user_id, type, priority, title, body, reference_id, reference_type,
      collapse_key, created_at)
    values ($1::uuid, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::timestamptz)
    returning *)
  select i.*, (select count(*)::int from notifications c where c.user_id = $1::uuid
      and c.is_read = false) as unread_before,
    exists (select 1 from push_subscriptions s where s.user_id = $1::uuid) as has_push
  from inserted i`;

/**
 * `upsertOwed`'s text: one statement for a batch of collapsing notifications, each written only
 * for the keys the guard still owes to its owner (the guard answers `user_id` and `keys`: a group
 * message is one key owed to several members), counting up by that many. $2 the group of each key,
 * $3–$11 one array per column (a group's row), $12 the time, $13 the count marker of the
 * templates. Rows are locked in key order, so two batches sharing rows lock them alike.
 *
 * The owner's unread notification of a key is updated from the batch's row by its id (`locked`
 * carries what the update needs, `collapsed`), not through `insert … on conflict do update`: that
 * form can only reach the batch's template from `excluded` by a subquery over the whole batch, once
 * per row — at a drain batch of 900 rows 70 of its 120 ms (auto_explain, session 19). What has no
 * unread row yet is inserted; the conflict clause is left for a row another writer inserted since
 * this statement's snapshot. No step joins two of the statement's own results (the planner takes
 * each for one row and would scan one once per row of the other); `not in` is a hashed lookup.
 */
const owedStatement = (guardText: string) => `
  with owed_rows as (${guardText}),
  counted as (
    select x.g, count(*)::int as n from (select r.user_id, unnest(r.keys) as key from owed_rows r) o
    join unnest($1::uuid[], $2::int[]) as x(key, g) on x.key = o.key and ($3::uuid[])[x.g] = o.user_id
    group by x.g),
  input as (
    select c.n, i.* from unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
      $9::text[], $10::text[], $11::text[])
      with ordinality as i(user_id, type, priority, title, body, template, reference_id, reference_type, collapse_key, g)
    join counted c on c.g = i.g),
  locked as (
    select n.id, i.g, i.n, i.title, i.template, i.priority, i.reference_id, i.reference_type
    from input i join notifications n on n.user_id = i.user_id and n.collapse_key = i.collapse_key
    where n.is_read = false and n.collapse_key is not null
    order by n.user_id, n.collapse_key for update of n),
  collapsed as (
    update notifications n set collapse_count = n.collapse_count + l.n, title = l.title,
      body = replace(l.template, $13::text, (n.collapse_count + l.n)::text), priority = l.priority,
      reference_id = l.reference_id, reference_type = l.reference_type, created_at = $12::timestamptz
    from locked l where n.id = l.id
    returning n.*, false as is_inserted),
  inserted as (
    insert into notifications as n (user_id, type, priority, title, body, reference_id, reference_type,
      collapse_key, collapse_count, created_at)
    select i.user_id, i.type, i.priority, i.title,
      case when i.n >= 2 then replace(i.template, $13::text, i.n::text) else i.body end,
      i.reference_id, i.reference_type, i.collapse_key, i.n, $12::timestamptz
    from input i where i.g not in (select l.g from locked l)
    order by i.user_id, i.collapse_key
    on conflict (user_id, collapse_key) where is_read = false and collapse_key is not null
    do update set collapse_count = n.collapse_count + excluded.collapse_count, title = excluded.title,
      body = (select replace(i.template, $13::text, (n.collapse_count + excluded.collapse_count)::text)
        from input i where i.user_id = excluded.user_id and i.collapse_key = excluded.collapse_key),
      priority = excluded.priority, reference_id = excluded.reference_id,
      reference_type = excluded.reference_type, created_at = excluded.created_at
    returning n.*, n.xmax::text = '0' as is_inserted),
  upserted as (select * from collapsed union all select * from inserted)
  select u.*, (select count(*)::int from notifications c where c.user_id = u.user_id
      and c.is_read = false) as unread_before,
    exists (select 1 from push_subscriptions s where s.user_id = u.user_id) as has_push
  from upserted u`;

/** A row's $1–$9, in the order of `INSERT_COUNTED` and `collapseStatement`. */
const rowValues = (row: NewNotification): unknown[] => [
  row.userId,
  row.type,
  row.priority,
  row.title,
  row.body,
  row.referenceId,
  row.referenceType,
  row.collapseKey,
  row.createdAt,
];

export type NotificationRepository = ReturnType<typeof createNotificationRepository>;

/** Every query is scoped by the owner: a notification of someone else is simply not found. */
export function createNotificationRepository(db: Database) {
  const insertCounted = preparedStatement<StoredRow>(db, 'notification_insert', INSERT_COUNTED);
  const owned = (userId: string, id: string) => and(eq(notifications.userId, userId), eq(notifications.id, id));
  const filtered = (userId: string, filter: NotificationFilter) =>
    and(
      eq(notifications.userId, userId),
      filter.type === undefined ? undefined : eq(notifications.type, filter.type),
      filter.isRead === undefined ? undefined : eq(notifications.isRead, filter.isRead),
    );

  return {
    /**
     * Stores a notification that does not collapse, in **one statement** (a named prepared one)
     * that also answers the owner's unread count with it and whether the owner has any push
     * subscription, like `upsertCollapsed`: a superlike's notification was three round trips.
     */
    async insert(row: NewNotification): Promise<StoredNotification> {
      const [stored] = await insertCounted(rowValues(row));
      if (!stored) throw new Error('notifications insert returned no row');
      // The count was read from the statement's snapshot, which does not hold the new row.
      return {
        record: recordOf(stored),
        isNew: true,
        unreadCount: Number(stored.unread_before) + (stored.is_read ? 0 : 1),
        hasPushSubscription: stored.has_push,
      };
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
     */
    async upsertCollapsed(
      row: NewNotification & { collapseKey: string },
      bodyFor: (count: number) => string,
    ): Promise<StoredNotification | undefined> {
      const template = bodyFor(COUNT_MARKER);
      const isCounted = template.includes(String(COUNT_MARKER));
      const [stored] = await preparedStatement<StoredRow>(
        db,
        `notification_collapse_${isCounted ? 'counted' : 'plain'}`,
        collapseStatement(isCounted),
      )([
        ...rowValues(row),
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

    /**
     * A batch of collapsing notifications in **one statement**, each owed once per key (the chat's
     * messages: docs/decisions/0035, 0039, 0041). The guard runs inside the statement (it moves
     * the cursors past the keys it returns), so a key is retired if and only if its count is written —
     * exactly once, whoever else holds the same keys. Only the owed are returned; each with the
     * owner's unread count once the whole batch is in. Two items may not share owner and key.
     */
    async upsertOwed(items: readonly OwedNotification[], owed: NotificationGuard): Promise<StoredNotification[]> {
      const keys: string[] = [];
      const groups: number[] = [];
      items.forEach((item, index) => {
        for (const key of item.keys) {
          keys.push(key);
          groups.push(index + 1);
        }
      });
      if (keys.length === 0) return [];
      const column = <T>(pick: (item: OwedNotification) => T) => items.map(pick);
      const rows = await preparedStatement<StoredRow & { is_inserted: boolean }>(
        db,
        `notification_owed_${owed.name}`,
        owedStatement(owed.text),
      )([
        keys,
        groups,
        column((item) => item.userId),
        column((item) => item.type),
        column((item) => item.priority),
        column((item) => item.title),
        column((item) => item.body),
        column((item) => item.bodyFor(COUNT_MARKER)),
        column((item) => item.referenceId),
        column((item) => item.referenceType),
        column((item) => item.collapseKey),
        items[0]?.createdAt ?? new Date(),
        String(COUNT_MARKER),
      ]);
      // The counts were read from the statement's snapshot: new rows are not in it, collapsed ones are.
      const added = new Map<string, number>();
      for (const row of rows) if (row.is_inserted) added.set(row.user_id, (added.get(row.user_id) ?? 0) + 1);
      return rows.map((row) => ({
        record: recordOf(row),
        isNew: row.is_inserted,
        unreadCount: Number(row.unread_before) + (added.get(row.user_id) ?? 0),
        hasPushSubscription: row.has_push,
      }));
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
