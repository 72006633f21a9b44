import {
  type AppealQueueItem,
  DecideAppealRequestSchema,
  LiftRequestSchema,
  MODERATION_MESSAGES,
  type ModerationPerson,
  type ModerationQueue,
  type ReportDetail,
  type ReportedOpenSession,
  type ReportQueueItem,
  type ReportSubject,
  type ReportSummary,
  ResolveReportRequestSchema,
  type RestrictionKind,
  type RestrictionSummary,
} from '#shared/moderation/moderation-schemas';
import type { ReportReason } from '#shared/safety/safety-schemas';
import type { Clock } from '../../infra/clock.ts';
import { conflict, notFound } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { parseInput } from '../../validation.ts';
import type { AuditEntry, ModerationAuditRepository } from './moderation-audit-repository.ts';
import type { ModerationRepository, ReportRow, RestrictionRow } from './moderation-repository.ts';
import type { ClosedConversation, RestrictionRepository } from './restriction-repository.ts';

const DAY_MS = 86_400_000;
const QUEUE_LIMIT = 200;
const EVIDENCE_MESSAGES = 50;

/** What a moderator action sets off beyond the database (other features, every node). */
export type ModerationEffects = {
  /** Every session of the person ends on every node (the invalidation bus), sockets are cut. */
  revokeAllSessions(userId: string): Promise<void>;
  /** Both sides hear the conversation's new status; every node's membership cache forgets it. */
  conversationChanged(userIds: readonly string[], conversationId: string, status: 'blocked' | 'active'): void;
  /** A notification (and its push) for one person. */
  notify(userId: string, notification: { title: string; body: string }): Promise<void>;
};

export type Moderator = { userId: string; email: string };

export type ModerationService = ReturnType<typeof createModerationService>;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function subjectOf(row: ReportRow): ReportSubject {
  if (row.open_session_id) return 'openSession';
  if (row.message_id) return 'groupMessage';
  if (row.conversation_id) return row.is_group ? 'groupMember' : 'chat';
  return 'person';
}

function toReportSummary(row: ReportRow): ReportSummary {
  return {
    id: row.id,
    reason: row.reason as ReportReason,
    details: row.details,
    subject: subjectOf(row),
    conversationId: row.conversation_id,
    openSessionId: row.open_session_id,
    message: row.message_id ? { id: row.message_id, text: row.message_text } : null,
    status: row.status === 'open' ? 'open' : 'closed',
    resolution: row.resolution,
    createdAt: iso(row.created_at) as string,
    reporter: row.reporter_id ? { userId: row.reporter_id, name: row.reporter_name ?? '' } : null,
  };
}

function toRestrictionSummary(row: RestrictionRow, now: Date): RestrictionSummary {
  const isLive = row.lifted_at === null && (row.ends_at === null || new Date(row.ends_at) > now);
  return {
    id: row.id,
    kind: row.kind as RestrictionKind,
    reason: row.reason,
    createdAt: iso(row.created_at) as string,
    endsAt: iso(row.ends_at),
    liftedAt: iso(row.lifted_at),
    isLive,
    appeal:
      row.appeal_id && row.appeal_text && row.appeal_created_at
        ? {
            id: row.appeal_id,
            text: row.appeal_text,
            status: (row.appeal_status ?? 'open') as 'open' | 'upheld' | 'granted',
            createdAt: iso(row.appeal_created_at) as string,
          }
        : null,
  };
}

function ageOn(birthDate: string, now: Date): number {
  const birth = new Date(`${birthDate}T00:00:00Z`);
  let age = now.getUTCFullYear() - birth.getUTCFullYear();
  const hadBirthday =
    now.getUTCMonth() > birth.getUTCMonth() ||
    (now.getUTCMonth() === birth.getUTCMonth() && now.getUTCDate() >= birth.getUTCDate());
  if (!hadBirthday) age -= 1;
  return age;
}

function toReportedSession(
  row: NonNullable<Awaited<ReturnType<ModerationRepository['openSession']>>>,
): ReportedOpenSession {
  return {
    id: row.id,
    activity: row.activity,
    gymName: row.gym_name,
    gymAddress: row.gym_address,
    startsAt: iso(row.starts_at) as string,
    durationMin: row.duration_min,
    note: row.note,
    status: row.status === 'cancelled' || row.status === 'removed' ? row.status : 'open',
    places: row.places,
    taken: row.taken,
  };
}

/** The console's rules (docs/decisions/0033): the queue, the evidence, the actions and their effects. */
export function createModerationService(deps: {
  repository: ModerationRepository;
  restrictions: RestrictionRepository;
  audit: ModerationAuditRepository;
  effects: ModerationEffects;
  clock: Clock;
  logger: Logger;
}) {
  const { repository, restrictions, effects, clock } = deps;

  /** Side effects after the commit: each is attempted; one failing never hides the others. */
  const settle = async (label: string, work: Promise<unknown>[]) => {
    for (const result of await Promise.allSettled(work)) {
      if (result.status === 'rejected') deps.logger.error({ err: result.reason }, `moderation: ${label} failed`);
    }
  };

  const announceClosed = (targetId: string, closed: readonly ClosedConversation[], status: 'blocked' | 'active') => {
    for (const conversation of closed) {
      effects.conversationChanged([targetId, conversation.otherUserId], conversation.conversationId, status);
    }
  };

  const person = async (userId: string): Promise<ModerationPerson | null> => {
    const row = await repository.person(userId);
    if (!row) return null;
    return {
      userId: row.id,
      name: `${row.name} ${row.last_name}`.trim(),
      email: row.email,
      age: row.birth_date ? ageOn(row.birth_date, clock.now()) : null,
      city: row.city,
      bio: row.bio,
      photos: row.photos ?? [],
      isDeleted: row.isDeleted,
      isInDecks: row.in_decks === true,
    };
  };

  return {
    async queue(): Promise<ModerationQueue> {
      const now = clock.now();
      const [reports, appeals] = await Promise.all([
        repository.openReports(QUEUE_LIMIT),
        repository.openAppeals(QUEUE_LIMIT),
      ]);
      return {
        success: true,
        reports: reports.map(
          (row): ReportQueueItem => ({
            ...toReportSummary(row),
            reported: row.reported_id
              ? { userId: row.reported_id, name: row.reported_name ?? '', photo: row.reported_photo }
              : null,
            openReportsAboutPerson: row.open_about,
            isHeld: row.is_held,
          }),
        ),
        appeals: appeals.map(
          (row): AppealQueueItem => ({
            id: row.appeal_id ?? '',
            text: row.appeal_text ?? '',
            createdAt: iso(row.appeal_created_at) as string,
            person: { userId: row.user_id, name: row.person_name },
            restriction: toRestrictionSummary(row, now),
          }),
        ),
      };
    },

    async reportDetail(reportId: string): Promise<ReportDetail> {
      const report = await repository.report(reportId);
      if (!report) throw notFound(MODERATION_MESSAGES.reportNotFound);
      const reportedId = report.reported_id;
      const now = clock.now();
      const [reported, messages, earlier, restrictionRows, audit, session] = await Promise.all([
        reportedId ? person(reportedId) : null,
        reportedId && report.conversation_id
          ? repository.reportedMessages(
              report.conversation_id,
              reportedId,
              new Date(report.created_at),
              EVIDENCE_MESSAGES,
            )
          : [],
        reportedId ? repository.reportsAbout(reportedId, report.id, 50) : [],
        reportedId ? repository.restrictionsOf(reportedId) : [],
        reportedId ? deps.audit.list({ limit: 50, targetUserId: reportedId }) : [],
        report.open_session_id ? repository.openSession(report.open_session_id) : undefined,
      ]);
      return {
        success: true,
        report: toReportSummary(report),
        reported,
        messages: messages.map((message) => ({
          id: message.id,
          senderId: message.sender_id,
          senderName: message.sender_name,
          text: message.text,
          timestamp: iso(message.created_at) as string,
        })),
        openSession: session ? toReportedSession(session) : null,
        earlierReports: earlier.map(toReportSummary),
        restrictions: restrictionRows.map((row) => toRestrictionSummary(row, now)),
        audit: audit.map(toAuditRecord),
      };
    },

    /** Dismiss, warn, suspend or ban: closes every open report about the person. */
    async resolve(moderator: Moderator, reportId: string, body: unknown) {
      const input = parseInput(ResolveReportRequestSchema, body);
      const report = await repository.report(reportId);
      if (!report) throw notFound(MODERATION_MESSAGES.reportNotFound);
      if (report.status !== 'open') throw conflict(MODERATION_MESSAGES.reportClosed, 'REPORT_CLOSED');
      if (!report.reported_id) throw conflict(MODERATION_MESSAGES.reportClosed, 'REPORT_CLOSED');
      const now = clock.now();
      const outcome = await restrictions.act({
        reportId,
        targetUserId: report.reported_id,
        action: input.action,
        reason: input.reason,
        endsAt: input.action === 'suspend' && input.days ? new Date(now.getTime() + input.days * DAY_MS) : null,
        actor: moderator,
        note: input.note,
        now,
      });
      if (!outcome) throw conflict(MODERATION_MESSAGES.reportClosed, 'REPORT_CLOSED');
      const targetId = report.reported_id;
      if (input.action === 'suspend' || input.action === 'ban') {
        // Sessions first: the person is out on every node before anyone hears of it.
        await effects.revokeAllSessions(targetId);
        announceClosed(targetId, outcome.closed, 'blocked');
      }
      const work: Promise<unknown>[] = outcome.reporterIds.map((reporterId) =>
        effects.notify(reporterId, {
          title: MODERATION_MESSAGES.reporterNotificationTitle,
          body: MODERATION_MESSAGES.reporterNotificationBody,
        }),
      );
      if (input.action === 'warn') {
        work.push(
          effects.notify(targetId, {
            title: MODERATION_MESSAGES.warningNotificationTitle,
            body: MODERATION_MESSAGES.warningNotificationBody,
          }),
        );
      }
      await settle('after-action effects', work);
      return { success: true as const, message: MODERATION_MESSAGES.resolved, restrictionId: outcome.restrictionId };
    },

    async lift(moderator: Moderator, restrictionId: string, body: unknown) {
      const input = parseInput(LiftRequestSchema, body);
      const found = await repository.restriction(restrictionId);
      if (!found) throw notFound(MODERATION_MESSAGES.restrictionNotFound);
      const lifted = await restrictions.lift({
        restrictionId,
        actor: moderator,
        audit: { action: 'lift', reason: input.note },
        now: clock.now(),
      });
      if (!lifted) throw conflict(MODERATION_MESSAGES.restrictionNotLive, 'NOT_LIVE');
      await this.afterLift(lifted);
      return { success: true as const, message: MODERATION_MESSAGES.lifted };
    },

    async decideAppeal(moderator: Moderator, appealId: string, body: unknown) {
      const input = parseInput(DecideAppealRequestSchema, body);
      const appeal = await repository.appeal(appealId);
      if (!appeal) throw notFound(MODERATION_MESSAGES.appealNotFound);
      const now = clock.now();
      const closed = await restrictions.closeAppeal(
        appealId,
        input.decision === 'grant' ? 'granted' : 'upheld',
        moderator,
        now,
      );
      if (!closed) throw conflict(MODERATION_MESSAGES.appealClosed, 'APPEAL_CLOSED');
      if (input.decision === 'grant') {
        const lifted = await restrictions.lift({
          restrictionId: closed.restrictionId,
          actor: moderator,
          audit: { action: 'appeal_granted', appealId, reason: input.note },
          now,
        });
        if (lifted) await this.afterLift(lifted);
      } else {
        await deps.audit.record({
          moderator,
          action: 'appeal_upheld',
          targetUserId: closed.userId,
          restrictionId: closed.restrictionId,
          appealId,
          reason: input.note,
          now,
        });
      }
      return { success: true as const, message: MODERATION_MESSAGES.decided };
    },

    /** After a lift: reopened conversations are announced, the person is told. */
    async afterLift(lifted: { userId: string; kind: string; reopened: ClosedConversation[] }) {
      announceClosed(lifted.userId, lifted.reopened, 'active');
      if (lifted.kind === 'review_hold') return;
      await settle('lift notification', [
        effects.notify(lifted.userId, {
          title: MODERATION_MESSAGES.liftedNotificationTitle,
          body: MODERATION_MESSAGES.liftedNotificationBody,
        }),
      ]);
    },

    /** Lifts suspensions whose end has passed (a periodic job on every node; each row is lifted once). */
    async sweep(): Promise<number> {
      const now = clock.now();
      let count = 0;
      for (const restrictionId of await restrictions.endedSuspensions(now)) {
        const lifted = await restrictions.lift({
          restrictionId,
          actor: undefined,
          audit: { action: 'lift', reason: 'Fin de la suspensión' },
          now,
        });
        if (!lifted) continue;
        count += 1;
        await this.afterLift(lifted);
      }
      return count;
    },
  };
}

/** An audit entry as the console shows it: the moderator's email, or who acted when none did. */
export function toAuditRecord(entry: AuditEntry) {
  return {
    id: entry.id,
    moderator: entry.moderatorEmail ?? (entry.action.startsWith('role_') ? 'Operador' : 'Sistema'),
    action: entry.action,
    targetUserId: entry.targetUserId,
    reportId: entry.reportId,
    restrictionId: entry.restrictionId,
    appealId: entry.appealId,
    reason: entry.reason,
    createdAt: entry.createdAt.toISOString(),
  };
}
