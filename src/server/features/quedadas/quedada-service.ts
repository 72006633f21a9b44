import { addReliability } from '#shared/open-sessions/open-session-after';
import { QUEDADA_MESSAGES } from '#shared/quedadas/quedada-messages';
import { pairStreakWeeks, reliabilityOf, sharedAvailabilityText } from '#shared/quedadas/quedada-record';
import {
  CONFIRM_WINDOW_MS,
  isQuedadaId,
  type PairSummary,
  ProposeQuedadaRequestSchema,
  QUEDADA_HORIZON_DAYS,
  QUEDADA_UPDATED_EVENT,
  type Quedada,
  type QuedadaActionRequest,
  QuedadaActionRequestSchema,
  type QuedadaSuggestions,
  type QuedadaUpdatedEvent,
  type Reliability,
} from '#shared/quedadas/quedada-schemas';
import { endOf, startProblem, transition } from '#shared/quedadas/quedada-state';
import { quedadaWhen } from '#shared/quedadas/quedada-time';
import type { Clock } from '../../infra/clock.ts';
import { AppError, badRequest, conflict, notFound, tooManyRequests, unauthorized } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { RateLimiter, RateLimitRule } from '../../infra/rate-limit.ts';
import { parseInput } from '../../validation.ts';
import type { JobSpec, QuedadaRecord, QuedadaRepository } from './quedada-repository.ts';
import type { SuggestionRepository } from './suggestion-repository.ts';

/** Who is asking: the route's or socket's authenticated user and session. */
export type Caller = { userId: string; sessionId: string };

/** How quedadas reach sockets: the chat's emitter (`user:<id>`, every node). */
export type QuedadaRealtime = {
  emitToUser(userId: string, event: typeof QUEDADA_UPDATED_EVENT, payload: QuedadaUpdatedEvent): void;
};

/** The notifications feature as quedadas see it (in-app + push, collapsed by key). */
export type QuedadaNotifier = {
  notify(
    userId: string,
    input: {
      type: 'reminder' | 'activity';
      title: string;
      body: string;
      referenceId: string;
      referenceType: 'conversation';
      collapseKey: string;
      url: string;
      /** null: always sent (the check-in the person asked for). */
      setting: 'trainingReminders' | 'trainingRequests' | null;
    },
  ): Promise<unknown>;
};

/** The settings the quedadas read. */
export type QuedadaSettings = {
  get(userId: string): Promise<{
    quedadas: { reminderMinutes: number; showReliability: boolean };
    privacy: { allowTrainingRequests: boolean };
  }>;
};

export type QuedadaServiceDeps = {
  quedadas: QuedadaRepository;
  suggestions: SuggestionRepository;
  realtime: QuedadaRealtime;
  notifier?: QuedadaNotifier;
  settings: QuedadaSettings;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** How long a claimed job is ours before another node may take it (docs/decisions/0029). */
  jobLeaseMs?: number;
  /** What the user's open sessions add to their reliability («¿Quién vino?»), counted as quedadas. */
  openSessionRecord?: (userId: string) => Promise<Reliability>;
  /** Test seam for the kill -9 test: runs after a claim commits, before anything is sent. */
  afterClaim?: () => Promise<void> | void;
};

export const JOB_LEASE_MS = 60_000;
const JOB_BATCH = 50;
const WRITE_RULE: RateLimitRule = { name: 'quedada-write', limit: 30, windowMs: 60_000 };
/** How often an answer that met a concurrent one is applied again to the newer state. */
const STALE_ATTEMPTS = 3;

export type QuedadaService = ReturnType<typeof createQuedadaService>;

/** The public shape: the pair stays inside the service. */
export function toQuedada(record: QuedadaRecord): Quedada {
  const { members: _members, ...quedada } = record;
  return quedada;
}

const conversationUrl = (conversationId: string) => `/messages/${encodeURIComponent(conversationId)}`;

/**
 * The quedadas' rules (issue #21), shared by the routes and the job runner: only the two members
 * see or act on a quedada (anyone else gets 404); every write is one guarded statement that also
 * re-checks session, conversation and version (docs/decisions/0018 §4); both members hear every
 * change (`quedadaUpdated`); reminders and "¿Entrenasteis juntos?" are durable jobs.
 */
export function createQuedadaService(deps: QuedadaServiceDeps) {
  const { quedadas, realtime, clock, logger } = deps;
  const leaseMs = deps.jobLeaseMs ?? JOB_LEASE_MS;

  const announce = (record: QuedadaRecord) => {
    const payload = { quedada: toQuedada(record) };
    for (const member of record.members) realtime.emitToUser(member, QUEDADA_UPDATED_EVENT, payload);
  };

  const limit = async (userId: string) => {
    const state = await deps.limiter.consume({ rule: WRITE_RULE, key: userId });
    if (state.isLimited) throw tooManyRequests(QUEDADA_MESSAGES.rateLimited, state.retryAfterMs / 1000, 'RATE_LIMIT');
  };

  const readable = async (userId: string, quedadaId: string): Promise<QuedadaRecord> => {
    const found = isQuedadaId(quedadaId) ? await quedadas.findById(quedadaId.toLowerCase()) : undefined;
    if (!found?.members.includes(userId)) throw notFound(QUEDADA_MESSAGES.quedadaNotFound);
    return found;
  };

  const notifyOther = (record: QuedadaRecord, actorId: string, title: string, body: string) => {
    const other = record.members.find((member) => member !== actorId);
    if (!other || !deps.notifier) return;
    deps.notifier
      .notify(other, {
        type: 'activity',
        title,
        body,
        referenceId: record.conversationId,
        referenceType: 'conversation',
        collapseKey: `quedada:${record._id}`,
        url: conversationUrl(record.conversationId),
        setting: 'trainingRequests',
      })
      .catch((error: unknown) => logger.warn({ err: error, quedadaId: record._id }, 'quedadas: notification failed'));
  };

  /** The reminder (each member's own setting) and the question after the end, for both members. */
  const jobsFor = async (
    record: QuedadaRecord,
    patch: { startsAt?: string; durationMin?: number },
  ): Promise<JobSpec[]> => {
    const startMs = new Date(patch.startsAt ?? record.startsAt).getTime();
    const endMs = startMs + (patch.durationMin ?? record.durationMin) * 60_000;
    const now = clock.now().getTime();
    const jobs: JobSpec[] = [];
    for (const userId of record.members) {
      const { reminderMinutes } = (await deps.settings.get(userId)).quedadas;
      jobs.push({ userId, kind: 'reminder', runAt: new Date(Math.max(now, startMs - reminderMinutes * 60_000)) });
      jobs.push({ userId, kind: 'confirm', runAt: new Date(endMs) });
    }
    return jobs;
  };

  return {
    /** Proposes a quedada; a repeated clientId answers the original (200) and announces nothing. */
    async propose(caller: Caller, body: unknown): Promise<{ quedada: QuedadaRecord; isNew: boolean }> {
      const input = parseInput(ProposeQuedadaRequestSchema, body);
      const now = clock.now();
      const problem = startProblem(input.startsAt, now, QUEDADA_HORIZON_DAYS);
      if (problem) {
        // A proposal made offline and replayed after it was stored is answered, not refused.
        const stored = await quedadas.findByClientId(caller.userId, input.clientId);
        if (stored) return { quedada: stored, isNew: false };
        throw badRequest(QUEDADA_MESSAGES[problem], 'VALIDATION');
      }
      await limit(caller.userId);
      // "Permitir solicitudes de entrenamiento" off (/config): nobody may propose to this person.
      const members = await deps.suggestions.members(input.conversationId.toLowerCase());
      const other = members?.includes(caller.userId) ? members.find((member) => member !== caller.userId) : undefined;
      if (other && !(await deps.settings.get(other)).privacy.allowTrainingRequests) {
        throw new AppError(403, QUEDADA_MESSAGES.requestsOff, 'REQUESTS_OFF');
      }
      const outcome = await quedadas.propose({
        ...caller,
        clientId: input.clientId,
        conversationId: input.conversationId.toLowerCase(),
        gymName: input.gymName,
        gymAddress: input.gymAddress || null,
        startsAt: new Date(input.startsAt).toISOString(),
        durationMin: input.durationMin,
        activity: input.activity,
        note: input.note || null,
        now,
      });
      if (outcome.kind === 'repeat') return { quedada: outcome.quedada, isNew: false };
      if (outcome.kind === 'missing') throw notFound(QUEDADA_MESSAGES.conversationNotFound);
      if (outcome.kind === 'session') throw unauthorized();
      if (outcome.kind === 'inactive') throw new AppError(403, QUEDADA_MESSAGES.cannotPlan, 'CONVERSATION_ENDED');
      if (outcome.kind === 'busy') throw conflict(QUEDADA_MESSAGES.alreadyActive, 'QUEDADA_ACTIVE');
      return { quedada: outcome.quedada, isNew: true };
    },

    /**
     * Accept, decline, counter, cancel or confirm; a replayed clientId answers the current state.
     * Two answers at the same moment (both confirming) meet at the version check: the later one
     * reads the quedada again and applies its answer to the new state, so neither person sees an
     * error for an answer that still makes sense.
     */
    async act(caller: Caller, quedadaId: string, body: unknown): Promise<{ quedada: QuedadaRecord; isNew: boolean }> {
      const input: QuedadaActionRequest = parseInput(QuedadaActionRequestSchema, body);
      for (let attempt = 1; ; attempt += 1) {
        const current = await readable(caller.userId, quedadaId);
        if (await quedadas.hasAction(caller.userId, input.clientId, current._id))
          return { quedada: current, isNew: false };
        const now = clock.now();
        if (input.action === 'counter') {
          const problem = startProblem(input.startsAt, now, QUEDADA_HORIZON_DAYS);
          if (problem) throw badRequest(QUEDADA_MESSAGES[problem], 'VALIDATION');
        }
        const next = transition(current, input, caller.userId, now);
        if (!next.ok)
          throw new AppError(
            next.status,
            QUEDADA_MESSAGES[next.error],
            next.status === 409 ? 'QUEDADA_STATE' : 'FORBIDDEN',
          );
        // A retried answer was counted on its first attempt (a stale one only retries after this).
        if (attempt === 1) await limit(caller.userId);
        const isAccept = next.patch.status === 'accepted';
        const ends = next.patch.status === 'cancelled' || next.patch.status === 'declined';
        const outcome = await quedadas.act({
          ...caller,
          quedadaId: current._id,
          clientId: input.clientId,
          version: current.version,
          patch: next.patch,
          schedule: isAccept ? await jobsFor(current, next.patch) : [],
          endPendingJobs: ends,
          now,
        });
        if (outcome.kind === 'repeat') return { quedada: outcome.quedada, isNew: false };
        if (outcome.kind === 'session') throw unauthorized();
        if (outcome.kind === 'inactive') throw new AppError(403, QUEDADA_MESSAGES.cannotPlan, 'CONVERSATION_ENDED');
        if (outcome.kind === 'stale') {
          if (attempt < STALE_ATTEMPTS) continue;
          throw conflict(QUEDADA_MESSAGES.stale, 'QUEDADA_STALE');
        }
        return { quedada: outcome.quedada, isNew: true };
      }
    },

    /** After the answer: both members' sockets, and a notification to the other for news they must answer. */
    announce(outcome: { quedada: QuedadaRecord; isNew: boolean }, actorId: string): void {
      if (!outcome.isNew) return;
      const { quedada } = outcome;
      announce(quedada);
      const when = quedadaWhen(quedada.startsAt);
      if (quedada.status === 'proposed')
        notifyOther(
          quedada,
          actorId,
          'Nueva propuesta de entreno',
          `${quedada.activity} en ${quedada.gymName}, ${when}`,
        );
      if (quedada.status === 'countered')
        notifyOther(quedada, actorId, 'Te proponen otra hora', `${quedada.activity}: ${when}`);
      if (quedada.status === 'accepted')
        notifyOther(quedada, actorId, 'Quedada aceptada', `${quedada.activity} en ${quedada.gymName}, ${when}`);
    },

    async listForConversation(userId: string, conversationId: string): Promise<Quedada[]> {
      await this.sweep(userId);
      const access = await deps.suggestions.members(conversationId);
      if (!access?.includes(userId)) throw notFound(QUEDADA_MESSAGES.conversationNotFound);
      return (await quedadas.listForConversation(conversationId.toLowerCase())).map(toQuedada);
    },

    async listUpcoming(userId: string): Promise<Quedada[]> {
      await this.sweep(userId);
      return (await quedadas.listUpcoming(userId, clock.now())).map(toQuedada);
    },

    async get(userId: string, quedadaId: string): Promise<Quedada> {
      return toQuedada(await readable(userId, quedadaId));
    },

    /** The chat header's and match card's line: the next quedada in play and the pair streak. */
    async pairs(userId: string): Promise<PairSummary[]> {
      await this.sweep(userId);
      const rows = await quedadas.listPairsOf(userId);
      const starts = await quedadas.doneStarts(rows.map((row) => row.conversationId));
      const now = clock.now();
      return rows.map((row) => {
        const isNext = row.status !== 'done' && endOf(row) > now.getTime();
        return {
          conversationId: row.conversationId,
          next: isNext ? toQuedada(row) : null,
          streakWeeks: pairStreakWeeks(starts.get(row.conversationId) ?? [], now),
        };
      });
    },

    /** "8 de 9 quedadas cumplidas" of `userId`, as a match (or the user) sees it; null when hidden. */
    async reliability(viewerId: string, userId: string): Promise<Reliability | null> {
      // A malformed id is as unknown as a stranger's (404), and never reaches the database.
      if (!isQuedadaId(userId)) throw notFound(QUEDADA_MESSAGES.quedadaNotFound);
      const subject = userId.toLowerCase();
      if (viewerId !== subject && !(await deps.suggestions.areMatched(viewerId, subject))) {
        throw notFound(QUEDADA_MESSAGES.quedadaNotFound);
      }
      const { showReliability } = (await deps.settings.get(subject)).quedadas;
      if (!showReliability && viewerId !== subject) return null;
      const [counted, openSessions] = await Promise.all([
        quedadas.listCounted(subject),
        deps.openSessionRecord?.(subject),
      ]);
      const result = addReliability(reliabilityOf(subject, counted), openSessions);
      return result.counted === 0 ? null : result;
    },

    /**
     * What the proposal form offers first: the two gyms, the shared slots, the sports (shared ones
     * first). Goals are no activity ("Perder peso" is why, not what: issue #34).
     */
    async suggestions(userId: string, conversationId: string): Promise<QuedadaSuggestions> {
      const members = isQuedadaId(conversationId)
        ? await deps.suggestions.members(conversationId.toLowerCase())
        : undefined;
      if (!members?.includes(userId)) throw notFound(QUEDADA_MESSAGES.conversationNotFound);
      const profiles = await deps.suggestions.profiles(members);
      const mine = profiles.find((profile) => profile.userId === userId);
      const theirs = profiles.find((profile) => profile.userId !== userId);
      const gyms = [mine, theirs]
        .filter((profile) => !!profile?.gymName)
        .map((profile) => ({ name: profile?.gymName as string, address: profile?.gymAddress ?? null }))
        .filter(
          (gym, index, all) => all.findIndex((other) => other.name.toLowerCase() === gym.name.toLowerCase()) === index,
        );
      const sharedSlots = (mine?.availability ?? []).filter((slot) => theirs?.availability.includes(slot));
      const common = (mine?.sports ?? []).filter((sport) => theirs?.sports.includes(sport));
      const activities = [...new Set([...common, ...(mine?.sports ?? []), ...(theirs?.sports ?? [])])].slice(0, 8);
      return { gyms, sharedSlots, sharedText: sharedAvailabilityText(sharedSlots), activities };
    },

    /** The data for the `.ics` (accepted quedadas only). */
    async calendarData(userId: string, quedadaId: string) {
      const record = await readable(userId, quedadaId);
      if (record.status !== 'accepted' && record.status !== 'done')
        throw conflict(QUEDADA_MESSAGES.notAnswerable, 'QUEDADA_STATE');
      const other = record.members.find((member) => member !== userId) as string;
      const [profile] = await deps.suggestions.profiles([other]);
      const { reminderMinutes } = (await deps.settings.get(userId)).quedadas;
      return { quedada: toQuedada(record), otherName: profile?.name ?? '', reminderMinutes };
    },

    /** Operations and tests: a quedada's jobs (kind, user, run time, attempts, done). */
    jobsOf: (quedadaId: string) => quedadas.jobsOf(quedadaId),

    /** Outside production only: the quedada as if it had just ended (tries the after-session question). */
    async rewind(userId: string, quedadaId: string): Promise<Quedada> {
      const current = await readable(userId, quedadaId);
      const moved = await quedadas.rewind(current._id, userId, clock.now());
      if (!moved) throw conflict(QUEDADA_MESSAGES.notAnswerable, 'QUEDADA_STATE');
      announce(moved);
      void this.runDueJobs().catch((error: unknown) => logger.warn({ err: error }, 'quedadas: job runner failed'));
      return toQuedada(moved);
    },

    /** Ends the quedadas of conversations that were unmatched or blocked, and tells both members. */
    async sweep(userId?: string): Promise<void> {
      for (const record of await quedadas.cancelEnded(clock.now(), userId)) announce(record);
    },

    /**
     * One pass of the job runner: claim due jobs (skip locked, leased), notify, mark done. A node
     * killed after the claim leaves the job to be claimed again once the lease runs out; the
     * notification's collapse key keeps a rare second send (after a send, before `done`) from
     * adding a second in-app row (docs/decisions/0029).
     */
    async runDueJobs(): Promise<number> {
      await this.sweep();
      const claimed = await quedadas.claimDue(clock.now(), leaseMs, JOB_BATCH);
      if (claimed.length === 0) return 0;
      await deps.afterClaim?.();
      let sent = 0;
      for (const job of claimed) {
        const { quedada } = job;
        const tooLate = job.kind === 'confirm' && clock.now().getTime() > endOf(quedada) + CONFIRM_WINDOW_MS;
        if (job.isStillWanted && !tooLate && deps.notifier) {
          const when = quedadaWhen(quedada.startsAt);
          const text =
            job.kind === 'checkin'
              ? {
                  title: '¿Todo bien?',
                  body: `Tu contacto de confianza verá tu respuesta sobre el entreno con ${job.otherName}.`,
                }
              : job.kind === 'reminder'
                ? { title: `Entreno con ${job.otherName}`, body: `${quedada.activity} en ${quedada.gymName}, ${when}` }
                : {
                    title: '¿Entrenasteis juntos?',
                    body: `Cuéntanos si entrenaste con ${job.otherName} (${quedada.activity}).`,
                  };
          await deps.notifier.notify(job.userId, {
            type: 'reminder',
            ...text,
            referenceId: quedada.conversationId,
            referenceType: 'conversation',
            collapseKey: `quedada:${quedada._id}:${job.kind}`,
            // The check-in is answered on «Próximos entrenos»; the person asked for it: always sent.
            url: job.kind === 'checkin' ? '/entrenos' : conversationUrl(quedada.conversationId),
            setting: job.kind === 'checkin' ? null : 'trainingReminders',
          });
          sent += 1;
        }
        await quedadas.complete(job.id, job.token, clock.now());
      }
      return sent;
    },
  };
}
