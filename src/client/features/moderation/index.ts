/** The moderation console (docs/decisions/0033): its frame, queues, audit log and the moderators-only link. */
export { AuditLog } from './audit-log.tsx';
export { checkModeratorAccess, useModeratorAccess } from './moderator-access.ts';
export { ModerationConsoleLink, ModerationLayout } from './moderation-layout.tsx';
export { ModerationNoticeDialog } from './moderation-notice.tsx';
export { ModerationQueue } from './moderation-queue.tsx';
export { ReportDetail } from './report-detail.tsx';
export { RestrictedAccountPanel } from './restricted-account-panel.tsx';
