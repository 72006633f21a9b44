import { useParams } from '@tanstack/react-router';
import { AuditLog, ModerationLayout, ModerationQueue, ReportDetail } from '../features/moderation/index.ts';
import { VerificationQueue } from '../features/verification/index.ts';

/** The console's frame (docs/decisions/0033); the router's guard has already refused non-moderators with the 404 page. */
export function ModerationLayoutRoute() {
  return <ModerationLayout />;
}

/** `/moderacion`: open reports and appeals. */
export function ModerationQueuePage() {
  return <ModerationQueue />;
}

/** `/moderacion/registro`: the audit log. */
export function ModerationAuditPage() {
  return <AuditLog />;
}

/** `/moderacion/verificaciones`: verification selfies and re-checks (docs/decisions/0034). */
export function ModerationVerificationsPage() {
  return <VerificationQueue />;
}

/** `/moderacion/denuncias/$reportId`: one report, its evidence, the decision. */
export function ModerationReportPage() {
  const { reportId } = useParams({ from: '/moderation/moderacion/denuncias/$reportId' });
  return <ReportDetail key={reportId} reportId={reportId} />;
}
