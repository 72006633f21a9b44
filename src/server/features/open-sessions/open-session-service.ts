import { randomUUID } from 'node:crypto';
import { normalizeGymName } from '#shared/discovery/compatibility';
import { distanceText, snapToGrid } from '#shared/discovery/distance';
import {
  AnswerRequestSchema,
  JoinOpenSessionRequestSchema,
  OPEN_SESSION_LIST_LIMIT,
  OPEN_SESSION_MESSAGES,
  type OpenSession,
  type OpenSessionMember,
  OpenSessionWriteSchema,
  PublishOpenSessionRequestSchema,
} from '#shared/open-sessions/open-session-schemas';
import { isQuedadaId, QUEDADA_HORIZON_DAYS, type Reliability } from '#shared/quedadas/quedada-schemas';
import { endOf, startProblem } from '#shared/quedadas/quedada-state';
import { quedadaWhen } from '#shared/quedadas/quedada-time';
import { SERVER_MESSAGES } from '#shared/messages';
import type { Clock } from '../../infra/clock.ts';
import { type AppError, badRequest, conflict, forbidden, notFound, tooManyRequests } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { RateLimiter, RateLimitRule } from '../../infra/rate-limit.ts';
import { parseInput } from '../../validation.ts';
import { type DeckViewer, deckViewerOf } from '../discovery/ranking/deck-viewer.ts';
import { type PrivacyReader, publicProfileView, type StoredProfile } from '../profiles/profile-model.ts';
import type { ProfileRepository } from '../profiles/profile-repository.ts';
import type { Caller } from '../quedadas/quedada-service.ts';
import { createOpenSessionAfter, type OpenSessionMatches } from './open-session-after.ts';
import { createOpenSessionGroupSync, type OpenSessionGroupChat } from './open-session-group-sync.ts';
import type { MemberWriteOutcome } from './open-session-member-repository.ts';
import {
  createOpenSessionNotices,
  OPEN_SESSION_REMINDER_MS,
  type OpenSessionNotifier,
  type OpenSessionRealtime,
} from './open-session-notices.ts';
import type { OpenSessionRecord, OpenSessionRepository } from './open-session-repository.ts';

// The ports of `OpenSessionServiceDeps`, for the module and the tests that build the service.
export type { OpenSessionGroupChat, OpenSessionMatches, OpenSessionNotifier, OpenSessionRealtime };

const WRITE_RULE: RateLimitRule = { name: 'open-session-write', limit: 30, windowMs: 60_000 };
/** A gym of the session's name farther than this from the host is another branch: the host's cell is used. */
const GYM_NEAR_HOST_KM = 100;

export type OpenSessionServiceDeps = {
  sessions: OpenSessionRepository;
  profiles: Pick<ProfileRepository, 'findByUserId' | 'findManyByUserIds'>;
  privacyOf: PrivacyReader;
  /** The requester's «N de M quedadas cumplidas», or null when they hide it or have none. */
  reliabilityOf(userId: string): Promise<Reliability | null>;
  isModerator(userId: string): Promise<boolean>;
  /** Writes a moderator's removal to the moderation audit log (docs/decisions/0033); none when absent. */
  auditRemoval?(entry: { moderatorId: string; hostId: string; sessionId: string; now: Date }): Promise<void>;
  realtime: OpenSessionRealtime;
  /** The group chat; without it a session has none (`conversationId` null). */
  groupChat?: OpenSessionGroupChat;
  notifier?: OpenSessionNotifier;
  /** How a match «Conectar» makes is announced (the swipes' announcement); none when absent. */
  matches?: OpenSessionMatches;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** How long a claimed reminder is this node's before another may take it. */
  jobLeaseMs?: number;
  /** Someone took a place (sharing: whoever shared it already tells them, docs/decisions/0054). */
  onApproved?(session: OpenSessionRecord, userId: string): void;
};

export type OpenSessionService = ReturnType<typeof createOpenSessionService>;

/**
 * «Entrenos abiertos» (issue #35, docs/decisions/0055). Reads answer only what the viewer may see
 * (404 otherwise, as a missing session); the host's actions answer 403 to anyone else who sees
 * the session. Every write carries the outbox's clientId and replays as a no-op answering 200.
 */
export function createOpenSessionService(deps: OpenSessionServiceDeps) {
  const { sessions, clock } = deps;
  const { tell, runDueReminders, runDueAttendanceReminders } = createOpenSessionNotices(deps);
  const { followMembership, closeGroup, ensureGroup } = createOpenSessionGroupSync(deps);

  const limit = async (userId: string) => {
    const state = await deps.limiter.consume({ rule: WRITE_RULE, key: userId });
    if (state.isLimited)
      throw tooManyRequests(OPEN_SESSION_MESSAGES.rateLimited, state.retryAfterMs / 1000, 'RATE_LIMIT');
  };

  const profileOf = async (userId: string): Promise<StoredProfile> => {
    const profile = await deps.profiles.findByUserId(userId);
    if (!profile) throw conflict(OPEN_SESSION_MESSAGES.needsProfile, 'PROFILE_REQUIRED');
    return profile;
  };

  const viewerOf = async (userId: string): Promise<DeckViewer> => deckViewerOf(await profileOf(userId), clock.now());

  const toView = (record: OpenSessionRecord, viewerId: string): OpenSession => {
    const isHost = record.hostId === viewerId;
    const isIn = isHost || record.myState === 'approved';
    return {
      _id: record.id,
      host: {
        userId: record.hostId,
        name: record.hostName.split(/\s+/)[0] ?? '',
        photo: record.hostPhoto ? `/${record.hostPhoto}` : null,
        isVerified: record.hostVerified,
      },
      gymName: record.gymName,
      gymAddress: record.gymAddress,
      startsAt: record.startsAt.toISOString(),
      durationMin: record.durationMin,
      activity: record.activity,
      level: record.level,
      places: record.places,
      taken: record.taken,
      isFull: record.taken >= record.places,
      note: record.note,
      visibility: record.visibility,
      approval: record.approval,
      status: record.status,
      distanceText: isHost || record.distanceKm === null ? '' : distanceText(record.distanceKm),
      myState: isHost ? 'host' : record.myState,
      isInvited: !isHost && record.isInvited,
      conversationId: isIn ? record.conversationId : null,
      version: record.version,
      createdAt: record.createdAt.toISOString(),
    };
  };

  const visible = async (userId: string, sessionId: string): Promise<OpenSessionRecord> => {
    // A malformed id is as unknown as a session the caller may not see, and never reaches the database.
    if (!isQuedadaId(sessionId)) throw notFound(OPEN_SESSION_MESSAGES.notFound);
    const profile = await deps.profiles.findByUserId(userId);
    if (!profile) throw notFound(OPEN_SESSION_MESSAGES.notFound);
    const found = await sessions.findVisible(deckViewerOf(profile, clock.now()), sessionId.toLowerCase(), clock.now());
    if (!found) throw notFound(OPEN_SESSION_MESSAGES.notFound);
    return found;
  };

  const hosted = async (userId: string, sessionId: string): Promise<OpenSessionRecord> => {
    const found = await visible(userId, sessionId);
    if (found.hostId !== userId) throw forbidden(OPEN_SESSION_MESSAGES.hostOnly);
    return found;
  };

  const current = async (userId: string, sessionId: string): Promise<OpenSession> =>
    toView(await visible(userId, sessionId), userId);

  const what = (record: OpenSessionRecord) => `${record.activity}, ${quedadaWhen(record.startsAt)}`;
  const firstName = async (userId: string) => (await deps.profiles.findByUserId(userId))?.name.split(/\s+/)[0] ?? '';

  const refusal = (outcome: Extract<MemberWriteOutcome, { kind: 'refused' }>): AppError => {
    switch (outcome.reason) {
      case 'full':
        return conflict(OPEN_SESSION_MESSAGES.full, 'FULL');
      case 'not-open':
        return conflict(OPEN_SESSION_MESSAGES.notOpen, 'NOT_OPEN');
      case 'ended':
        return conflict(OPEN_SESSION_MESSAGES.ended, 'ENDED');
      case 'cannot-rejoin':
        return conflict(OPEN_SESSION_MESSAGES.cannotRejoin, 'CANNOT_REJOIN');
      case 'not-requested':
        return conflict(OPEN_SESSION_MESSAGES.notRequested, 'NOT_REQUESTED');
      case 'not-member':
        return conflict(OPEN_SESSION_MESSAGES.notMember, 'NOT_MEMBER');
      case 'not-joined':
        return conflict(OPEN_SESSION_MESSAGES.notJoined, 'NOT_JOINED');
    }
  };

  const targetOf = (userId: string): string => {
    if (!isQuedadaId(userId)) throw badRequest(OPEN_SESSION_MESSAGES.invalidUser, 'VALIDATION');
    return userId.toLowerCase();
  };

  /** One leave: limited, guarded by the member row, mirrored in the group chat, told to the host. */
  const leaveAs = async (userId: string, session: OpenSessionRecord, clientId: string) => {
    await limit(userId);
    const outcome = await sessions.leave(userId, clientId, session.id, clock.now());
    if (outcome.kind === 'refused') throw refusal(outcome);
    await followMembership(session, userId, outcome);
    if (outcome.kind === 'applied') {
      const name = await firstName(userId);
      tell([session.hostId], session, 'Cambio en tu entreno', `${name} ha dejado tu entreno (${what(session)}).`);
    }
  };

  // «¿Quién vino?», its share of reliability, «Repetir la próxima semana» (open-session-after.ts).
  const after = createOpenSessionAfter({
    sessions,
    profiles: deps.profiles,
    clock,
    visible,
    hosted,
    current,
    limit,
    tell,
    ensureGroup,
    what,
    matches: deps.matches,
    logger: deps.logger,
  });

  return {
    /** The session as the user may see it (404 otherwise), with their member state: for sharing it. */
    visible,

    /** Publishes at the host's cell; the same clientId again answers the first session (200). */
    async publish(caller: Caller, body: unknown): Promise<{ session: OpenSession; isNew: boolean }> {
      const input = parseInput(PublishOpenSessionRequestSchema, body);
      const host = await profileOf(caller.userId);
      const now = clock.now();
      const problem = startProblem(input.startsAt, now, QUEDADA_HORIZON_DAYS);
      if (problem === 'startsInPast' || problem === 'startsTooFar')
        throw badRequest(OPEN_SESSION_MESSAGES[problem], 'VALIDATION');
      if (problem) throw badRequest(OPEN_SESSION_MESSAGES.invalidSession, 'VALIDATION');
      await limit(caller.userId);
      // Where the session is: the gym's 3 km cell when the gym list knows it near the host, else
      // the host's own cell (docs/decisions/0055). Only the distance text ever leaves the server.
      const gym = await sessions.gymPosition(normalizeGymName(input.gymName), host, GYM_NEAR_HOST_KM);
      const place = gym ? snapToGrid(gym.latitude, gym.longitude) : host;
      const startsAt = new Date(input.startsAt);
      const reminderAt = new Date(startsAt.getTime() - OPEN_SESSION_REMINDER_MS);
      const published = await sessions.publish({
        hostId: caller.userId,
        clientId: input.clientId,
        gymName: input.gymName,
        gymAddress: input.gymAddress || null,
        latitude: place.latitude,
        longitude: place.longitude,
        startsAt,
        reminderAt: reminderAt.getTime() > now.getTime() ? reminderAt : null,
        durationMin: input.durationMin,
        activity: input.activity,
        level: input.level,
        places: input.places,
        note: input.note || null,
        visibility: input.visibility,
        approval: input.approval,
        now,
      });
      await ensureGroup(published.id, caller.userId, `${input.activity} · ${input.gymName}`);
      return { session: await current(caller.userId, published.id), isNew: published.isNew };
    },

    /** «Entrenos abiertos cerca»: by start, then distance. */
    async nearby(userId: string): Promise<OpenSession[]> {
      const viewer = await viewerOf(userId);
      const found = await sessions.listNearby(viewer, clock.now(), OPEN_SESSION_LIST_LIMIT);
      return found.map((record) => toView(record, userId));
    },

    /** The caller's own: hosted, joined or requested, not yet ended. */
    async mine(userId: string): Promise<OpenSession[]> {
      return (await sessions.listMine(userId, clock.now())).map((record) => toView(record, userId));
    },

    detail: current,

    /** «Añadir al calendario»: the session for its `.ics`, to its host and approved members while it is on. */
    async calendar(userId: string, sessionId: string): Promise<OpenSession> {
      const record = await visible(userId, sessionId);
      if (record.hostId !== userId && record.myState !== 'approved') throw forbidden(OPEN_SESSION_MESSAGES.notJoined);
      if (record.status !== 'open') throw conflict(OPEN_SESSION_MESSAGES.notOpen, 'NOT_OPEN');
      return toView(record, userId);
    },

    /** The host's list: each requester's profile with «Por qué encajáis» and reliability. */
    async members(userId: string, sessionId: string): Promise<OpenSessionMember[]> {
      const session = await hosted(userId, sessionId);
      const members = await sessions.members(session.id);
      const ids = members.map((member) => member.userId);
      const [host, profiles, privacy] = await Promise.all([
        deps.profiles.findByUserId(userId),
        deps.profiles.findManyByUserIds(ids),
        deps.privacyOf(ids),
      ]);
      const byId = new Map(profiles.map((profile) => [profile.userId, profile]));
      const now = clock.now();
      return Promise.all(
        members.map(async (member): Promise<OpenSessionMember> => {
          const profile = byId.get(member.userId);
          return {
            userId: member.userId,
            state: member.state,
            message: member.message,
            profile: profile
              ? publicProfileView(profile, host, now, undefined, {
                  isMatched: false,
                  privacy: privacy.get(member.userId),
                })
              : null,
            reliability: await deps.reliabilityOf(member.userId),
            createdAt: member.createdAt.toISOString(),
          };
        }),
      );
    },

    /** Joins (first come) or asks (host approval); «Completo» when every place is taken. */
    async join(caller: Caller, sessionId: string, body: unknown): Promise<OpenSession> {
      const input = parseInput(JoinOpenSessionRequestSchema, body);
      const session = await visible(caller.userId, sessionId);
      if (session.hostId === caller.userId) throw conflict(OPEN_SESSION_MESSAGES.ownSession, 'OWN_SESSION');
      await limit(caller.userId);
      const outcome = await sessions.join(
        caller.userId,
        input.clientId,
        session.id,
        input.message || null,
        clock.now(),
      );
      if (outcome.kind === 'refused') throw refusal(outcome);
      await followMembership(session, caller.userId, outcome);
      if (outcome.kind === 'applied' && session.myState !== outcome.state) {
        const name = await firstName(caller.userId);
        if (outcome.state === 'requested') {
          tell([session.hostId], session, 'Nueva solicitud', `${name} quiere unirse a tu entreno (${what(session)}).`);
        } else {
          tell([session.hostId], session, 'Nuevo compañero', `${name} se ha unido a tu entreno (${what(session)}).`);
          deps.onApproved?.(session, caller.userId);
        }
      }
      return current(caller.userId, session.id);
    },

    /** The host approves or declines a pending request. */
    async answer(caller: Caller, sessionId: string, userId: string, body: unknown): Promise<OpenSession> {
      const input = parseInput(AnswerRequestSchema, body);
      const session = await hosted(caller.userId, sessionId);
      const target = targetOf(userId);
      await limit(caller.userId);
      const approve = input.decision === 'approve';
      const outcome = await sessions.answer(caller.userId, input.clientId, session.id, target, approve, clock.now());
      if (outcome.kind === 'refused') throw refusal(outcome);
      await followMembership(session, target, outcome);
      if (outcome.kind === 'applied') {
        if (approve) {
          tell([target], session, 'Solicitud aceptada', `Ya estás en el entreno de ${what(session)}.`);
          deps.onApproved?.(session, target);
        } else {
          tell([target], session, 'Solicitud no aceptada', `No hay sitio para ti en el entreno de ${what(session)}.`);
        }
      }
      return current(caller.userId, session.id);
    },

    /** The member leaves (or withdraws a request); the host is told. */
    async leave(caller: Caller, sessionId: string, body: unknown): Promise<OpenSession> {
      const input = parseInput(OpenSessionWriteSchema, body);
      const session = await visible(caller.userId, sessionId);
      if (session.hostId === caller.userId) throw conflict(OPEN_SESSION_MESSAGES.notJoined, 'NOT_JOINED');
      await leaveAs(caller.userId, session, input.clientId);
      // The one who left may no longer see it (a session for matches only, or one since filtered out).
      const after = await sessions.findById(session.id);
      return toView(
        { ...(after ?? session), myState: 'left', isInvited: session.isInvited, distanceKm: session.distanceKm },
        caller.userId,
      );
    },

    /**
     * «Salir» in a session's group chat (the chat hands it here, docs/decisions/0056): leaving the
     * chat is leaving the session, so the place is freed and the host told. False for a group that
     * is no session's, or for someone who never held a place in it (the chat answers 404 as for anyone
     * else's group). Through the outbox: the same clientId replays once (open_session_actions), and a
     * leave of someone already out (left, removed) changes nothing and answers as the first did.
     */
    async leaveChat(userId: string, conversationId: string, clientId?: string): Promise<boolean> {
      const session = await sessions.findByConversation(conversationId);
      if (!session) return false;
      if (session.hostId === userId) throw conflict(OPEN_SESSION_MESSAGES.hostCannotLeave, 'HOST_CANNOT_LEAVE');
      const member = (await sessions.members(session.id)).find((found) => found.userId === userId);
      if (!member) return false;
      // Once it has ended, who was in the session is settled («¿Quién vino?»): the chat only lets
      // them out of the group (false hands the leave back to it).
      if (member.state === 'approved' && endOf(session) <= clock.now().getTime()) return false;
      if (member.state !== 'approved' && member.state !== 'requested') return true;
      await leaveAs(userId, session, clientId ?? randomUUID());
      return true;
    },

    /** The host removes someone; they are told. */
    async remove(caller: Caller, sessionId: string, userId: string, body: unknown): Promise<OpenSession> {
      const input = parseInput(OpenSessionWriteSchema, body);
      const session = await hosted(caller.userId, sessionId);
      const target = targetOf(userId);
      await limit(caller.userId);
      const outcome = await sessions.remove(caller.userId, input.clientId, session.id, target, clock.now());
      if (outcome.kind === 'refused') throw refusal(outcome);
      await followMembership(session, target, outcome);
      if (outcome.kind === 'applied') {
        tell(
          [target],
          session,
          'Ya no estás en el entreno',
          `Quien lo publicó te ha quitado del entreno de ${what(session)}.`,
        );
      }
      return current(caller.userId, session.id);
    },

    /** The host cancels; everyone holding or waiting for a place is told. A replay answers the cancelled session. */
    async cancel(caller: Caller, sessionId: string, body: unknown): Promise<OpenSession> {
      const input = parseInput(OpenSessionWriteSchema, body);
      const session = await hosted(caller.userId, sessionId);
      // After the end a cancel would take the session out of everyone's record (the statement re-checks).
      if (session.status === 'open' && endOf(session) <= clock.now().getTime())
        throw conflict(OPEN_SESSION_MESSAGES.ended, 'ENDED');
      await limit(caller.userId);
      const members = await sessions.activeMemberIds(session.id);
      const changed = await sessions.end(caller.userId, input.clientId, session.id, 'cancelled', clock.now());
      if (changed) {
        await closeGroup(session);
        tell(members, session, 'Entreno cancelado', `Se ha cancelado el entreno de ${what(session)}.`);
      }
      return current(caller.userId, session.id);
    },

    /**
     * Who a report of this session is about: its host, for someone who may see it (404 otherwise,
     * as every route of a session; docs/decisions/0056, amendment of session 17).
     */
    async reportHost(userId: string, sessionId: string): Promise<string> {
      return (await visible(userId, sessionId)).hostId;
    },

    /**
     * A block between a session's host and someone holding or waiting for a place in it: a blocked
     * pair never shares a session (the join and the lists already refuse across a block). The host
     * who blocks removes the person (as «Quitar del entreno»); the person who blocks the host leaves
     * (as «Salir»). Once the session has ended who was in it is settled, so only the group chat
     * follows: the person leaves it. Nothing is refused: the block has been stored already.
     */
    async afterBlock(blockerId: string, blockedId: string): Promise<void> {
      const now = clock.now();
      for (const shared of await sessions.hostedTogether(blockerId, blockedId, now)) {
        const session = await sessions.findById(shared.sessionId);
        if (!session) continue;
        const isHostBlocking = shared.hostId === blockerId;
        if (shared.hasEnded) {
          if (shared.state === 'approved' && session.conversationId) {
            await deps.groupChat
              ?.removeGroupMember(session.conversationId, shared.memberId, isHostBlocking ? 'removed' : 'left')
              .catch((error: unknown) =>
                deps.logger.warn({ err: error }, 'open sessions: group change on a block failed'),
              );
          }
          continue;
        }
        const outcome = isHostBlocking
          ? await sessions.remove(blockerId, randomUUID(), session.id, shared.memberId, now)
          : await sessions.leave(blockerId, randomUUID(), session.id, now);
        if (outcome.kind !== 'applied') continue;
        await followMembership(session, shared.memberId, outcome);
        if (isHostBlocking) {
          tell(
            [shared.memberId],
            session,
            'Ya no estás en el entreno',
            `Quien lo publicó te ha quitado del entreno de ${what(session)}.`,
          );
        } else {
          const name = await firstName(blockerId);
          tell([session.hostId], session, 'Cambio en tu entreno', `${name} ha dejado tu entreno (${what(session)}).`);
        }
      }
    },

    /** A moderator removes a session (404 to anyone else, as an unknown route); host and members are told. */
    async moderatorRemove(userId: string, sessionId: string, body: unknown): Promise<OpenSession> {
      if (!(await deps.isModerator(userId))) throw notFound(SERVER_MESSAGES.routeNotFound);
      const input = parseInput(OpenSessionWriteSchema, body);
      const session = isQuedadaId(sessionId) ? await sessions.findById(sessionId.toLowerCase()) : undefined;
      if (!session) throw notFound(OPEN_SESSION_MESSAGES.notFound);
      const members = await sessions.activeMemberIds(session.id);
      const changed = await sessions.end(userId, input.clientId, session.id, 'removed', clock.now());
      if (changed) {
        await closeGroup(session);
        await deps
          .auditRemoval?.({ moderatorId: userId, hostId: session.hostId, sessionId: session.id, now: clock.now() })
          .catch((error: unknown) => deps.logger.error({ err: error }, 'open sessions: removal not audited'));
        tell(
          [session.hostId, ...members],
          session,
          'Entreno retirado',
          `Moderación ha retirado el entreno de ${what(session)}.`,
        );
      }
      const after = (await sessions.findById(session.id)) ?? session;
      return toView(after, userId);
    },

    /** One pass of the reminder runner (`open-session-notices.ts`). */
    runDueReminders,
    /** One pass of the «¿Quién vino?» reminder after the end (`open-session-notices.ts`). */
    runDueAttendanceReminders,

    // attendance, markAttendance, connect, attendanceRecord, repeat, rewind
    ...after,
  };
}
