import * as v from 'valibot';

/** Spanish texts of the safety calls (blocks, reports, export, account deletion). */
export const SAFETY_MESSAGES = {
  invalidUser: 'El usuario indicado no es válido',
  cannotBlockSelf: 'No puedes bloquearte a ti mismo',
  cannotReportSelf: 'No puedes denunciarte a ti mismo',
  userNotFound: 'Usuario no encontrado',
  blockNotFound: 'No has bloqueado a este usuario',
  blocked: 'Usuario bloqueado',
  unblocked: 'Usuario desbloqueado',
  invalidReason: 'El motivo de la denuncia no es válido',
  detailsTooLong: 'Los detalles no pueden superar los 1000 caracteres',
  invalidDetails: 'Los detalles deben ser un texto',
  invalidConversation: 'La conversación indicada no es válida',
  invalidBlockFlag: 'El valor de bloquear debe ser verdadero o falso',
  invalidSession: 'El entreno indicado no es válido',
  invalidMessage: 'El mensaje indicado no es válido',
  invalidClientId: 'El identificador de la petición no es válido',
  reportTargetRequired: 'Indica a quién, qué entreno o qué mensaje denuncias',
  messageNeedsGroup: 'Solo se puede denunciar un mensaje desde el chat de un grupo',
  notInGroup: 'Esa persona no está en este grupo',
  messageNotFound: 'Mensaje no encontrado',
  reported: 'Denuncia enviada. La revisaremos lo antes posible.',
  reportRateLimited: 'Has enviado demasiadas denuncias. Inténtalo de nuevo más tarde.',
  blockRateLimited: 'Demasiadas acciones de bloqueo. Inténtalo de nuevo más tarde.',
  deleteConfirmation: 'Escribe ELIMINAR para confirmar, o introduce tu contraseña',
  passwordRequired: 'Introduce tu contraseña para eliminar la cuenta',
  wrongPassword: 'La contraseña no es correcta',
  deleteRateLimited: 'Demasiados intentos. Inténtalo de nuevo más tarde.',
  accountDeleted: 'Tu cuenta y tus datos se han eliminado',
  exportRateLimited: 'Has pedido tus datos demasiadas veces. Inténtalo de nuevo más tarde.',
} as const;

export const REPORT_REASONS = ['fake_profile', 'harassment', 'spam', 'inappropriate', 'underage', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What the user reads next to each reason. */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  fake_profile: 'Perfil falso',
  harassment: 'Acoso',
  spam: 'Spam o venta',
  inappropriate: 'Contenido inapropiado',
  underage: 'Menor de edad',
  other: 'Otro',
};

export const REPORT_DETAILS_MAX = 1000;
export const DELETE_CONFIRMATION_WORD = 'ELIMINAR';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UserIdSchema = v.pipe(
  v.string(SAFETY_MESSAGES.invalidUser),
  v.regex(UUID_PATTERN, SAFETY_MESSAGES.invalidUser),
  v.toLowerCase(),
);

/** `POST /api/safety/blocks` */
export const BlockRequestSchema = v.strictObject(
  {
    userId: UserIdSchema,
    reason: v.optional(
      v.pipe(v.string(SAFETY_MESSAGES.invalidReason), v.picklist(REPORT_REASONS, SAFETY_MESSAGES.invalidReason)),
    ),
  },
  SAFETY_MESSAGES.invalidUser,
);
export type BlockRequest = v.InferOutput<typeof BlockRequestSchema>;

/** `DELETE /api/safety/blocks/{userId}` */
export const BlockParamsSchema = v.object({ userId: UserIdSchema }, SAFETY_MESSAGES.invalidUser);

const uuidOf = (message: string) => v.pipe(v.string(message), v.regex(UUID_PATTERN, message), v.toLowerCase());

/**
 * `POST /api/safety/reports`: a person (`userId`), optionally from a chat (`conversationId`); an
 * open session (`openSessionId`: its host is the person reported); a group chat's member (`userId`
 * with the group's `conversationId`) or message (`messageId`, its author reported). `clientId` is
 * the outbox's: a replay stores no second report (docs/decisions/0056, amendment of session 17).
 */
export const ReportRequestSchema = v.pipe(
  v.strictObject(
    {
      userId: v.optional(UserIdSchema),
      reason: v.picklist(REPORT_REASONS, SAFETY_MESSAGES.invalidReason),
      details: v.optional(
        v.pipe(
          v.string(SAFETY_MESSAGES.invalidDetails),
          v.trim(),
          v.maxLength(REPORT_DETAILS_MAX, SAFETY_MESSAGES.detailsTooLong),
        ),
      ),
      conversationId: v.optional(uuidOf(SAFETY_MESSAGES.invalidConversation)),
      openSessionId: v.optional(uuidOf(SAFETY_MESSAGES.invalidSession)),
      messageId: v.optional(uuidOf(SAFETY_MESSAGES.invalidMessage)),
      clientId: v.optional(uuidOf(SAFETY_MESSAGES.invalidClientId)),
      block: v.optional(v.boolean(SAFETY_MESSAGES.invalidBlockFlag)),
    },
    SAFETY_MESSAGES.invalidReason,
  ),
  v.check(
    (input) => input.userId !== undefined || input.openSessionId !== undefined || input.messageId !== undefined,
    SAFETY_MESSAGES.reportTargetRequired,
  ),
  v.check(
    (input) => input.messageId === undefined || input.conversationId !== undefined,
    SAFETY_MESSAGES.messageNeedsGroup,
  ),
);
export type ReportRequest = v.InferOutput<typeof ReportRequestSchema>;

/** `DELETE /api/account`: the password (accounts that have one), or the word ELIMINAR (Google-only accounts). */
export const DeleteAccountRequestSchema = v.strictObject(
  {
    password: v.optional(
      v.pipe(v.string(SAFETY_MESSAGES.passwordRequired), v.maxLength(1024, SAFETY_MESSAGES.wrongPassword)),
    ),
    confirmation: v.optional(
      v.pipe(v.string(SAFETY_MESSAGES.deleteConfirmation), v.maxLength(64, SAFETY_MESSAGES.deleteConfirmation)),
    ),
  },
  SAFETY_MESSAGES.deleteConfirmation,
);
export type DeleteAccountRequest = v.InferOutput<typeof DeleteAccountRequestSchema>;

export type BlockedUser = { userId: string; name: string; photo: string | null; blockedAt: string };
export type BlockListResponse = { success: true; blocks: BlockedUser[] };

/** `GET /api/account/deletion`: what `DELETE /api/account` asks of this account. */
export type DeletionMethodResponse = { success: true; method: 'password' | 'confirmation' };
