import { sql } from 'drizzle-orm';
import type { MemberState } from '#shared/open-sessions/open-session-schemas';
import type { Database } from '../../db/client.ts';
import { rowsOf, type SqlExecutor } from '../../db/rows.ts';

export type MemberRecord = { userId: string; state: MemberState; message: string | null; createdAt: Date };

/** What a member write did: applied, a replay of an applied clientId, or refused with a reason. */
export type MemberWriteOutcome =
  | { kind: 'applied'; state: MemberState; previous: MemberState | null }
  | { kind: 'replay' }
  | {
      kind: 'refused';
      reason: 'not-open' | 'ended' | 'full' | 'cannot-rejoin' | 'not-requested' | 'not-member' | 'not-joined';
    };

/** The locked session as a member write sees it. */
type LockedSession = {
  status: string;
  places: number;
  approval: string;
  /** Its end has passed: who was in it is settled («¿Quién vino?» counts on it). */
  hasEnded: boolean;
  /** «Repetir la próxima semana»: the session this one repeats. */
  repeatOf: string | null;
  taken: number;
  state: MemberState | null;
};

export type OpenSessionMemberRepository = ReturnType<typeof createOpenSessionMemberRepository>;

/**
 * A session's members: who asked, and every write of a place — join, answer, leave, remove — and
 * the session's end, each under the session's row lock with the clientId guard (`open_session_actions`).
 * `createOpenSessionRepository` hands these on as its own.
 */
export function createOpenSessionMemberRepository(db: Database) {
  /**
   * Runs a member write in one transaction with the session row locked (so two joins never take
   * the last place both), after recording the clientId: a replayed clientId changes nothing.
   */
  const memberWrite = (
    userId: string,
    clientId: string,
    sessionId: string,
    now: Date,
    apply: (tx: SqlExecutor, session: LockedSession) => Promise<MemberWriteOutcome>,
  ): Promise<MemberWriteOutcome> =>
    db.transaction(async (tx) => {
      const [row] = rowsOf<{
        status: string;
        places: number;
        approval: string;
        has_ended: boolean;
        repeat_of: string | null;
      }>(
        await tx.execute(
          sql`select status, places, approval, repeat_of,
              starts_at + make_interval(mins => duration_min) <= ${now}::timestamptz as has_ended
            from open_sessions where id = ${sessionId}::uuid for update`,
        ),
      );
      if (!row) return { kind: 'refused', reason: 'not-open' };
      const session = {
        status: row.status,
        places: row.places,
        approval: row.approval,
        hasEnded: row.has_ended,
        repeatOf: row.repeat_of,
      };
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

  /** Held a place in `previousId` («Repetir la próxima semana» invites them: approved at once). */
  const wasApprovedIn = async (tx: SqlExecutor, previousId: string | null, userId: string) =>
    previousId !== null &&
    rowsOf(
      await tx.execute(sql`select 1 from open_session_members where session_id = ${previousId}::uuid
        and user_id = ${userId}::uuid and state = 'approved'`),
    ).length > 0;

  const bump = (tx: SqlExecutor, sessionId: string, now: Date) =>
    tx.execute(sql`update open_sessions set version = version + 1, updated_at = ${now}::timestamptz
      where id = ${sessionId}::uuid`);

  return {
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

    /**
     * The open (not cancelled or removed) sessions one of the two hosts while the other holds or
     * waits for a place in it: what a block between them acts on (docs/decisions/0056, session 17).
     */
    async hostedTogether(
      a: string,
      b: string,
      now: Date,
    ): Promise<{ sessionId: string; hostId: string; memberId: string; state: MemberState; hasEnded: boolean }[]> {
      return rowsOf<{ id: string; host_id: string; user_id: string; state: string; has_ended: boolean }>(
        await db.execute(sql`select s.id, s.host_id, m.user_id, m.state,
            s.starts_at + make_interval(mins => s.duration_min) <= ${now}::timestamptz as has_ended
          from open_sessions s join open_session_members m on m.session_id = s.id
          where s.status = 'open' and m.state in ('requested', 'approved')
            and ((s.host_id = ${a}::uuid and m.user_id = ${b}::uuid) or (s.host_id = ${b}::uuid and m.user_id = ${a}::uuid))`),
      ).map((row) => ({
        sessionId: row.id,
        hostId: row.host_id,
        memberId: row.user_id,
        state: row.state as MemberState,
        hasEnded: row.has_ended,
      }));
    },

    /** A join: first come takes a place at once; host approval files a request. «Completo» refuses both. */
    join(userId: string, clientId: string, sessionId: string, message: string | null, now: Date) {
      return memberWrite(userId, clientId, sessionId, now, async (tx, session) => {
        if (session.status !== 'open') return { kind: 'refused', reason: 'not-open' };
        if (session.hasEnded) return { kind: 'refused', reason: 'ended' };
        if (session.state === 'requested' || session.state === 'approved') {
          return { kind: 'applied', state: session.state, previous: session.state };
        }
        if (session.state === 'declined' || session.state === 'removed') {
          return { kind: 'refused', reason: 'cannot-rejoin' };
        }
        if (session.taken >= session.places) return { kind: 'refused', reason: 'full' };
        const state: MemberState =
          session.approval === 'first' || (await wasApprovedIn(tx, session.repeatOf, userId))
            ? 'approved'
            : 'requested';
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
      return memberWrite(hostId, clientId, sessionId, now, async (tx, session) => {
        if (session.status !== 'open') return { kind: 'refused', reason: 'not-open' };
        if (session.hasEnded) return { kind: 'refused', reason: 'ended' };
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
      return memberWrite(userId, clientId, sessionId, now, async (tx, session) => {
        if (session.state !== 'requested' && session.state !== 'approved') {
          return { kind: 'refused', reason: 'not-joined' };
        }
        if (session.hasEnded) return { kind: 'refused', reason: 'ended' };
        await setState(tx, sessionId, userId, 'left', now);
        await bump(tx, sessionId, now);
        return { kind: 'applied', state: 'left', previous: session.state };
      });
    },

    /** The host removes someone holding or waiting for a place. */
    remove(hostId: string, clientId: string, sessionId: string, userId: string, now: Date) {
      return memberWrite(hostId, clientId, sessionId, now, async (tx, session) => {
        if (session.hasEnded) return { kind: 'refused', reason: 'ended' };
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
      const outcome = await memberWrite(actorId, clientId, sessionId, now, async (tx, session) => {
        if (session.status !== 'open') return { kind: 'refused', reason: 'not-open' };
        // A host's cancel after the end would take the session out of everyone's record.
        if (status === 'cancelled' && session.hasEnded) return { kind: 'refused', reason: 'ended' };
        await tx.execute(sql`update open_sessions set status = ${status}::text, version = version + 1,
            updated_at = ${now}::timestamptz, removed_by = ${status === 'removed' ? actorId : null}::uuid
          where id = ${sessionId}::uuid`);
        return { kind: 'applied', state: 'left', previous: null };
      });
      return outcome.kind === 'applied';
    },
  };
}
