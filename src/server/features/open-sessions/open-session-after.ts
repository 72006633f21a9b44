import type { MatchEvent } from '#shared/discovery/discovery-schemas';
import {
  ATTENDANCE_MESSAGES,
  ATTENDANCE_WINDOW_MS,
  type Attendance,
  type AttendanceConnection,
  AttendanceRequestSchema,
  attendanceVerdicts,
  ConnectRequestSchema,
  nextWeeklyStart,
  openSessionReliability,
} from '#shared/open-sessions/open-session-after';
import {
  OPEN_SESSION_MESSAGES,
  type OpenSession,
  OpenSessionWriteSchema,
} from '#shared/open-sessions/open-session-schemas';
import type { Reliability } from '#shared/quedadas/quedada-schemas';
import { endOf } from '#shared/quedadas/quedada-state';
import type { Clock } from '../../infra/clock.ts';
import { badRequest, conflict, forbidden } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { parseInput } from '../../validation.ts';
import type { ProfileRepository } from '../profiles/profile-repository.ts';
import type { Caller } from '../quedadas/quedada-service.ts';
import { OPEN_SESSION_REMINDER_MS } from './open-session-notices.ts';
import type { OpenSessionRecord, OpenSessionRepository } from './open-session-repository.ts';
import type { PairState } from './open-session-connect-repository.ts';

/**
 * How a match made by «Conectar» is announced: the swipes' own announcement of a new match (the
 * `match` socket event, then the chat's hook: member rows, `conversationUpdated`, the notification).
 */
export type OpenSessionMatches = { matched(userId: string, event: MatchEvent): void };

/** What «Conectar» offers between the caller and one other person (`connection` of «¿Quién vino?»). */
function connectionOf(pair: PairState | undefined, bothCame: boolean): AttendanceConnection {
  if (pair?.conversation) {
    return pair.conversation.status === 'active'
      ? { status: 'connected', conversationId: pair.conversation.id }
      : { status: 'unavailable' };
  }
  return bothCame && pair?.isReachable ? { status: 'available' } : { status: 'unavailable' };
}

/**
 * After an open session (docs/decisions/0055, amendment of session 15): «¿Quién vino?» — the host
 * and each approved member mark the others, for 7 days after the end — what those marks add to a
 * person's reliability, and «Repetir la próxima semana». Built by `createOpenSessionService`,
 * which hands in its access rules (`visible`, `hosted`), its views and its notices.
 */
export function createOpenSessionAfter(deps: {
  sessions: OpenSessionRepository;
  profiles: Pick<ProfileRepository, 'findManyByUserIds'>;
  clock: Clock;
  /** 404 to whoever may not see the session. */
  visible(userId: string, sessionId: string): Promise<OpenSessionRecord>;
  /** And 403 to a non-host who sees it. */
  hosted(userId: string, sessionId: string): Promise<OpenSessionRecord>;
  current(userId: string, sessionId: string): Promise<OpenSession>;
  limit(userId: string): Promise<void>;
  tell(userIds: readonly string[], record: OpenSessionRecord, title: string, body: string): void;
  ensureGroup(sessionId: string, hostId: string, title: string): Promise<void>;
  what(record: OpenSessionRecord): string;
  /** Without it a connection is made but not announced. */
  matches?: OpenSessionMatches;
  logger: Logger;
}) {
  const { sessions, clock } = deps;

  /** A session the caller was in (host or approved), held (not cancelled or removed), and over. */
  const ended = async (userId: string, sessionId: string) => {
    const record = await deps.visible(userId, sessionId);
    if (record.hostId !== userId && record.myState !== 'approved') throw forbidden(OPEN_SESSION_MESSAGES.notJoined);
    if (record.status !== 'open') throw conflict(OPEN_SESSION_MESSAGES.notOpen, 'NOT_OPEN');
    const endsAt = new Date(endOf(record));
    if (endsAt.getTime() > clock.now().getTime()) throw conflict(ATTENDANCE_MESSAGES.notEnded, 'NOT_ENDED');
    return { record, endsAt, closesAt: new Date(endsAt.getTime() + ATTENDANCE_WINDOW_MS) };
  };

  /** The others in the session: its host and approved members but `userId`. */
  const othersIn = async (sessionId: string, userId: string) =>
    (await sessions.participants(sessionId)).filter((id) => id !== userId);

  const attendanceOf = async (
    userId: string,
    found: Awaited<ReturnType<typeof ended>>,
    others: readonly string[],
  ): Promise<Attendance> => {
    const { record, endsAt, closesAt } = found;
    const [profiles, marks, sessionMarks, pairs] = await Promise.all([
      deps.profiles.findManyByUserIds(others),
      sessions.marksBy(record.id, userId),
      sessions.sessionMarks(record.id),
      sessions.pairStates(userId, others),
    ]);
    const byId = new Map(profiles.map((profile) => [profile.userId, profile]));
    const verdicts = attendanceVerdicts(sessionMarks);
    const cameWith = (id: string) => verdicts.get(userId) === 'came' && verdicts.get(id) === 'came';
    return {
      sessionId: record.id,
      endsAt: endsAt.toISOString(),
      closesAt: closesAt.toISOString(),
      canMark: clock.now().getTime() < closesAt.getTime(),
      people: others.map((id) => {
        const profile = byId.get(id);
        const photo = profile?.photos[0];
        return {
          userId: id,
          name: profile?.name.split(/\s+/)[0] || 'Perfil no disponible',
          photo: photo ? `/${photo}` : null,
          isHost: id === record.hostId,
          came: marks.get(id) ?? null,
          connection: connectionOf(pairs.get(id), cameWith(id)),
        };
      }),
    };
  };

  /** A new match to both, as a mutual like's (best effort: the match stands either way). */
  const announceMatch = async (
    userId: string,
    otherId: string,
    match: { matchId: string; conversationId: string; swipeType: 'like'; createdAt: Date },
  ) => {
    try {
      const faces = new Map(
        (await deps.profiles.findManyByUserIds([userId, otherId])).map((profile) => [profile.userId, profile]),
      );
      const event = (id: string): MatchEvent => ({
        matchId: match.matchId,
        conversationId: match.conversationId,
        otherUser: { userId: id, name: faces.get(id)?.name ?? '', photos: faces.get(id)?.photos ?? [] },
        swipeType: match.swipeType,
        timestamp: match.createdAt.toISOString(),
      });
      deps.matches?.matched(userId, event(otherId));
      deps.matches?.matched(otherId, event(userId));
    } catch (error) {
      deps.logger.warn({ err: error }, 'open sessions: could not announce a connection');
    }
  };

  return {
    /** «¿Quién vino?»: the others in the session and what the caller marked of each. */
    async attendance(userId: string, sessionId: string): Promise<Attendance> {
      const found = await ended(userId, sessionId);
      return attendanceOf(userId, found, await othersIn(found.record.id, userId));
    },

    /** The caller's marks (each replaces their earlier one); a replayed clientId writes nothing. */
    async markAttendance(caller: Caller, sessionId: string, body: unknown): Promise<Attendance> {
      const input = parseInput(AttendanceRequestSchema, body);
      const found = await ended(caller.userId, sessionId);
      if (clock.now().getTime() >= found.closesAt.getTime()) throw conflict(ATTENDANCE_MESSAGES.tooLate, 'TOO_LATE');
      const others = await othersIn(found.record.id, caller.userId);
      const marks = input.marks.map((mark) => ({ userId: mark.userId.toLowerCase(), came: mark.came }));
      if (marks.some((mark) => !others.includes(mark.userId)))
        throw badRequest(ATTENDANCE_MESSAGES.notListed, 'NOT_LISTED');
      // The last mark about a person in one request wins, as it would in two.
      const last = [...new Map(marks.map((mark) => [mark.userId, mark])).values()];
      await deps.limit(caller.userId);
      await sessions.mark(caller.userId, input.clientId, found.record.id, last, clock.now());
      // Who was in it is fixed at the end (member writes are refused after it): no second read.
      return attendanceOf(caller.userId, found, others);
    },

    /**
     * «Conectar»: a match without the deck with someone the session's marks say trained with the
     * caller (both found to have come), never across a block, a hidden or restricted profile, an
     * unmatched pair or a «no» in the deck. Made once: a second call, the other's own «Conectar»
     * or a match from the deck answer the match there is; the same clientId again does nothing.
     * A new match is announced to both as a mutual like's. Answers «¿Quién vino?» as it now is.
     */
    async connect(caller: Caller, sessionId: string, body: unknown): Promise<Attendance> {
      const input = parseInput(ConnectRequestSchema, body);
      const found = await ended(caller.userId, sessionId);
      const others = await othersIn(found.record.id, caller.userId);
      const otherId = input.userId.toLowerCase();
      if (!others.includes(otherId)) throw badRequest(ATTENDANCE_MESSAGES.notListed, 'NOT_LISTED');
      await deps.limit(caller.userId);
      const verdicts = attendanceVerdicts(await sessions.sessionMarks(found.record.id));
      const bothCame = verdicts.get(caller.userId) === 'came' && verdicts.get(otherId) === 'came';
      const outcome = await sessions.connect(
        caller.userId,
        input.clientId,
        found.record.id,
        otherId,
        bothCame,
        clock.now(),
      );
      if (outcome.kind === 'refused') {
        throw outcome.reason === 'not-together'
          ? conflict(ATTENDANCE_MESSAGES.notTrainedTogether, 'NOT_TRAINED_TOGETHER')
          : conflict(ATTENDANCE_MESSAGES.cannotConnect, 'CANNOT_CONNECT');
      }
      if (outcome.kind === 'created') await announceMatch(caller.userId, otherId, outcome.match);
      return attendanceOf(caller.userId, found, others);
    },

    /** What the person's held open sessions add to "N de M quedadas cumplidas". */
    async attendanceRecord(userId: string): Promise<Reliability> {
      return openSessionReliability(userId, await sessions.marksAbout(userId, clock.now()));
    },

    /**
     * «Repetir la próxima semana»: the host publishes the same session on the first week ahead,
     * same Madrid weekday and time; its approved members are invited (and approved at once when
     * they join, while places remain). The same clientId again answers the same new session.
     */
    async repeat(caller: Caller, sessionId: string, body: unknown): Promise<{ session: OpenSession; isNew: boolean }> {
      const input = parseInput(OpenSessionWriteSchema, body);
      const previous = await deps.hosted(caller.userId, sessionId);
      if (previous.status === 'removed') throw conflict(OPEN_SESSION_MESSAGES.notOpen, 'NOT_OPEN');
      const now = clock.now();
      if (endOf(previous) > now.getTime()) throw conflict(ATTENDANCE_MESSAGES.repeatNotEnded, 'NOT_ENDED');
      await deps.limit(caller.userId);
      const startsAt = nextWeeklyStart(previous.startsAt, now);
      const reminderAt = new Date(startsAt.getTime() - OPEN_SESSION_REMINDER_MS);
      const published = await sessions.publish({
        ...previous,
        clientId: input.clientId,
        startsAt,
        reminderAt: reminderAt.getTime() > now.getTime() ? reminderAt : null,
        repeatOf: previous.id,
        now,
      });
      if (published.isNew) {
        await deps.ensureGroup(published.id, caller.userId, `${previous.activity} · ${previous.gymName}`);
        const record = (await sessions.findById(published.id)) ?? previous;
        const invited = (await sessions.members(previous.id))
          .filter((member) => member.state === 'approved')
          .map((member) => member.userId);
        deps.tell(
          invited,
          record,
          'Repetimos entreno',
          `${previous.hostName.split(/\s+/)[0]} repite el entreno la próxima semana (${deps.what(record)}). ¿Te apuntas?`,
        );
      }
      return { session: await deps.current(caller.userId, published.id), isNew: published.isNew };
    },

    /** Outside production only: the host's session as if it had ended a minute ago. */
    async rewind(userId: string, sessionId: string): Promise<OpenSession> {
      const record = await deps.hosted(userId, sessionId);
      if (!(await sessions.rewind(record.id, userId, clock.now())))
        throw conflict(OPEN_SESSION_MESSAGES.notOpen, 'NOT_OPEN');
      return deps.current(userId, record.id);
    },
  };
}
