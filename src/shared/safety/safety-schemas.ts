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

const M = SAFETY_MESSAGES;

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
const UserIdSchema = v.pipe(v.string(M.invalidUser), v.regex(UUID_PATTERN, M.invalidUser), v.toLowerCase());

/** `POST /api/safety/blocks` */
export const BlockRequestSchema = v.strictObject(
  {
    userId: UserIdSchema,
    reason: v.optional(v.pipe(v.string(M.invalidReason), v.picklist(REPORT_REASONS, M.invalidReason))),
  },
  M.invalidUser,
);
export type BlockRequest = v.InferOutput<typeof BlockRequestSchema>;

/** `DELETE /api/safety/blocks/{userId}` */
export const BlockParamsSchema = v.object({ userId: UserIdSchema }, M.invalidUser);

/** `POST /api/safety/reports` */
export const ReportRequestSchema = v.strictObject(
  {
    userId: UserIdSchema,
    reason: v.picklist(REPORT_REASONS, M.invalidReason),
    details: v.optional(
      v.pipe(v.string(M.invalidDetails), v.trim(), v.maxLength(REPORT_DETAILS_MAX, M.detailsTooLong)),
    ),
    conversationId: v.optional(
      v.pipe(v.string(M.invalidConversation), v.regex(UUID_PATTERN, M.invalidConversation), v.toLowerCase()),
    ),
    block: v.optional(v.boolean(M.invalidBlockFlag)),
  },
  M.invalidReason,
);
export type ReportRequest = v.InferOutput<typeof ReportRequestSchema>;

/** `DELETE /api/account`: the password (accounts that have one), or the word ELIMINAR (Google-only accounts). */
export const DeleteAccountRequestSchema = v.strictObject(
  {
    password: v.optional(v.pipe(v.string(M.passwordRequired), v.maxLength(1024, M.wrongPassword))),
    confirmation: v.optional(v.pipe(v.string(M.deleteConfirmation), v.maxLength(64, M.deleteConfirmation))),
  },
  M.deleteConfirmation,
);
export type DeleteAccountRequest = v.InferOutput<typeof DeleteAccountRequestSchema>;

export type BlockedUser = { userId: string; name: string; photo: string | null; blockedAt: string };
export type BlockListResponse = { success: true; blocks: BlockedUser[] };

/** `GET /api/account/deletion`: what `DELETE /api/account` asks of this account. */
export type DeletionMethodResponse = { success: true; method: 'password' | 'confirmation' };
