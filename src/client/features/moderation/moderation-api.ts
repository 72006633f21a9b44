/** The moderation console's calls (docs/decisions/0033); every one answers 404 to non-moderators. */
import type {
  AppealRequest,
  AuditList,
  ModerationNotice,
  DecideAppealRequest,
  LiftRequest,
  ModerationQueue,
  ModeratorMe,
  ReportDetail,
  ResolveReportRequest,
} from '#shared/moderation/moderation-schemas';
import { requestJson } from '../../services/http.ts';

type Done = { success: true; message: string };

export const moderationApi = {
  me: () => requestJson<ModeratorMe>('moderation/me'),
  queue: () => requestJson<ModerationQueue>('moderation/queue'),
  report: (reportId: string) => requestJson<ReportDetail>(`moderation/reports/${encodeURIComponent(reportId)}`),
  resolve: (reportId: string, body: ResolveReportRequest) =>
    requestJson<Done>(`moderation/reports/${encodeURIComponent(reportId)}/resolve`, { method: 'post', json: body }),
  lift: (restrictionId: string, body: LiftRequest) =>
    requestJson<Done>(`moderation/restrictions/${encodeURIComponent(restrictionId)}/lift`, {
      method: 'post',
      json: body,
    }),
  decideAppeal: (appealId: string, body: DecideAppealRequest) =>
    requestJson<Done>(`moderation/appeals/${encodeURIComponent(appealId)}/decide`, { method: 'post', json: body }),
  /** The person acted on (not the console): their one appeal, the warning notice. */
  appeal: (body: AppealRequest) => requestJson<Done>('appeals', { method: 'post', json: body }),
  notice: () => requestJson<ModerationNotice>('appeals/notice'),
  noticeSeen: (restrictionId: string) =>
    requestJson<{ success: true }>('appeals/notice/seen', { method: 'post', json: { restrictionId } }),
  /** A moderator's removal of an open session (docs/decisions/0055): idempotent by its clientId. */
  removeOpenSession: (sessionId: string) =>
    requestJson<{ success: true }>(`open-sessions/${encodeURIComponent(sessionId)}/moderation/remove`, {
      method: 'post',
      json: { clientId: crypto.randomUUID() },
    }),
  audit: (before?: number) =>
    requestJson<AuditList>('moderation/audit', {
      searchParams: before === undefined ? {} : { before: String(before) },
    }),
};
