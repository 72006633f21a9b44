/**
 * Reports of an open session or a group chat go through the outbox (docs/decisions/0056, amendment
 * of session 17): written on the device at once (offline too), sent with their clientId so a
 * replay — by this page or by the service worker — stores one report. A refusal (the session is
 * gone, the person is no longer in the group) is told once and the item goes: there is nothing to
 * retry.
 */
import type { ReportRequest } from '#shared/safety/safety-schemas';
import { outbox } from '../../services/offline.ts';
import { toast } from '../../ui/toast-store.ts';

export const REPORT_FAILED = 'No se pudo enviar la denuncia. Inténtalo de nuevo.';

/** Queues a report; false when nobody is signed in. Each report is its own scope: none waits for another. */
export function queueReport(body: Omit<ReportRequest, 'clientId'>): Promise<boolean> {
  const clientId = crypto.randomUUID();
  return outbox.enqueue({
    kind: 'report',
    scope: `report:${clientId}`,
    clientId,
    request: { method: 'POST', path: 'safety/reports', json: { ...body, clientId } },
  });
}

let isStarted = false;

/** Once at start-up: how a refused report is told. */
export function startReportOutbox(): void {
  if (isStarted) return;
  isStarted = true;
  outbox.register('report', {
    async fail(db, item) {
      // The row already carries the server's words (the outbox stored them in this transaction).
      const stored = await db.outbox.get(item.id as number);
      await db.outbox.delete(item.id as number);
      const message = stored?.lastError;
      queueMicrotask(() => toast.error(message ? `No se pudo enviar la denuncia: ${message}` : REPORT_FAILED));
    },
  });
}
