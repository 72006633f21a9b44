import * as v from 'valibot';
import { REPORT_REASONS, type ReportReason } from '../safety/safety-schemas.ts';

/** Spanish texts of the moderation console and of appeals (docs/decisions/0033). */
export const MODERATION_MESSAGES = {
  invalidId: 'El identificador no es válido',
  invalidAction: 'Elige una acción: descartar, avisar, suspender o expulsar',
  invalidReason: 'Elige el motivo de la acción',
  noteRequired: 'Explica el motivo de la decisión (queda en el registro)',
  noteTooLong: 'La explicación no puede superar los 1000 caracteres',
  invalidDays: 'La suspensión dura entre 1 y 365 días',
  reportNotFound: 'Denuncia no encontrada',
  reportClosed: 'Esta denuncia ya está resuelta',
  restrictionNotFound: 'Sanción no encontrada',
  restrictionNotLive: 'Esta sanción ya no está en vigor',
  appealNotFound: 'Apelación no encontrada',
  appealClosed: 'Esta apelación ya está resuelta',
  invalidDecision: 'Elige si mantienes o levantas la sanción',
  appealTextRequired: 'Cuéntanos por qué crees que la decisión es un error',
  appealTextTooLong: 'La apelación no puede superar los 1000 caracteres',
  appealInvalid: 'El enlace de apelación no es válido o ha caducado. Vuelve a iniciar sesión para apelar.',
  appealAlreadySent: 'Ya has apelado esta decisión. Solo se puede apelar una vez.',
  appealSent: 'Apelación enviada. La revisaremos y te responderemos por correo o al iniciar sesión.',
  resolved: 'Denuncia resuelta',
  lifted: 'Sanción levantada',
  decided: 'Apelación resuelta',
  accountSuspended: (until: string) => `Tu cuenta está suspendida hasta el ${until}.`,
  accountBanned: 'Tu cuenta ha sido suspendida de forma permanente por incumplir las normas de la comunidad.',
  reporterNotificationTitle: 'Hemos revisado tu denuncia',
  reporterNotificationBody:
    'Gracias por ayudarnos a cuidar la comunidad. Hemos revisado tu denuncia y tomado las medidas oportunas.',
  warningNotificationTitle: 'Aviso de moderación',
  warningNotificationBody: 'Hemos revisado tu cuenta y te enviamos un aviso. Ábrelo para ver el motivo.',
  liftedNotificationTitle: 'Hemos revisado tu cuenta',
  liftedNotificationBody: 'La sanción sobre tu cuenta se ha levantado. Ya puedes usar Entreno con normalidad.',
} as const;

export const MODERATION_ROLES = ['moderator', 'admin'] as const;
export type ModerationRole = (typeof MODERATION_ROLES)[number];

export const MODERATION_ACTIONS = ['dismiss', 'warn', 'suspend', 'ban'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** What the console's buttons say. */
export const MODERATION_ACTION_LABELS: Record<ModerationAction, string> = {
  dismiss: 'Descartar',
  warn: 'Avisar',
  suspend: 'Suspender',
  ban: 'Expulsar',
};

export const RESTRICTION_KINDS = ['warning', 'suspension', 'ban', 'review_hold'] as const;
export type RestrictionKind = (typeof RESTRICTION_KINDS)[number];

export const RESTRICTION_KIND_LABELS: Record<RestrictionKind, string> = {
  warning: 'Aviso',
  suspension: 'Suspensión',
  ban: 'Expulsión',
  review_hold: 'Retirado de Conectar hasta revisión',
};

/** The audit log's actions, as the console names them. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  dismiss: 'Denuncia descartada',
  warn: 'Aviso',
  suspend: 'Suspensión',
  ban: 'Expulsión',
  lift: 'Sanción levantada',
  appeal_granted: 'Apelación aceptada',
  appeal_upheld: 'Apelación rechazada',
  review_hold: 'Retirado de Conectar (tres denuncias en 24 h)',
  role_granted: 'Rol concedido',
  role_removed: 'Rol retirado',
  verification_approved: 'Verificación aprobada',
  verification_rejected: 'Verificación rechazada',
  open_session_removed: 'Entreno abierto retirado',
};

export const MAX_NOTE_LENGTH = 1000;
export const MAX_SUSPENSION_DAYS = 365;

const Uuid = v.pipe(v.string(MODERATION_MESSAGES.invalidId), v.uuid(MODERATION_MESSAGES.invalidId));
const Note = v.pipe(
  v.string(MODERATION_MESSAGES.noteRequired),
  v.trim(),
  v.minLength(1, MODERATION_MESSAGES.noteRequired),
  v.maxLength(MAX_NOTE_LENGTH, MODERATION_MESSAGES.noteTooLong),
);

export const IdParamsSchema = v.strictObject({ id: Uuid });

/** `POST /api/moderation/reports/:id/resolve`: one action on the reported person. */
export const ResolveReportRequestSchema = v.pipe(
  v.strictObject({
    action: v.picklist(MODERATION_ACTIONS, MODERATION_MESSAGES.invalidAction),
    reason: v.optional(v.picklist(REPORT_REASONS, MODERATION_MESSAGES.invalidReason)),
    note: Note,
    days: v.optional(
      v.pipe(
        v.number(MODERATION_MESSAGES.invalidDays),
        v.integer(MODERATION_MESSAGES.invalidDays),
        v.minValue(1, MODERATION_MESSAGES.invalidDays),
        v.maxValue(MAX_SUSPENSION_DAYS, MODERATION_MESSAGES.invalidDays),
      ),
    ),
  }),
  v.check((input) => input.action === 'dismiss' || input.reason !== undefined, MODERATION_MESSAGES.invalidReason),
  v.check((input) => (input.action === 'suspend') === (input.days !== undefined), MODERATION_MESSAGES.invalidDays),
);
export type ResolveReportRequest = v.InferOutput<typeof ResolveReportRequestSchema>;

/** `POST /api/moderation/restrictions/:id/lift`. */
export const LiftRequestSchema = v.strictObject({ note: Note });
export type LiftRequest = v.InferOutput<typeof LiftRequestSchema>;

/** `POST /api/moderation/appeals/:id/decide`. */
export const DecideAppealRequestSchema = v.strictObject({
  decision: v.picklist(['grant', 'uphold'], MODERATION_MESSAGES.invalidDecision),
  note: Note,
});
export type DecideAppealRequest = v.InferOutput<typeof DecideAppealRequestSchema>;

/** `GET /api/moderation/audit?before&userId`. */
export const AuditQuerySchema = v.strictObject({
  before: v.optional(
    v.pipe(
      v.string(MODERATION_MESSAGES.invalidId),
      v.regex(/^\d{1,15}$/, MODERATION_MESSAGES.invalidId),
      v.transform(Number),
    ),
  ),
  userId: v.optional(Uuid),
});

const AppealText = v.pipe(
  v.string(MODERATION_MESSAGES.appealTextRequired),
  v.trim(),
  v.minLength(1, MODERATION_MESSAGES.appealTextRequired),
  v.maxLength(MAX_NOTE_LENGTH, MODERATION_MESSAGES.appealTextTooLong),
);

/**
 * `POST /api/appeals`: signed in (a warning: `restrictionId`), or from the login screen of a
 * suspended or banned account (`appealToken`, handed out by the refused sign-in).
 */
export const AppealRequestSchema = v.union(
  [
    v.strictObject({
      appealToken: v.pipe(
        v.string(MODERATION_MESSAGES.appealInvalid),
        v.maxLength(4096, MODERATION_MESSAGES.appealInvalid),
      ),
      text: AppealText,
    }),
    v.strictObject({ restrictionId: Uuid, text: AppealText }),
  ],
  MODERATION_MESSAGES.appealTextRequired,
);
export type AppealRequest = v.InferOutput<typeof AppealRequestSchema>;

export const NoticeSeenRequestSchema = v.strictObject({ restrictionId: Uuid });

export type ModeratorMe = { success: true; role: ModerationRole; name: string; email: string };

/** A person as the console shows them. */
export type ModerationPerson = {
  userId: string;
  name: string;
  email: string;
  age: number | null;
  city: string | null;
  bio: string | null;
  photos: string[];
  isDeleted: boolean;
  /** Whether the profile is in decks now (false while suspended, banned or held). */
  isInDecks: boolean;
};

/** What a report is about besides the person (docs/decisions/0056, amendment of session 17). */
export type ReportSubject = 'person' | 'chat' | 'openSession' | 'groupMember' | 'groupMessage';

/** What the console says each subject is. */
export const REPORT_SUBJECT_LABELS: Record<ReportSubject, string> = {
  person: 'Perfil',
  chat: 'Desde un chat',
  openSession: 'Entreno abierto',
  groupMember: 'Miembro de un grupo',
  groupMessage: 'Mensaje en un grupo',
};

export type ReportSummary = {
  id: string;
  reason: ReportReason;
  details: string | null;
  subject: ReportSubject;
  conversationId: string | null;
  openSessionId: string | null;
  /** The group message reported, as it read when reported. */
  message: { id: string; text: string | null } | null;
  status: 'open' | 'closed';
  resolution: string | null;
  createdAt: string;
  reporter: { userId: string; name: string } | null;
};

export type RestrictionSummary = {
  id: string;
  kind: RestrictionKind;
  reason: string;
  createdAt: string;
  endsAt: string | null;
  liftedAt: string | null;
  isLive: boolean;
  appeal: { id: string; text: string; status: 'open' | 'upheld' | 'granted'; createdAt: string } | null;
};

export type ReportQueueItem = ReportSummary & {
  reported: { userId: string; name: string; photo: string | null } | null;
  openReportsAboutPerson: number;
  isHeld: boolean;
};
export type AppealQueueItem = {
  id: string;
  text: string;
  createdAt: string;
  person: { userId: string; name: string };
  restriction: RestrictionSummary;
};

export type ModerationQueue = { success: true; reports: ReportQueueItem[]; appeals: AppealQueueItem[] };

export type ReportedOpenSession = {
  id: string;
  activity: string;
  gymName: string;
  gymAddress: string | null;
  startsAt: string;
  durationMin: number;
  note: string | null;
  status: 'open' | 'cancelled' | 'removed';
  places: number;
  taken: number;
};

export type ReportedMessage = { id: string; senderId: string; senderName: string; text: string; timestamp: string };

export type ReportDetail = {
  success: true;
  report: ReportSummary;
  reported: ModerationPerson | null;
  /** The conversation's last messages up to the report, when it came from a chat (a group's too). */
  messages: ReportedMessage[];
  /** The open session reported, as it stands (a moderator may remove it from here). */
  openSession: ReportedOpenSession | null;
  earlierReports: ReportSummary[];
  restrictions: RestrictionSummary[];
  audit: AuditRecord[];
};

export type AuditRecord = {
  id: number;
  moderator: string;
  action: string;
  targetUserId: string | null;
  reportId: string | null;
  restrictionId: string | null;
  appealId: string | null;
  reason: string;
  createdAt: string;
};
export type AuditList = { success: true; entries: AuditRecord[]; nextBefore: number | null };

/** The refused sign-in of a suspended or banned account (403, errorType ACCOUNT_RESTRICTED). */
export type RestrictedAccount = {
  kind: 'suspension' | 'ban';
  reason: string;
  endsAt: string | null;
  canAppeal: boolean;
  appealToken: string | null;
};

/** `GET /api/appeals/notice`: an unseen warning for the signed-in person, or null. */
export type ModerationNotice = {
  success: true;
  notice: { restrictionId: string; reason: string; createdAt: string; canAppeal: boolean } | null;
};
