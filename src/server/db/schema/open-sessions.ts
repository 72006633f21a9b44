import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { conversations } from './discovery.ts';
import { users } from './users.ts';

/**
 * «Entrenos abiertos» (issue #35, docs/decisions/0055): a session a host publishes at a gym that
 * people nearby (or the host's matches) join. `latitude`/`longitude` are the host's 3 km cell
 * centre when publishing (never finer); `client_id` is the host's idempotency key (outbox);
 * `conversation_id` is the group chat (decision 0041's kind 'group'), null until it exists.
 */
export const openSessions = pgTable(
  'open_sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    hostId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text().notNull(),
    gymName: text().notNull(),
    gymAddress: text(),
    latitude: doublePrecision().notNull(),
    longitude: doublePrecision().notNull(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    durationMin: integer().notNull(),
    activity: text().notNull(),
    /** 'all' («Todos los niveles») or an EXPERIENCE_LEVELS value. */
    level: text().notNull(),
    /** Places besides the host, 1–7. */
    places: integer().notNull(),
    note: text(),
    /** matches | nearby */
    visibility: text().notNull(),
    /** host (the host approves each request) | first (first come, first served) */
    approval: text().notNull(),
    /** open | cancelled (by the host) | removed (by a moderator) */
    status: text().notNull().default('open'),
    conversationId: uuid().references(() => conversations.id, { onDelete: 'set null' }),
    removedBy: uuid(),
    /** «Repetir la próxima semana»: the session this one repeats (its approved members are invited). */
    repeatOf: uuid().references((): AnyPgColumn => openSessions.id, { onDelete: 'set null' }),
    /**
     * The session's reminder as a durable job (the quedada jobs' pattern, docs/decisions/0029): due
     * at `reminder_at`, claimed with `for update skip locked` and a lease, done once sent.
     */
    reminderAt: timestamp({ withTimezone: true }),
    reminderClaimedUntil: timestamp({ withTimezone: true }),
    reminderClaimToken: uuid(),
    reminderDoneAt: timestamp({ withTimezone: true }),
    /**
     * The «¿Quién vino?» reminder after the end (docs/decisions/0055, session 16), the same kind of
     * job: due an hour after the end, claimed with a lease, done once sent (migration 0023).
     */
    attendanceReminderClaimedUntil: timestamp({ withTimezone: true }),
    attendanceReminderClaimToken: uuid(),
    attendanceReminderDoneAt: timestamp({ withTimezone: true }),
    version: integer().notNull().default(1),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('open_sessions_host_client_key').on(table.hostId, table.clientId),
    index('open_sessions_nearby_idx')
      .on(table.latitude, table.longitude, table.startsAt)
      .where(sql`${table.status} = 'open'`),
    index('open_sessions_reminder_due_idx')
      .on(table.reminderAt)
      .where(sql`${table.reminderDoneAt} is null and ${table.status} = 'open'`),
    index('open_sessions_attendance_reminder_due_idx')
      .on(table.startsAt)
      .where(sql`${table.attendanceReminderDoneAt} is null and ${table.status} = 'open'`),
    index('open_sessions_host_idx').on(table.hostId, table.startsAt),
    // «Entrenos abiertos cerca» finds the repeats a viewer is invited to (migration 0026).
    index('open_sessions_repeat_of_idx').on(table.repeatOf).where(sql`${table.repeatOf} is not null`),
    check('open_sessions_places_check', sql`${table.places} between 1 and 7`),
  ],
);

/** Who asked to join and where they stand: requested | approved | declined | left | removed. */
export const openSessionMembers = pgTable(
  'open_session_members',
  {
    sessionId: uuid()
      .notNull()
      .references(() => openSessions.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    state: text().notNull(),
    message: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'open_session_members_pk', columns: [table.sessionId, table.userId] }),
    index('open_session_members_user_idx').on(table.userId, table.state),
  ],
);

/** Writes already applied, by the writer's clientId: a replayed join, answer or leave changes nothing. */
export const openSessionActions = pgTable(
  'open_session_actions',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text().notNull(),
    sessionId: uuid()
      .notNull()
      .references(() => openSessions.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'open_session_actions_pk', columns: [table.userId, table.clientId] })],
);

/**
 * «¿Quién vino?» (docs/decisions/0055, session 15): what `markerId` says of `subjectId` after the
 * session, one row per trio, replaced while the marks are open.
 */
export const openSessionAttendance = pgTable(
  'open_session_attendance',
  {
    sessionId: uuid()
      .notNull()
      .references(() => openSessions.id, { onDelete: 'cascade' }),
    markerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subjectId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    came: boolean().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'open_session_attendance_pk', columns: [table.sessionId, table.markerId, table.subjectId] }),
    index('open_session_attendance_subject_idx').on(table.subjectId, table.sessionId),
    check('open_session_attendance_not_self_check', sql`${table.markerId} <> ${table.subjectId}`),
  ],
);
