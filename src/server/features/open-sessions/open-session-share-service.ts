import { OPEN_SESSION_MESSAGES } from '#shared/open-sessions/open-session-schemas';
import { endOf } from '#shared/quedadas/quedada-state';
import { quedadaWhen } from '#shared/quedadas/quedada-time';
import {
  CreateShareRequestSchema,
  checkInOf,
  type QuedadaShare,
  SHARE_GRACE_MS,
  SHARE_MESSAGES,
  type SharedSession,
  shareViewOf,
} from '#shared/quedadas/share-schemas';
import { AppError, conflict, forbidden, notFound, tooManyRequests } from '../../errors.ts';
import type { Clock } from '../../infra/clock.ts';
import type { RateLimiter, RateLimitRule } from '../../infra/rate-limit.ts';
import type { Logger } from '../../logger.ts';
import { parseInput } from '../../validation.ts';
import type { Caller } from '../quedadas/quedada-service.ts';
import { JOB_LEASE_MS } from '../quedadas/quedada-service.ts';
import { checkInTime, hashShareToken } from '../quedadas/share-service.ts';
import type { OpenSessionNotifier } from './open-session-notices.ts';
import type { OpenSessionRecord } from './open-session-repository.ts';
import type { OpenSessionShareRepository, SessionShareRecord } from './open-session-share-repository.ts';

const WRITE_RULE: RateLimitRule = { name: 'open-session-share-write', limit: 20, windowMs: 60_000 };
const CHECK_IN_BATCH = 50;

const sessionUrl = (sessionId: string) => `/entrenos/abiertos/${encodeURIComponent(sessionId)}`;
const firstName = (name: string) => name.split(/\s+/)[0] ?? '';

export type OpenSessionShareService = ReturnType<typeof createOpenSessionShareService>;

/**
 * «Compartir con alguien de confianza» for an open session (issue #35, docs/decisions/0054,
 * amendment of session 17): the host and approved members of a held session that has not ended
 * make a link; everyone else in it is told (never the link); the page shows the session and who
 * holds a place; the «¿Todo bien?» goes out once across nodes from the share row's own job.
 * Revoking and answering are the quedadas' share calls: a share is a share.
 */
export function createOpenSessionShareService(deps: {
  shares: OpenSessionShareRepository;
  /** The open sessions' read: 404 to whoever may not see the session (a malformed id too). */
  visible(userId: string, sessionId: string): Promise<OpenSessionRecord>;
  notifier?: OpenSessionNotifier;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** How long a claimed check-in is this node's before another may take it. */
  jobLeaseMs?: number;
}) {
  const { shares, clock, logger } = deps;
  const toShare = (record: SessionShareRecord): QuedadaShare => shareViewOf(record, clock.now());

  /**
   * The session, if the caller holds a place in it: 404 to anyone who is not in it (as if there
   * were nothing to share), 403 to someone still waiting for the host's answer.
   */
  const heldBy = async (userId: string, sessionId: string): Promise<OpenSessionRecord> => {
    const session = await deps.visible(userId, sessionId);
    if (session.hostId === userId || session.myState === 'approved') return session;
    if (session.myState === 'requested') throw forbidden(OPEN_SESSION_MESSAGES.notJoined);
    throw notFound(OPEN_SESSION_MESSAGES.notFound);
  };

  /** «Entreno compartido» to `userIds`: who shared it, never the link. */
  const tellShared = (session: OpenSessionRecord, sharer: { userId: string; name: string }, userIds: string[]) => {
    const what = `${session.activity}, ${quedadaWhen(session.startsAt)}`;
    for (const userId of userIds) {
      deps.notifier
        ?.notify(userId, {
          type: 'activity',
          title: 'Entreno compartido',
          body: `${firstName(sharer.name)} ha compartido el entreno (${what}) con un contacto de confianza.`,
          referenceId: session.id,
          referenceType: 'openSession',
          collapseKey: `open-session:${session.id}:shared:${sharer.userId}`,
          url: sessionUrl(session.id),
          setting: 'trainingRequests',
        })
        .catch((error: unknown) =>
          logger.warn({ err: error, sessionId: session.id }, 'open sessions: share notice failed'),
        );
    }
  };

  /** Why a held session cannot be shared now, or null. */
  const closed = (session: OpenSessionRecord): AppError | null => {
    if (session.status !== 'open') return conflict(OPEN_SESSION_MESSAGES.notOpen, 'NOT_OPEN');
    if (endOf(session) <= clock.now().getTime()) return conflict(OPEN_SESSION_MESSAGES.ended, 'ENDED');
    return null;
  };

  return {
    /** Creates the link (the client made the token); the same clientId again answers the same share. */
    async create(caller: Caller, sessionId: string, body: unknown): Promise<{ share: QuedadaShare; isNew: boolean }> {
      const input = parseInput(CreateShareRequestSchema, body);
      const session = await heldBy(caller.userId, sessionId);
      const repeated = await shares.findByClientId(caller.userId, input.clientId);
      if (repeated?.sessionId === session.id) return { share: toShare(repeated), isNew: false };
      const refusal = closed(session);
      if (refusal) throw refusal;
      const now = clock.now();
      const checkInAt = checkInTime(input.checkInAt, now, endOf(session));
      const state = await deps.limiter.consume({ rule: WRITE_RULE, key: caller.userId });
      if (state.isLimited) throw tooManyRequests(SHARE_MESSAGES.rateLimited, state.retryAfterMs / 1000, 'RATE_LIMIT');
      const outcome = await shares.create({
        userId: caller.userId,
        authSessionId: caller.sessionId,
        sessionId: session.id,
        tokenHash: hashShareToken(input.token),
        clientId: input.clientId,
        checkInAt,
        graceMs: SHARE_GRACE_MS,
        now,
      });
      if (outcome.kind === 'repeat') return { share: toShare(outcome.share), isNew: false };
      if (outcome.kind === 'refused') {
        // The session or the caller's place changed since it was read, or the token is taken.
        const current = await heldBy(caller.userId, session.id);
        throw closed(current) ?? new AppError(409, SHARE_MESSAGES.invalidToken, 'SHARE_TOKEN');
      }
      // Everyone the page shows is told that it was shared (issue #35): never the link itself.
      tellShared(session, { userId: caller.userId, name: outcome.sharerName }, outcome.toldIds);
      return { share: toShare(outcome.share), isNew: true };
    },

    /**
     * Someone just took a place: the page of every live link now shows them, so each sharer's
     * notice reaches them too (collapsed per sharer, as the others' was).
     */
    async tellNewcomer(session: OpenSessionRecord, userId: string): Promise<void> {
      for (const sharer of await shares.liveSharers(session.id, userId, clock.now())) {
        tellShared(session, sharer, [userId]);
      }
    },

    /** The caller's own links to a session (nobody else's): 404 to anyone not in it. */
    async list(userId: string, sessionId: string): Promise<QuedadaShare[]> {
      const session = await heldBy(userId, sessionId);
      return (await shares.listOwned(userId, session.id)).map(toShare);
    },

    /** The public page of a session's live link, or undefined (the quedadas' page answers the 404). */
    async page(tokenHash: string, now: Date): Promise<SharedSession | undefined> {
      const found = await shares.findShared(tokenHash, now);
      if (!found) return undefined;
      return {
        kind: 'openSession',
        people: found.people.map((person) => ({
          firstName: firstName(person.name),
          photo: person.photo ? `/${person.photo}` : null,
          isVerified: person.isVerified,
          isHost: person.isHost,
        })),
        sharedBy: firstName(found.sharedBy),
        gymName: found.gymName,
        gymAddress: found.gymAddress,
        startsAt: found.startsAt.toISOString(),
        durationMin: found.durationMin,
        activity: found.activity,
        isCancelled: found.status !== 'open',
        expiresAt: found.expiresAt.toISOString(),
        checkIn: checkInOf(
          found.checkInAt?.toISOString() ?? null,
          found.checkInAnswer,
          found.answeredAt?.toISOString() ?? null,
          now,
        ),
      };
    },

    /**
     * One pass of the check-in runner: claim due check-ins (skip locked, leased), ask «¿Todo
     * bien?» where still wanted, mark done if the claim still holds. A node killed after the claim
     * leaves the check-in to be claimed again once the lease runs out; the collapse key keeps a
     * rare second send from adding a second in-app row (as the quedadas' jobs, 0029).
     */
    async runDueCheckIns(): Promise<number> {
      const claimed = await shares.claimDueCheckIns(clock.now(), deps.jobLeaseMs ?? JOB_LEASE_MS, CHECK_IN_BATCH);
      let sent = 0;
      for (const job of claimed) {
        if (job.isStillWanted && deps.notifier) {
          await deps.notifier.notify(job.userId, {
            type: 'reminder',
            title: '¿Todo bien?',
            body: `Tu contacto de confianza verá tu respuesta sobre el entreno de ${job.activity} en ${job.gymName}.`,
            referenceId: job.sessionId,
            referenceType: 'openSession',
            collapseKey: `open-session-share:${job.shareId}:checkin`,
            // Answered on the session's screen, where its link is; the person asked for it: always sent.
            url: sessionUrl(job.sessionId),
            setting: null,
          });
          sent += 1;
        }
        await shares.completeCheckIn(job.shareId, job.token, clock.now());
      }
      return sent;
    },
  };
}
