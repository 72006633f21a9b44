/**
 * What the safety buttons do (docs/decisions/0012): block, report, download my data and delete my
 * account, over injected dependencies so the rules are tested without a browser. The screens that
 * host the buttons decide what happens around them (the deck drops the person, the chat goes
 * back to /messages) through the callbacks the route hands in.
 */
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import {
  type DeleteAccountRequest,
  type ReportReason,
  SAFETY_MESSAGES,
  REPORT_DETAILS_MAX,
} from '#shared/safety/safety-schemas';
import { madridDayKey } from '#shared/time/madrid-calendar';
import { ApiRequestError } from '../../services/http.ts';
import { networkStatus } from '../../services/offline.ts';
import { signOut } from '../../services/session.ts';
import { dismissToast, toast, toastState } from '../../ui/toast-store.ts';
import { queueReport } from './report-outbox.ts';
import { type SafetyApi, safetyApi } from './safety-api.ts';

/** The window event the matches list and the navigation count refresh on (same name in discovery). */
export const MATCHES_CHANGED_EVENT = 'matches-changed';

export const SAFETY_TEXTS = {
  blockFailed: 'No se pudo bloquear. Inténtalo de nuevo.',
  reportFailed: 'No se pudo enviar la denuncia. Inténtalo de nuevo.',
  reportSentAndBlocked: 'Denuncia enviada. No volveréis a veros en Entreno.',
  reportQueued: 'Denuncia guardada: se enviará en cuanto vuelva la conexión.',
  exportFailed: 'No se pudieron descargar tus datos. Inténtalo de nuevo.',
  exportDone: 'Tus datos se han descargado',
  deleteFailed: 'No se pudo eliminar la cuenta. Inténtalo de nuevo.',
  blocked: (name: string) => `Has bloqueado a ${name}`,
} as const;

/** Who a block or report is about; `conversationId` when it is made from a chat. */
export type SafetyTarget = { userId: string; name: string; conversationId?: string };

/**
 * What a report is about: a person (a profile, a chat), an open session (`openSessionId`: its host,
 * named `name`), or a group chat's member (`groupId` + `userId`) or message (+ `messageId`). The
 * last two kinds go through the outbox (docs/decisions/0056, amendment of session 17).
 */
export type ReportTarget = {
  name: string;
  userId?: string;
  conversationId?: string;
  openSessionId?: string;
  groupId?: string;
  messageId?: string;
};

export type ReportInput = { reason: ReportReason; details: string; alsoBlock: boolean };

export type Outcome = { status: 'done' } | { status: 'failed'; message: string };

export type SafetyDependencies = {
  api: Pick<SafetyApi, 'block' | 'report' | 'exportData' | 'deleteAccount'>;
  /** Puts a report of a session or a group in the outbox (false: nobody signed in). */
  queueReport(body: ReturnType<typeof reportBody>): Promise<boolean>;
  isOnline(): boolean;
  notify: { success(message: string): void; error(message: string): void };
  /** Tells the matches list and count that a match may be gone. */
  announceMatchesChanged(): void;
  /** Saves `text` as a file on the device. */
  saveFile(fileName: string, text: string): void;
  /** The app's sign-out (services/session.ts): wipes IndexedDB, the outbox and push, then /login. */
  signOut(): Promise<void>;
  /** Drops the "session ended" toast a revoked socket may have shown while the account was deleted. */
  dismissSessionEndedToast(): void;
  now(): Date;
};

function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.kind === 'http' && error.message ? error.message : fallback;
}

/** `entreno-mis-datos-YYYY-MM-DD.json`, the day in Madrid (the app's calendar). */
export function exportFileName(now: Date): string {
  return `entreno-mis-datos-${madridDayKey(now)}.json`;
}

/** The report body: details trimmed and left out when empty, the conversation, session or message when known. */
export function reportBody(target: ReportTarget, input: ReportInput) {
  const details = input.details.trim().slice(0, REPORT_DETAILS_MAX);
  const conversationId = target.groupId ?? target.conversationId;
  return {
    ...(target.userId ? { userId: target.userId } : {}),
    reason: input.reason,
    ...(details ? { details } : {}),
    ...(conversationId ? { conversationId } : {}),
    ...(target.openSessionId ? { openSessionId: target.openSessionId } : {}),
    ...(target.messageId ? { messageId: target.messageId } : {}),
    ...(input.alsoBlock ? { block: true } : {}),
  };
}

/** Whether a report goes through the outbox (a session's or a group's) rather than straight to the server. */
export const isQueuedReport = (target: ReportTarget) => Boolean(target.openSessionId || target.groupId);

export function createSafetyActions(deps: SafetyDependencies) {
  return {
    /** Blocks the person; on success a toast confirms and the matches refresh. */
    async block(target: SafetyTarget): Promise<Outcome> {
      try {
        await deps.api.block(target.userId);
      } catch (error) {
        const message = messageOf(error, SAFETY_TEXTS.blockFailed);
        deps.notify.error(message);
        return { status: 'failed', message };
      }
      deps.notify.success(SAFETY_TEXTS.blocked(target.name));
      deps.announceMatchesChanged();
      return { status: 'done' };
    },

    /**
     * Sends a report (and blocks too when asked). A failure is returned for the dialog to show. A
     * session's or a group's report is queued instead: it is done once on the device, offline too.
     */
    async report(target: ReportTarget, input: ReportInput): Promise<Outcome> {
      if (isQueuedReport(target)) {
        if (!(await deps.queueReport(reportBody(target, input)))) {
          return { status: 'failed', message: SAFETY_TEXTS.reportFailed };
        }
        if (!deps.isOnline()) {
          deps.notify.success(SAFETY_TEXTS.reportQueued);
          return { status: 'done' };
        }
      } else {
        try {
          await deps.api.report(reportBody(target, input));
        } catch (error) {
          return { status: 'failed', message: messageOf(error, SAFETY_TEXTS.reportFailed) };
        }
      }
      if (input.alsoBlock) {
        deps.notify.success(SAFETY_TEXTS.reportSentAndBlocked);
        deps.announceMatchesChanged();
      } else {
        deps.notify.success(SAFETY_MESSAGES.reported);
      }
      return { status: 'done' };
    },

    /** "Descargar mis datos": the export saved as a JSON file. */
    async downloadMyData(): Promise<Outcome> {
      try {
        const text = await deps.api.exportData();
        deps.saveFile(exportFileName(deps.now()), text);
      } catch (error) {
        const message = messageOf(error, SAFETY_TEXTS.exportFailed);
        deps.notify.error(message);
        return { status: 'failed', message };
      }
      deps.notify.success(SAFETY_TEXTS.exportDone);
      return { status: 'done' };
    },

    /**
     * "Eliminar mi cuenta": the server deletes it (and revokes every session, so this tab's socket
     * may already have started the sign-out); then the local sign-out wipes this browser and goes
     * to /login, where one toast says what happened. A refusal is returned for the dialog.
     */
    async deleteMyAccount(body: DeleteAccountRequest): Promise<Outcome> {
      let message: string;
      try {
        message = (await deps.api.deleteAccount(body)).message;
      } catch (error) {
        return { status: 'failed', message: messageOf(error, SAFETY_TEXTS.deleteFailed) };
      }
      await deps.signOut();
      deps.dismissSessionEndedToast();
      deps.notify.success(message || SAFETY_MESSAGES.accountDeleted);
      return { status: 'done' };
    },
  };
}

export type SafetyActions = ReturnType<typeof createSafetyActions>;

/** Saves a text file through a temporary object URL and a download link. */
function saveFileInBrowser(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start reading the blob before it goes.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export const safetyActions: SafetyActions = createSafetyActions({
  api: safetyApi,
  queueReport,
  isOnline: networkStatus.getSnapshot,
  notify: { success: (message) => toast.success(message), error: (message) => toast.error(message) },
  announceMatchesChanged: () => window.dispatchEvent(new Event(MATCHES_CHANGED_EVENT)),
  saveFile: saveFileInBrowser,
  signOut: () => signOut('user'),
  dismissSessionEndedToast: () => {
    for (const shown of [...toastState.toasts]) {
      if (shown.message === AUTH_MESSAGES.sessionEnded) dismissToast(shown.id);
    }
  },
  now: () => new Date(),
});
