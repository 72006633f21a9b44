import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type {
  MemberState,
  OpenSessionApproval,
  OpenSessionLevel,
  OpenSessionStatus,
  OpenSessionVisibility,
} from '#shared/open-sessions/open-session-schemas';
import type { Database } from '../../db/client.ts';
import { rowsOf, type SqlExecutor } from '../../db/rows.ts';
import { boundingBox } from '../discovery/ranking/deck-geometry.ts';
import type { DeckViewer } from '../discovery/ranking/deck-viewer.ts';

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
  version: number;
  createdAt: Date;
  hostName: string;
  hostPhoto: string | null;
  hostVerified: boolean;
  /** Approved members, the host not counted. */
  taken: number;
  /** The reading viewer's member state, when the query had a viewer. */
  myState: MemberState | null;
  /** Great-circle km between the viewer's cell and the session's cell, when the query had a viewer. */
  distanceKm: number | null;
};

/** A reminder this node claimed, with whom it goes to. */
export type ClaimedReminder = { token: string; session: OpenSessionRecord; memberIds: string[] };

export type MemberRecord = { userId: string; state: MemberState; message: string | null; createdAt: Date };

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
  version: number;
  created_at: Date | string;
  host_name: string | null;
  host_photo: string | null;
  host_verified: boolean | null;
  taken: number | string;
  my_state?: string | null;
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
    version: row.version,
    createdAt: new Date(row.created_at),
    hostName: row.host_name ?? '',
    hostPhoto: row.host_photo,
    hostVerified: row.host_verified === true,
    taken: Number(row.taken),
    myState: (row.my_state ?? null) as MemberState | null,
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

/**
 * Whether the viewer may see session `s` (docs/decisions/0055): the host and anyone holding or
 * waiting for a place always; anyone else only while it is open and upcoming, never across a
 * block (with the host or any approved member), never a hidden or restricted host's, and either
 * a match of the host («Mis matches») or someone who fits the host both ways — gender and age
 * preferences, the distance between the cells within both maximum distances — as in the deck.
 */
function visibleSql(viewer: DeckViewer, now: Date) {
  const me = sql`${viewer.userId}::uuid`;
  const acceptsHost =
    viewer.genderPreference === 'both' ? sql`true` : sql`hp.gender = ${viewer.genderPreference}::text`;
  const acceptsViewer =
    viewer.gender === null
      ? sql`hp.gender_preference = 'both'`
      : sql`hp.gender_preference in ('both', ${viewer.gender}::text)`;
  return sql`(s.host_id = ${me} or my.state in ('requested', 'approved') or (
    s.status = 'open' and s.starts_at > ${now}::timestamptz
    and hp.active and hp.visible
    and ${notBlocked(me, sql`s.host_id`)}
    and not exists (select 1 from open_session_members am join blocks b
      on (b.blocker_id = ${me} and b.blocked_id = am.user_id) or (b.blocker_id = am.user_id and b.blocked_id = ${me})
      where am.session_id = s.id and am.state = 'approved')
    and (
      (s.visibility = 'matches' and exists (select 1 from conversations c
        where c.kind = 'match' and c.status = 'active'
          and ((c.user_a = ${me} and c.user_b = s.host_id) or (c.user_a = s.host_id and c.user_b = ${me}))))
      or (s.visibility = 'nearby'
        and ${acceptsHost} and ${acceptsViewer}
        and hp.birth_date <= ${viewer.youngestBirthDate}::date
        and hp.birth_date > ${viewer.oldestBirthDateExclusive}::date
        and hp.age_min <= ${viewer.age}::int and hp.age_max >= ${viewer.age}::int
        and ${distanceSql(viewer)} <= least(${viewer.maxDistanceKm}::float8, hp.max_distance_km::float8))
    )))`;
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
> & { reminderAt: Date | null; now: Date };

/** What a member write did: applied, a replay of an applied clientId, or refused with a reason. */
export type MemberWriteOutcome =
  | { kind: 'applied'; state: MemberState; previous: MemberState | null }
  | { kind: 'replay' }
  | { kind: 'refused'; reason: 'not-open' | 'full' | 'cannot-rejoin' | 'not-requested' | 'not-member' | 'not-joined' };

export type OpenSessionRepository = ReturnType<typeof createOpenSessionRepository>;

export function createOpenSessionRepository(db: Database) {
  /**
   * Runs a member write in one transaction with the session row locked (so two joins never take
   * the last place both), after recording the clientId: a replayed clientId changes nothing.
   */
  const memberWrite = (
    userId: string,
    clientId: string,
    sessionId: string,
    apply: (
      tx: SqlExecutor,
      session: { status: string; places: number; approval: string; taken: number; state: MemberState | null },
    ) => Promise<MemberWriteOutcome>,
  ): Promise<MemberWriteOutcome> =>
    db.transaction(async (tx) => {
      const [session] = rowsOf<{ status: string; places: number; approval: string }>(
        await tx.execute(
          sql`select status, places, approval from open_sessions where id = ${sessionId}::uuid for update`,
        ),
      );
      if (!session) return { kind: 'refused', reason: 'not-open' };
      const recorded = rowsOf(
        await tx.execute(sql`insert into open_session_actions (user_id, client_id, session_id)
          values (${userId}::uuid, ${clientId}::text, ${sessionId}::uuid) on conflict do nothing returning 1`),
      );
      if (recorded.length === 0) return { kind: 'replay' };
      const [counts] = rowsOf<{ taken: number | string; state: string | null }>(
        await tx.execute(sql`select
          (select count(*) from open_session_members where session_id = ${sessionId}::uuid and state = 'approved') as taken,
          (select state from open_session_members where session_id = ${sessionId}::uuid and user_id = ${userId}::uuid) as state`),
      );
      const outcome = await apply(tx, {
        ...session,
        taken: Number(counts?.taken ?? 0),
        state: (counts?.state ?? null) as MemberState | null,
      });
      // A refused write keeps no clientId: the same action may be tried again once it can apply.
      if (outcome.kind === 'refused') {
        await tx.execute(
          sql`delete from open_session_actions where user_id = ${userId}::uuid and client_id = ${clientId}::text`,
        );
      }
      return outcome;
    });

  const setState = (tx: SqlExecutor, sessionId: string, userId: string, state: MemberState, now: Date) =>
    tx.execute(sql`update open_session_members set state = ${state}::text, updated_at = ${now}::timestamptz
      where session_id = ${sessionId}::uuid and user_id = ${userId}::uuid`);

  const bump = (tx: SqlExecutor, sessionId: string, now: Date) =>
    tx.execute(sql`update open_sessions set version = version + 1, updated_at = ${now}::timestamptz
      where id = ${sessionId}::uuid`);

  return {
    /** Publishes; the same clientId again inserts nothing (the caller reads the first one). */
    async publish(input: PublishInput): Promise<{ id: string; isNew: boolean }> {
      const [row] = rowsOf<{ id: string }>(
        await db.execute(sql`insert into open_sessions (host_id, client_id, gym_name, gym_address, latitude, longitude,
            starts_at, duration_min, activity, level, places, note, visibility, approval, reminder_at, created_at, updated_at)
          values (${input.hostId}::uuid, ${input.clientId}::text, ${input.gymName}::text, ${input.gymAddress}::text,
            ${input.latitude}::float8, ${input.longitude}::float8, ${input.startsAt}::timestamptz, ${input.durationMin}::int,
            ${input.activity}::text, ${input.level}::text, ${input.places}::int, ${input.note}::text,
            ${input.visibility}::text, ${input.approval}::text, ${input.reminderAt}::timestamptz, ${input.now}::timestamptz,
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
        await db.execute(sql`select ${cardColumns}, my.state as my_state, ${distanceSql(viewer)} as distance_km
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
     * and then distance. The box over the viewer's cell bounds the nearby ones' rows.
     */
    async listNearby(viewer: DeckViewer, now: Date, limit: number): Promise<OpenSessionRecord[]> {
      const box = boundingBox(viewer.latitude, viewer.longitude, viewer.maxDistanceKm);
      const longitude =
        box.minLongitude === null
          ? sql`true`
          : sql`s.longitude between ${box.minLongitude}::float8 and ${box.maxLongitude}::float8`;
      return rowsOf<Row>(
        await db.execute(sql`select ${cardColumns}, my.state as my_state, ${distanceSql(viewer)} as distance_km
          from open_sessions s ${cardJoins}
          left join open_session_members my on my.session_id = s.id and my.user_id = ${viewer.userId}::uuid
          where s.status = 'open' and s.starts_at > ${now}::timestamptz and s.host_id <> ${viewer.userId}::uuid
            and (s.visibility = 'matches' or (s.latitude between ${box.minLatitude}::float8 and ${box.maxLatitude}::float8
              and ${longitude}))
            and ${visibleSql(viewer, now)}
          order by s.starts_at asc, distance_km asc, s.id asc
          limit ${limit}`),
      ).map(toRecord);
    },

    /** The user's own sessions: hosted, or holding or waiting for a place; not yet ended long ago. */
    async listMine(userId: string, since: Date): Promise<OpenSessionRecord[]> {
      return rowsOf<Row>(
        await db.execute(sql`select ${cardColumns}, my.state as my_state, null as distance_km
          from open_sessions s ${cardJoins}
          left join open_session_members my on my.session_id = s.id and my.user_id = ${userId}::uuid
          where (s.host_id = ${userId}::uuid or my.state in ('requested', 'approved'))
            and s.starts_at + make_interval(mins => s.duration_min) > ${since}::timestamptz
          order by s.starts_at asc limit 100`),
      ).map(toRecord);
    },

    /** Everyone who asked, newest first (the host's view). */
    async members(sessionId: string): Promise<MemberRecord[]> {
      return rowsOf<{ user_id: string; state: string; message: string | null; created_at: Date | string }>(
        await db.execute(sql`select user_id, state, message, created_at from open_session_members
          where session_id = ${sessionId}::uuid order by created_at desc limit 200`),
      ).map((row) => ({
        userId: row.user_id,
        state: row.state as MemberState,
        message: row.message,
        createdAt: new Date(row.created_at),
      }));
    },

    /** The user ids holding or waiting for a place (whom a cancellation tells). */
    async activeMemberIds(sessionId: string): Promise<string[]> {
      return rowsOf<{ user_id: string }>(
        await db.execute(sql`select user_id from open_session_members where session_id = ${sessionId}::uuid
          and state in ('requested', 'approved')`),
      ).map((row) => row.user_id);
    },

    /** A join: first come takes a place at once; host approval files a request. «Completo» refuses both. */
    join(userId: string, clientId: string, sessionId: string, message: string | null, now: Date) {
      return memberWrite(userId, clientId, sessionId, async (tx, session) => {
        if (session.status !== 'open') return { kind: 'refused', reason: 'not-open' };
        if (session.state === 'requested' || session.state === 'approved') {
          return { kind: 'applied', state: session.state, previous: session.state };
        }
        if (session.state === 'declined' || session.state === 'removed') {
          return { kind: 'refused', reason: 'cannot-rejoin' };
        }
        if (session.taken >= session.places) return { kind: 'refused', reason: 'full' };
        const state: MemberState = session.approval === 'first' ? 'approved' : 'requested';
        await tx.execute(sql`insert into open_session_members (session_id, user_id, state, message, created_at, updated_at)
          values (${sessionId}::uuid, ${userId}::uuid, ${state}::text, ${message}::text, ${now}::timestamptz, ${now}::timestamptz)
          on conflict (session_id, user_id) do update set state = excluded.state, message = excluded.message,
            created_at = excluded.created_at, updated_at = excluded.updated_at`);
        await bump(tx, sessionId, now);
        return { kind: 'applied', state, previous: session.state };
      });
    },

    /** The host's answer to a pending request; approving needs a free place. */
    answer(hostId: string, clientId: string, sessionId: string, userId: string, approve: boolean, now: Date) {
      return memberWrite(hostId, clientId, sessionId, async (tx, session) => {
        if (session.status !== 'open') return { kind: 'refused', reason: 'not-open' };
        const [member] = rowsOf<{ state: string }>(
          await tx.execute(sql`select state from open_session_members where session_id = ${sessionId}::uuid
            and user_id = ${userId}::uuid`),
        );
        if (member?.state !== 'requested') return { kind: 'refused', reason: 'not-requested' };
        if (approve && session.taken >= session.places) return { kind: 'refused', reason: 'full' };
        const state: MemberState = approve ? 'approved' : 'declined';
        await setState(tx, sessionId, userId, state, now);
        await bump(tx, sessionId, now);
        return { kind: 'applied', state, previous: 'requested' };
      });
    },

    /** The member leaves (a pending request is withdrawn the same way). */
    leave(userId: string, clientId: string, sessionId: string, now: Date) {
      return memberWrite(userId, clientId, sessionId, async (tx, session) => {
        if (session.state !== 'requested' && session.state !== 'approved') {
          return { kind: 'refused', reason: 'not-joined' };
        }
        await setState(tx, sessionId, userId, 'left', now);
        await bump(tx, sessionId, now);
        return { kind: 'applied', state: 'left', previous: session.state };
      });
    },

    /** The host removes someone holding or waiting for a place. */
    remove(hostId: string, clientId: string, sessionId: string, userId: string, now: Date) {
      return memberWrite(hostId, clientId, sessionId, async (tx) => {
        const [member] = rowsOf<{ state: string }>(
          await tx.execute(sql`select state from open_session_members where session_id = ${sessionId}::uuid
            and user_id = ${userId}::uuid`),
        );
        if (member?.state !== 'requested' && member?.state !== 'approved') {
          return { kind: 'refused', reason: 'not-member' };
        }
        await setState(tx, sessionId, userId, 'removed', now);
        await bump(tx, sessionId, now);
        return { kind: 'applied', state: 'removed', previous: member.state as MemberState };
      });
    },

    /**
     * Claims due reminders for `leaseMs` (the quedada jobs' pattern, docs/decisions/0029): `for
     * update skip locked`, so two nodes never take the same session; a lease that runs out (the
     * node died) makes it claimable again. Each comes with whom to remind: the host and everyone approved.
     */
    async claimDueReminders(now: Date, leaseMs: number, limit: number): Promise<ClaimedReminder[]> {
      const token = randomUUID();
      const until = new Date(now.getTime() + leaseMs);
      const rows = rowsOf<Row & { member_ids: string[] | null }>(
        await db.execute(sql`
          with due as (
            select id from open_sessions
            where status = 'open' and reminder_done_at is null and reminder_at <= ${now}::timestamptz
              and (reminder_claimed_until is null or reminder_claimed_until < ${now}::timestamptz)
            order by reminder_at limit ${limit} for update skip locked
          ), claimed as (
            update open_sessions s set reminder_claimed_until = ${until}::timestamptz,
              reminder_claim_token = ${token}::uuid
            from due where s.id = due.id
            returning s.*
          )
          select ${cardColumns},
            array(select m.user_id from open_session_members m where m.session_id = s.id and m.state = 'approved')
              as member_ids
          from claimed s ${cardJoins}`),
      );
      return rows.map((row) => ({ token, session: toRecord(row), memberIds: row.member_ids ?? [] }));
    },

    /** Marks a claimed reminder sent, if this claim still holds it (true). */
    async completeReminder(sessionId: string, token: string, now: Date): Promise<boolean> {
      const rows = rowsOf(
        await db.execute(sql`update open_sessions set reminder_done_at = ${now}::timestamptz
          where id = ${sessionId}::uuid and reminder_claim_token = ${token}::uuid and reminder_done_at is null
          returning 1`),
      );
      return rows.length > 0;
    },

    /**
     * Ends an open session: cancelled by its host or removed by a moderator. Returns whether this
     * call changed it (false: a replay, or already ended).
     */
    async end(
      actorId: string,
      clientId: string,
      sessionId: string,
      status: 'cancelled' | 'removed',
      now: Date,
    ): Promise<boolean> {
      const outcome = await memberWrite(actorId, clientId, sessionId, async (tx, session) => {
        if (session.status !== 'open') return { kind: 'refused', reason: 'not-open' };
        await tx.execute(sql`update open_sessions set status = ${status}::text, version = version + 1,
            updated_at = ${now}::timestamptz, removed_by = ${status === 'removed' ? actorId : null}::uuid
          where id = ${sessionId}::uuid`);
        return { kind: 'applied', state: 'left', previous: null };
      });
      return outcome.kind === 'applied';
    },
  };
}
