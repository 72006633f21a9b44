import { ATTENDANCE_WINDOW_MS } from '#shared/open-sessions/open-session-after';
import { OPEN_SESSION_UPDATED_EVENT, type OpenSessionUpdatedEvent } from '#shared/open-sessions/open-session-schemas';
import { DEFAULT_REMINDER_MINUTES } from '#shared/quedadas/quedada-schemas';
import { quedadaWhen } from '#shared/quedadas/quedada-time';
import type { Clock } from '../../infra/clock.ts';
import type { Logger } from '../../logger.ts';
import { JOB_LEASE_MS } from '../quedadas/quedada-service.ts';
import type { OpenSessionRecord, OpenSessionRepository } from './open-session-repository.ts';

/** The reminder to the host and every approved member goes this long before the start. */
export const OPEN_SESSION_REMINDER_MS = DEFAULT_REMINDER_MINUTES * 60_000;
const REMINDER_BATCH = 50;
/**
 * «¿Quién vino?» is asked this long after the end, of whoever has marked nobody by then: time to
 * get home, and those who mark on their own straight after are not asked.
 */
export const OPEN_SESSION_ATTENDANCE_REMINDER_DELAY_MS = 60 * 60_000;

/** The notifications feature as open sessions use it (in-app + push, collapsed by key). */
export type OpenSessionNotifier = {
  notify(
    userId: string,
    input: {
      type: 'activity' | 'reminder';
      title: string;
      body: string;
      referenceId: string;
      referenceType: 'openSession';
      collapseKey: string;
      url: string;
      /** null: always sent (a check-in the person asked for, docs/decisions/0054). */
      setting: 'trainingRequests' | 'trainingReminders' | null;
    },
  ): Promise<unknown>;
};

export type OpenSessionRealtime = {
  emitToUser(userId: string, event: typeof OPEN_SESSION_UPDATED_EVENT, payload: OpenSessionUpdatedEvent): void;
};

const openSessionUrl = (sessionId: string) => `/entrenos/abiertos/${encodeURIComponent(sessionId)}`;

/**
 * What open sessions tell people: a notice (and `openSessionUpdated`) after a change, the reminder
 * pass before the start and the «¿Quién vino?» pass after the end. Without a `notifier` only the
 * realtime event goes out.
 */
export function createOpenSessionNotices(deps: {
  sessions: Pick<
    OpenSessionRepository,
    'claimDueReminders' | 'completeReminder' | 'claimDueAttendanceReminders' | 'completeAttendanceReminder'
  >;
  realtime: OpenSessionRealtime;
  notifier?: OpenSessionNotifier;
  clock: Clock;
  logger: Logger;
  /** How long a claimed reminder is this node's before another may take it. */
  jobLeaseMs?: number;
}) {
  const { sessions, clock, logger } = deps;

  return {
    /** Tells each of `userIds` once: `openSessionUpdated` now, and an activity notice (collapsed per session and user). */
    tell(userIds: readonly string[], record: OpenSessionRecord, title: string, body: string) {
      for (const userId of new Set(userIds)) {
        deps.realtime.emitToUser(userId, OPEN_SESSION_UPDATED_EVENT, { sessionId: record.id });
        deps.notifier
          ?.notify(userId, {
            type: 'activity',
            title,
            body,
            referenceId: record.id,
            referenceType: 'openSession',
            collapseKey: `open-session:${record.id}:${userId}`,
            url: openSessionUrl(record.id),
            setting: 'trainingRequests',
          })
          .catch((error: unknown) => logger.warn({ err: error, sessionId: record.id }, 'open sessions: notice failed'));
      }
    },

    /**
     * One pass of the reminder runner: claim due sessions (skip locked, leased), remind the host
     * and every approved member, mark done. A node killed after the claim leaves the reminder to
     * be claimed again once the lease runs out; the collapse key keeps a rare second send from
     * adding a second in-app row (as the quedadas' jobs, docs/decisions/0029).
     */
    async runDueReminders(): Promise<number> {
      const claimed = await sessions.claimDueReminders(clock.now(), deps.jobLeaseMs ?? JOB_LEASE_MS, REMINDER_BATCH);
      let sent = 0;
      for (const { token, session, memberIds } of claimed) {
        for (const userId of new Set([session.hostId, ...memberIds])) {
          await deps.notifier
            ?.notify(userId, {
              type: 'reminder',
              title: 'Entreno abierto',
              body: `${session.activity} en ${session.gymName}, ${quedadaWhen(session.startsAt)}`,
              referenceId: session.id,
              referenceType: 'openSession',
              collapseKey: `open-session:${session.id}:reminder`,
              url: openSessionUrl(session.id),
              setting: 'trainingReminders',
            })
            .catch((error: unknown) =>
              logger.warn({ err: error, sessionId: session.id }, 'open sessions: reminder failed'),
            );
          sent += 1;
        }
        await sessions.completeReminder(session.id, token, clock.now());
      }
      return sent;
    },

    /**
     * One pass of the «¿Quién vino?» reminder (docs/decisions/0055, session 16): claim the held
     * sessions that ended an hour ago (skip locked, leased), ask each person in one who has marked
     * nobody, under their `trainingReminders` switch, mark done. Past the 7 days of marks, or with
     * nobody else in the session, it is done without asking anyone.
     */
    async runDueAttendanceReminders(): Promise<number> {
      const claimed = await sessions.claimDueAttendanceReminders(
        clock.now(),
        OPEN_SESSION_ATTENDANCE_REMINDER_DELAY_MS,
        deps.jobLeaseMs ?? JOB_LEASE_MS,
        REMINDER_BATCH,
      );
      let sent = 0;
      for (const reminder of claimed) {
        const isOpen = clock.now().getTime() < reminder.endsAt.getTime() + ATTENDANCE_WINDOW_MS;
        for (const userId of isOpen ? reminder.unmarkedIds : []) {
          await deps.notifier
            ?.notify(userId, {
              type: 'reminder',
              title: '¿Quién vino?',
              body: `Cuéntanos quién vino al entreno de ${reminder.activity} en ${reminder.gymName}.`,
              referenceId: reminder.sessionId,
              referenceType: 'openSession',
              collapseKey: `open-session:${reminder.sessionId}:attendance`,
              url: openSessionUrl(reminder.sessionId),
              setting: 'trainingReminders',
            })
            .catch((error: unknown) =>
              logger.warn({ err: error, sessionId: reminder.sessionId }, 'open sessions: attendance reminder failed'),
            );
          sent += 1;
        }
        await sessions.completeAttendanceReminder(reminder.sessionId, reminder.token, clock.now());
      }
      return sent;
    },
  };
}
