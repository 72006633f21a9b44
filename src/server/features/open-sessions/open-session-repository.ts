import { type SQL, sql } from 'drizzle-orm';
import type {
  MemberState,
  OpenSessionApproval,
  OpenSessionLevel,
  OpenSessionStatus,
  OpenSessionVisibility,
} from '#shared/open-sessions/open-session-schemas';
import { type Database, executePrepared } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { boundingBox } from '../discovery/ranking/deck-geometry.ts';
import type { DeckViewer } from '../discovery/ranking/deck-viewer.ts';
import { createOpenSessionAttendanceRepository } from './open-session-attendance-repository.ts';
import { createOpenSessionConnectRepository } from './open-session-connect-repository.ts';
import { claimDueJobs, completeJob } from './open-session-job-repository.ts';
import { createOpenSessionMemberRepository } from './open-session-member-repository.ts';

/** A session row with its host's card and the counts the views need. */
export type OpenSessionRecord = {
  id: string;
  hostId: string;
  clientId: string;
  gymName: string;
  gymAddress: string | null;
  latitude: number;
  longitude: number;
  startsAt: Date;
  durationMin: number;
  activity: string;
  level: OpenSessionLevel;
  places: number;
  note: string | null;
  visibility: OpenSessionVisibility;
  approval: OpenSessionApproval;
  status: OpenSessionStatus;
  conversationId: string | null;
  /** «Repetir la próxima semana»: the session this one repeats. */
  repeatOf: string | null;
  version: number;
  createdAt: Date;
  hostName: string;
  hostPhoto: string | null;
  hostVerified: boolean;
  /** Approved members, the host not counted. */
  taken: number;
  /** The reading viewer's member state, when the query had a viewer. */
  myState: MemberState | null;
  /** The reading viewer held a place in the session this one repeats (invited: in at once when they join). */
  isInvited: boolean;
  /** Great-circle km between the viewer's cell and the session's cell, when the query had a viewer. */
  distanceKm: number | null;
};

/** A reminder this node claimed, with whom it goes to. */
export type ClaimedReminder = { token: string; session: OpenSessionRecord; memberIds: string[] };

type Row = {
  id: string;
  host_id: string;
  client_id: string;
  gym_name: string;
  gym_address: string | null;
  latitude: number | string;
  longitude: number | string;
  starts_at: Date | string;
  duration_min: number;
  activity: string;
  level: string;
  places: number;
  note: string | null;
  visibility: string;
  approval: string;
  status: string;
  conversation_id: string | null;
  repeat_of: string | null;
  version: number;
  created_at: Date | string;
  host_name: string | null;
  host_photo: string | null;
  host_verified: boolean | null;
  taken: number | string;
  my_state?: string | null;
  is_invited?: boolean | null;
  distance_km?: number | string | null;
};

function toRecord(row: Row): OpenSessionRecord {
  return {
    id: row.id,
    hostId: row.host_id,
    clientId: row.client_id,
    gymName: row.gym_name,
    gymAddress: row.gym_address,
    latitude: Number(row.latitude),
    longitude: Number(row.longitude),
    startsAt: new Date(row.starts_at),
    durationMin: row.duration_min,
    activity: row.activity,
    level: row.level as OpenSessionLevel,
    places: row.places,
    note: row.note,
    visibility: row.visibility as OpenSessionVisibility,
    approval: row.approval as OpenSessionApproval,
    status: row.status as OpenSessionStatus,
    conversationId: row.conversation_id,
    repeatOf: row.repeat_of ?? null,
    version: row.version,
    createdAt: new Date(row.created_at),
    hostName: row.host_name ?? '',
    hostPhoto: row.host_photo,
    hostVerified: row.host_verified === true,
    taken: Number(row.taken),
    myState: (row.my_state ?? null) as MemberState | null,
    isInvited: row.is_invited === true,
    distanceKm: row.distance_km === null || row.distance_km === undefined ? null : Number(row.distance_km),
  };
}

/** Great-circle km between the viewer's cell centre and the session's (both snapped; or a gym's, `g`), in SQL. */
const distanceSql = (viewer: Pick<DeckViewer, 'latitude' | 'longitude'>, alias: 's' | 'g' = 's') => {
  const table = sql.raw(alias);
  return sql`(2 * 6371.0088 * asin(least(1, sqrt(
  power(sin(radians(${table}.latitude - ${viewer.latitude}::float8) / 2), 2)
  + cos(radians(${viewer.latitude}::float8)) * cos(radians(${table}.latitude))
    * power(sin(radians(${table}.longitude - ${viewer.longitude}::float8) / 2), 2)))))`;
};

/** The host's card and the approved count, for any select over `open_sessions s`. */
const cardColumns = sql`s.*, coalesce(hp.name, hu.name) as host_name, hp.photos->>0 as host_photo,
  coalesce(hp.verified, false) as host_verified,
  (select count(*) from open_session_members m where m.session_id = s.id and m.state = 'approved') as taken`;
const cardJoins = sql`join users hu on hu.id = s.host_id left join profiles hp on hp.user_id = s.host_id`;

/** No block either way between a and b. */
const notBlocked = (a: SQL, b: SQL) => sql`not exists (select 1 from blocks b
  where (b.blocker_id = ${a} and b.blocked_id = ${b}) or (b.blocker_id = ${b} and b.blocked_id = ${a}))`;

/** «Repetir la próxima semana»: `me` held a place in the session `s` repeats (docs/decisions/0055). */
const invitedSql = (me: SQL) => sql`exists (select 1 from open_session_members pm where pm.session_id = s.repeat_of
  and pm.user_id = ${me} and pm.state = 'approved')`;

/**
 * Whether the viewer may see session `s` (docs/decisions/0055): the host and anyone holding or
 * waiting for a place always; anyone else only while it is open and upcoming, never across a
 * block (with the host or any approved member), never a hidden or restricted host's, and either
 * a match of the host («Mis matches») or someone who fits the host both ways — gender and age
 * preferences, the distance between the cells within both maximum distances — as in the deck —
 * or someone who held a place in the session it repeats (invited: «Repetir la próxima semana»).
 */
function visibleSql(viewer: DeckViewer, now: Date) {
  const me = sql`${viewer.userId}::uuid`;
  const acceptsHost =
    viewer.genderPreference === 'both' ? sql`true` : sql`hp.gender = ${viewer.genderPreference}::text`;
  const acceptsViewer =
    viewer.gender === null
      ? sql`hp.gender_preference = 'both'`
      : sql`hp.gender_preference in ('both', ${viewer.gender}::text)`;
  // The blocks are read last: PostgreSQL tests these conditions in the order written, and most
  // sessions of a list's box fail the host's cheap profile rules first (docs/decisions/0055, session 17).
  return sql`(s.host_id = ${me} or my.state in ('requested', 'approved') or (
    s.status = 'open' and s.starts_at > ${now}::timestamptz
    and hp.active and hp.visible
    and (
      (s.visibility = 'nearby'
        and ${acceptsHost} and ${acceptsViewer}
        and hp.birth_date <= ${viewer.youngestBirthDate}::date
        and hp.birth_date > ${viewer.oldestBirthDateExclusive}::date
        and hp.age_min <= ${viewer.age}::int and hp.age_max >= ${viewer.age}::int
        and ${distanceSql(viewer)} <= least(${viewer.maxDistanceKm}::float8, hp.max_distance_km::float8))
      or ${invitedSql(me)}
      or (s.visibility = 'matches' and exists (select 1 from conversations c
        where c.kind = 'match' and c.status = 'active'
          and ((c.user_a = ${me} and c.user_b = s.host_id) or (c.user_a = s.host_id and c.user_b = ${me}))))
    )
    and ${notBlocked(me, sql`s.host_id`)}
    and not exists (select 1 from open_session_members am join blocks b
      on (b.blocker_id = ${me} and b.blocked_id = am.user_id) or (b.blocker_id = am.user_id and b.blocked_id = ${me})
      where am.session_id = s.id and am.state = 'approved')))`;
}

/** What the host publishes: the stored columns a new session starts with. */
export type PublishInput = Pick<
  OpenSessionRecord,
  | 'hostId'
  | 'clientId'
  | 'gymName'
  | 'gymAddress'
  | 'latitude'
  | 'longitude'
  | 'startsAt'
  | 'durationMin'
  | 'activity'
  | 'level'
  | 'places'
  | 'note'
  | 'visibility'
  | 'approval'
> & { reminderAt: Date | null; now: Date; repeatOf?: string | null };

export type OpenSessionRepository = ReturnType<typeof createOpenSessionRepository>;

/**
 * Sessions: publish, the reads (each only as `visibleSql` lets the viewer see it), the leased
 * reminder claim, and the members' reads and guarded writes (`open-session-member-repository.ts`).
 */
export function createOpenSessionRepository(db: Database) {
  return {
    /** Publishes; the same clientId again inserts nothing (the caller reads the first one). */
    async publish(input: PublishInput): Promise<{ id: string; isNew: boolean }> {
      const [row] = rowsOf<{ id: string }>(
        await db.execute(sql`insert into open_sessions (host_id, client_id, gym_name, gym_address, latitude, longitude,
            starts_at, duration_min, activity, level, places, note, visibility, approval, reminder_at, repeat_of,
            created_at, updated_at)
          values (${input.hostId}::uuid, ${input.clientId}::text, ${input.gymName}::text, ${input.gymAddress}::text,
            ${input.latitude}::float8, ${input.longitude}::float8, ${input.startsAt}::timestamptz, ${input.durationMin}::int,
            ${input.activity}::text, ${input.level}::text, ${input.places}::int, ${input.note}::text,
            ${input.visibility}::text, ${input.approval}::text, ${input.reminderAt}::timestamptz, ${input.repeatOf ?? null}::uuid,
            ${input.now}::timestamptz,
            ${input.now}::timestamptz)
          on conflict (host_id, client_id) do nothing returning id`),
      );
      if (row) return { id: row.id, isNew: true };
      const [first] = rowsOf<{ id: string }>(
        await db.execute(sql`select id from open_sessions where host_id = ${input.hostId}::uuid
          and client_id = ${input.clientId}::text`),
      );
      if (!first) throw new Error('open-sessions: a publish conflicted without a row');
      return { id: first.id, isNew: false };
    },

    /**
     * The position of a known gym of that name (normalized as the gyms search stores it), the
     * nearest to `near` within `maxKm`; undefined when the gym list has none with coordinates.
     */
    async gymPosition(
      nameKey: string,
      near: { latitude: number; longitude: number },
      maxKm: number,
    ): Promise<{ latitude: number; longitude: number } | undefined> {
      const [row] = rowsOf<{ latitude: number; longitude: number }>(
        await db.execute(sql`select g.latitude, g.longitude from gyms g cross join lateral (select ${distanceSql(near, 'g')} as km) d
          where g.name_key = ${nameKey}::text and g.latitude is not null and g.longitude is not null
            and d.km <= ${maxKm}::float8
          order by d.km asc limit 1`),
      );
      return row ? { latitude: Number(row.latitude), longitude: Number(row.longitude) } : undefined;
    },

    /** Links the group chat made for a session, unless one is linked already (true: this one is). */
    async setConversation(sessionId: string, conversationId: string): Promise<boolean> {
      const rows = rowsOf(
        await db.execute(sql`update open_sessions set conversation_id = ${conversationId}::uuid
          where id = ${sessionId}::uuid and conversation_id is null returning 1`),
      );
      return rows.length > 0;
    },

    /** One session as `viewer` may see it, or undefined (missing or not visible to them). */
    async findVisible(viewer: DeckViewer, sessionId: string, now: Date): Promise<OpenSessionRecord | undefined> {
      const [row] = rowsOf<Row>(
        await db.execute(sql`select ${cardColumns}, my.state as my_state, ${invitedSql(sql`${viewer.userId}::uuid`)} as is_invited,
            ${distanceSql(viewer)} as distance_km
          from open_sessions s ${cardJoins}
          left join open_session_members my on my.session_id = s.id and my.user_id = ${viewer.userId}::uuid
          where s.id = ${sessionId}::uuid and ${visibleSql(viewer, now)}`),
      );
      return row ? toRecord(row) : undefined;
    },

    /** The session whose group chat this is, whatever its visibility (the chat's «Salir»). */
    async findByConversation(conversationId: string): Promise<OpenSessionRecord | undefined> {
      const [row] = rowsOf<Row>(
        await db.execute(
          sql`select ${cardColumns} from open_sessions s ${cardJoins} where s.conversation_id = ${conversationId}::uuid`,
        ),
      );
      return row ? toRecord(row) : undefined;
    },

    /** A session whatever its visibility (the moderator's and the job's view). */
    async findById(sessionId: string): Promise<OpenSessionRecord | undefined> {
      const [row] = rowsOf<Row>(
        await db.execute(sql`select ${cardColumns} from open_sessions s ${cardJoins} where s.id = ${sessionId}::uuid`),
      );
      return row ? toRecord(row) : undefined;
    },

    /**
     * «Entrenos abiertos cerca»: open, upcoming sessions of others the viewer may see, by start
     * and then distance. The box over the viewer's cell bounds the nearby ones' rows; beyond it
     * only sessions for «Mis matches» or repeats are listed, and of those only the ones the viewer
     * may see through a request or place (`my`), an invitation or a match with the host —
     * `beyondBox` finds those few by the viewer's own rows. (A nearby rule's session is always in
     * the box: the box is the deck's, wider than the viewer's maximum distance.) The page is
     * chosen first over sessions and host profiles only; the cards are read for its rows alone.
     */
    async listNearby(viewer: DeckViewer, now: Date, limit: number): Promise<OpenSessionRecord[]> {
      const me = sql`${viewer.userId}::uuid`;
      const box = boundingBox(viewer.latitude, viewer.longitude, viewer.maxDistanceKm);
      const inBox = sql`(s.latitude between ${box.minLatitude}::float8 and ${box.maxLatitude}::float8 and ${
        box.minLongitude === null
          ? sql`true`
          : sql`s.longitude between ${box.minLongitude}::float8 and ${box.maxLongitude}::float8`
      })`;
      const beyondBox = sql`s.id = any(array(
          select m.session_id from open_session_members m where m.user_id = ${me} and m.state in ('requested', 'approved')
          union all
          select r.id from open_session_members pm join open_sessions r on r.repeat_of = pm.session_id
            where pm.user_id = ${me} and pm.state = 'approved'
          union all
          select h.id from conversations c
            join open_sessions h on h.host_id = case when c.user_a = ${me} then c.user_b else c.user_a end
            where (c.user_a = ${me} or c.user_b = ${me}) and c.kind = 'match' and c.status = 'active'
              and h.status = 'open' and h.starts_at > ${now}::timestamptz))`;
      // Prepared, one statement per shape (the viewer's preference branches): planning it took a
      // third of its time at 100k profiles (docs/decisions/0055, session 17).
      return (
        await executePrepared<Row>(
          db,
          'open_sessions_nearby',
          sql`select ${cardColumns}, my.state as my_state, ${invitedSql(me)} as is_invited,
            page.distance_km
          from (
            select s.id, s.starts_at, ${distanceSql(viewer)} as distance_km
            from open_sessions s left join profiles hp on hp.user_id = s.host_id
            left join open_session_members my on my.session_id = s.id and my.user_id = ${me}
            where s.status = 'open' and s.starts_at > ${now}::timestamptz and s.host_id <> ${me}
              and (${inBox} or ${beyondBox})
              and (s.visibility = 'matches' or s.repeat_of is not null or ${inBox})
              and ${visibleSql(viewer, now)}
            order by s.starts_at asc, distance_km asc, s.id asc
            limit ${limit}
          ) page
          join open_sessions s on s.id = page.id ${cardJoins}
          left join open_session_members my on my.session_id = s.id and my.user_id = ${me}
          order by page.starts_at asc, page.distance_km asc, page.id asc`,
        )
      ).map(toRecord);
    },

    /** The user's own sessions: hosted, or holding or waiting for a place; not yet ended long ago. */
    async listMine(userId: string, since: Date): Promise<OpenSessionRecord[]> {
      return rowsOf<Row>(
        await db.execute(sql`select ${cardColumns}, my.state as my_state, ${invitedSql(sql`${userId}::uuid`)} as is_invited,
            null as distance_km
          from open_sessions s ${cardJoins}
          left join open_session_members my on my.session_id = s.id and my.user_id = ${userId}::uuid
          where (s.host_id = ${userId}::uuid or my.state in ('requested', 'approved'))
            and s.starts_at + make_interval(mins => s.duration_min) > ${since}::timestamptz
          order by s.starts_at asc limit 100`),
      ).map(toRecord);
    },

    // members, activeMemberIds, join, answer, leave, remove, end
    ...createOpenSessionMemberRepository(db),
    // participants, marksBy, mark, marksAbout («¿Quién vino?»)
    ...createOpenSessionAttendanceRepository(db),
    // sessionMarks, pairStates, connect («Conectar» after it)
    ...createOpenSessionConnectRepository(db),

    /**
     * Outside production only (`POST /api/dev/open-sessions/{id}/rewind`): the host's open session
     * moves so that it ended a minute ago, its reminder spent, to try «¿Quién vino?» without waiting.
     */
    async rewind(sessionId: string, hostId: string, now: Date): Promise<boolean> {
      // The session's shares move with it (docs/decisions/0054, session 17): a check-in half an
      // hour after the start is then due, and the link lives 3 h past the new end.
      const rows = rowsOf(
        await db.execute(sql`
          with before as (select id, starts_at from open_sessions where id = ${sessionId}::uuid),
          moved as (
            update open_sessions set
              starts_at = ${now}::timestamptz - make_interval(mins => duration_min + 1),
              reminder_done_at = coalesce(reminder_done_at, ${now}::timestamptz),
              version = version + 1, updated_at = ${now}::timestamptz
            where id = ${sessionId}::uuid and host_id = ${hostId}::uuid and status = 'open'
            returning id, starts_at
          ), shares as (
            update quedada_shares sh set check_in_at = sh.check_in_at + (m.starts_at - b.starts_at),
              expires_at = sh.expires_at + (m.starts_at - b.starts_at)
            from moved m join before b on b.id = m.id
            where sh.session_id = m.id
            returning 1
          )
          select 1 from moved`),
      );
      return rows.length > 0;
    },

    /**
     * Claims due reminders for `leaseMs` (`claimDueJobs`: skip locked, leased). Each comes with whom
     * to remind: the host and everyone approved.
     */
    async claimDueReminders(now: Date, leaseMs: number, limit: number): Promise<ClaimedReminder[]> {
      const { token, rows } = await claimDueJobs<Row & { member_ids: string[] | null }>(db, 'reminder', {
        isDue: sql`reminder_at <= ${now}::timestamptz`,
        orderBy: sql`reminder_at`,
        now,
        leaseMs,
        limit,
        select: sql`select ${cardColumns},
            array(select m.user_id from open_session_members m where m.session_id = s.id and m.state = 'approved')
              as member_ids
          from claimed s ${cardJoins}`,
      });
      return rows.map((row) => ({ token, session: toRecord(row), memberIds: row.member_ids ?? [] }));
    },

    /** Marks a claimed reminder sent, if this claim still holds it (true). */
    completeReminder: (sessionId: string, token: string, now: Date) =>
      completeJob(db, 'reminder', sessionId, token, now),
  };
}
