import { sql } from 'drizzle-orm';
import type { AttendanceMark } from '#shared/open-sessions/open-session-after';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { claimDueJobs, completeJob } from './open-session-job-repository.ts';

/** How many held sessions a person's record reads at most (newest first). */
const RECORD_SESSIONS_MAX = 500;

/** A «¿Quién vino?» reminder this node claimed: the session, and who in it has marked nobody yet. */
export type ClaimedAttendanceReminder = {
  token: string;
  sessionId: string;
  activity: string;
  gymName: string;
  endsAt: Date;
  /** The host and approved members who made no mark; empty when nobody else was in it. */
  unmarkedIds: string[];
};

export type OpenSessionAttendanceRepository = ReturnType<typeof createOpenSessionAttendanceRepository>;

/**
 * «¿Quién vino?» (docs/decisions/0055, session 15): who is in a session once it has ended (its host
 * and approved members — member writes are refused after the end, so that list no longer moves),
 * each one's marks about the others, every mark that can count for a person's reliability, and the
 * leased reminder to mark (session 16). `createOpenSessionRepository` hands these on as its own.
 */
export function createOpenSessionAttendanceRepository(db: Database) {
  return {
    /** The host, then the approved members in the order they asked. */
    async participants(sessionId: string): Promise<string[]> {
      return rowsOf<{ user_id: string }>(
        await db.execute(sql`select user_id from (
            select host_id as user_id, 0 as rank, null::timestamptz as asked_at from open_sessions
            where id = ${sessionId}::uuid
            union all
            select user_id, 1, created_at from open_session_members
            where session_id = ${sessionId}::uuid and state = 'approved'
          ) p order by rank, asked_at, user_id`),
      ).map((row) => row.user_id);
    },

    /** What `markerId` said of each person they marked. */
    async marksBy(sessionId: string, markerId: string): Promise<Map<string, boolean>> {
      const rows = rowsOf<{ subject_id: string; came: boolean }>(
        await db.execute(sql`select subject_id, came from open_session_attendance
          where session_id = ${sessionId}::uuid and marker_id = ${markerId}::uuid`),
      );
      return new Map(rows.map((row) => [row.subject_id, row.came]));
    },

    /**
     * Writes `markerId`'s marks (each replaces their earlier one about that person) after recording
     * the clientId in `open_session_actions`, in one transaction: a replayed clientId writes nothing,
     * so an older write replayed late never undoes a newer one. False: a replay.
     */
    async mark(
      markerId: string,
      clientId: string,
      sessionId: string,
      marks: readonly { userId: string; came: boolean }[],
      now: Date,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const recorded = rowsOf(
          await tx.execute(sql`insert into open_session_actions (user_id, client_id, session_id)
            values (${markerId}::uuid, ${clientId}::text, ${sessionId}::uuid) on conflict do nothing returning 1`),
        );
        if (recorded.length === 0) return false;
        // Array literals (the ids are validated uuids): drizzle spreads a JS array into a list.
        const subjects = `{${marks.map((mark) => mark.userId).join(',')}}`;
        const came = `{${marks.map((mark) => String(mark.came)).join(',')}}`;
        await tx.execute(sql`insert into open_session_attendance (session_id, marker_id, subject_id, came, created_at, updated_at)
          select ${sessionId}::uuid, ${markerId}::uuid, m.subject_id, m.came, ${now}::timestamptz, ${now}::timestamptz
          from unnest(${subjects}::uuid[], ${came}::boolean[]) as m(subject_id, came)
          on conflict (session_id, marker_id, subject_id) do update set came = excluded.came, updated_at = excluded.updated_at`);
        return true;
      });
    },

    /**
     * Every mark of every held session (not cancelled or removed, ended before `now`) in which
     * someone marked `userId`, by session: what their reliability counts (the verdicts need the
     * marks about the markers too).
     */
    async marksAbout(userId: string, now: Date): Promise<AttendanceMark[][]> {
      const rows = rowsOf<{ session_id: string; marker_id: string; subject_id: string; came: boolean }>(
        await db.execute(sql`with held as (
            select s.id from open_sessions s
            where s.status = 'open' and s.starts_at + make_interval(mins => s.duration_min) <= ${now}::timestamptz
              and exists (select 1 from open_session_attendance a where a.session_id = s.id and a.subject_id = ${userId}::uuid)
            order by s.starts_at desc limit ${RECORD_SESSIONS_MAX}
          )
          select a.session_id, a.marker_id, a.subject_id, a.came from open_session_attendance a
          where a.session_id in (select id from held)`),
      );
      const bySession = new Map<string, AttendanceMark[]>();
      for (const row of rows) {
        const marks = bySession.get(row.session_id) ?? [];
        marks.push({ markerId: row.marker_id, subjectId: row.subject_id, came: row.came });
        bySession.set(row.session_id, marks);
      }
      return [...bySession.values()];
    },

    /**
     * Claims the «¿Quién vino?» reminders due — `delayMs` after each held session's end — for
     * `leaseMs` (`claimDueJobs`: skip locked, leased, as the start reminders). Each comes with who
     * has marked nobody, read in the claim's statement.
     */
    async claimDueAttendanceReminders(
      now: Date,
      delayMs: number,
      leaseMs: number,
      limit: number,
    ): Promise<ClaimedAttendanceReminder[]> {
      const dueBefore = new Date(now.getTime() - delayMs);
      const { token, rows } = await claimDueJobs<{
        id: string;
        activity: string;
        gym_name: string;
        ends_at: Date | string;
        unmarked_ids: string[] | null;
        member_count: number | string;
      }>(db, 'attendance_reminder', {
        // `starts_at` first: the partial index's range (migration 0023).
        isDue: sql`starts_at <= ${dueBefore}::timestamptz
          and starts_at + make_interval(mins => duration_min) <= ${dueBefore}::timestamptz`,
        orderBy: sql`starts_at`,
        now,
        leaseMs,
        limit,
        select: sql`select s.id, s.activity, s.gym_name, s.starts_at + make_interval(mins => s.duration_min) as ends_at,
            (select count(*) from open_session_members m where m.session_id = s.id and m.state = 'approved') as member_count,
            array(select p.user_id from (
                select s.host_id as user_id
                union all
                select m.user_id from open_session_members m where m.session_id = s.id and m.state = 'approved'
              ) p
              where not exists (select 1 from open_session_attendance a
                where a.session_id = s.id and a.marker_id = p.user_id)) as unmarked_ids
          from claimed s`,
      });
      return rows.map((row) => ({
        token,
        sessionId: row.id,
        activity: row.activity,
        gymName: row.gym_name,
        endsAt: new Date(row.ends_at),
        unmarkedIds: Number(row.member_count) > 0 ? (row.unmarked_ids ?? []) : [],
      }));
    },

    /** Marks a claimed «¿Quién vino?» reminder sent, if this claim still holds it (true). */
    completeAttendanceReminder: (sessionId: string, token: string, now: Date) =>
      completeJob(db, 'attendance_reminder', sessionId, token, now),
  };
}
