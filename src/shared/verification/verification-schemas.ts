import * as v from 'valibot';
import { VERIFICATION_POSES } from './verification-poses.ts';
import { VERIFICATION_STATUSES } from './verification-state.ts';

/** Spanish texts of the verification calls and of the review's outcome. */
export const VERIFICATION_MESSAGES = {
  noProfile: 'Crea tu perfil antes de verificarlo',
  noPhotos: 'Añade al menos una foto de perfil en la que se te vea la cara',
  alreadyPending: 'Ya tienes una solicitud de verificación en revisión',
  alreadyVerified: 'Tu perfil ya está verificado',
  challengeMissing: 'La pose ha caducado. Vuelve a empezar la verificación.',
  selfieMissing: 'Añade tu selfie',
  selfieTooLarge: 'La imagen es demasiado grande. El tamaño máximo permitido es 5MB.',
  selfieFormat: 'Formato de imagen no soportado. Utiliza JPG, PNG o WEBP.',
  selfieTooManyPixels: 'La imagen tiene demasiados píxeles. Usa una foto más pequeña.',
  rateLimited: 'Has enviado demasiadas solicitudes. Inténtalo de nuevo más tarde.',
  submitted: 'Solicitud enviada. La revisaremos en 24-48 horas.',
  requestNotFound: 'Solicitud de verificación no encontrada',
  alreadyReviewed: 'Esta solicitud ya se ha revisado',
  ownRequest: 'Otra persona del equipo de moderación debe revisar tu propia solicitud',
  photosChanged: 'Las fotos del perfil han cambiado. Vuelve a cargar la solicitud antes de decidir.',
  invalidReason: 'Elige un motivo de rechazo válido',
  noteRequired: 'Explica el motivo del rechazo',
  noteTooLong: 'La explicación no puede superar los 300 caracteres',
  invalidPhotoKeys: 'La lista de fotos revisadas no es válida',
  invalidRequest: 'La solicitud indicada no es válida',
  approved: 'Verificación aprobada',
  auditSelfieApproved: 'El selfie coincide con la pose pedida y con las fotos del perfil',
  auditRecheckApproved: 'Las fotos nuevas son de la misma persona verificada',
  rejected: 'Verificación rechazada',
  approvedTitle: 'Perfil verificado',
  approvedBody: 'Hemos revisado tu selfie: tu perfil ya muestra la insignia de verificado.',
  recheckApprovedBody: 'Hemos revisado tus fotos nuevas: tu insignia de verificado vuelve a mostrarse.',
  rejectedTitle: 'Verificación no aprobada',
  rejectedBody: (reason: string) =>
    `No hemos podido verificar tu perfil. ${reason} Puedes intentarlo de nuevo desde Configuración.`,
} as const;

/** The reasons a moderator can give; the person reads the text (plus the moderator's note, if any). */
export const REJECTION_REASONS = ['pose', 'face', 'mismatch', 'photos', 'other'] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export const REJECTION_REASON_TEXTS: Record<RejectionReason, string> = {
  pose: 'La pose del selfie no es la que te pedimos.',
  face: 'En el selfie no se te ve bien la cara.',
  mismatch: 'La persona del selfie no parece la de tus fotos de perfil.',
  photos: 'Tus fotos de perfil no muestran tu cara con claridad.',
  other: 'Hay un problema con tu solicitud.',
};

/** The moderator's labels for each reason. */
export const REJECTION_REASON_LABELS: Record<RejectionReason, string> = {
  pose: 'La pose no coincide',
  face: 'No se ve bien la cara',
  mismatch: 'No es la persona de las fotos',
  photos: 'Las fotos del perfil no muestran la cara',
  other: 'Otro motivo',
};

export const REJECTION_NOTE_MAX = 300;
/** How long a chosen pose can be used for the selfie. */
export const POSE_CHALLENGE_TTL_MS = 15 * 60_000;

/** The text the person reads: the reason's, then the moderator's note. */
export function rejectionText(reason: RejectionReason, note?: string | null): string {
  const trimmed = note?.trim();
  if (reason === 'other' && trimmed) return trimmed.endsWith('.') ? trimmed : `${trimmed}.`;
  const base = REJECTION_REASON_TEXTS[reason];
  if (!trimmed) return base;
  return `${base} ${trimmed.endsWith('.') ? trimmed : `${trimmed}.`}`;
}

const PoseSchema = v.picklist(VERIFICATION_POSES);
const IsoDate = v.string();

/** `GET /api/verification` (and the answers of the calls that change it): the owner's view. */
export const VerificationStateSchema = v.object({
  status: v.picklist(VERIFICATION_STATUSES),
  /** Why the last review said no (status rejected). */
  reason: v.nullable(v.string()),
  /** The pose to copy, when one was chosen and is still valid. */
  pose: v.nullable(PoseSchema),
  verifiedAt: v.nullable(IsoDate),
  updatedAt: v.nullable(IsoDate),
});
export type VerificationState = v.InferOutput<typeof VerificationStateSchema>;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const VerificationRequestParamsSchema = v.object(
  {
    id: v.pipe(
      v.string(VERIFICATION_MESSAGES.invalidRequest),
      v.regex(UUID_PATTERN, VERIFICATION_MESSAGES.invalidRequest),
      v.toLowerCase(),
    ),
  },
  VERIFICATION_MESSAGES.invalidRequest,
);

/** `POST /api/moderation/verifications/{id}/approve`: the profile photos the moderator saw. */
export const ApproveVerificationSchema = v.strictObject(
  {
    photoKeys: v.pipe(
      v.array(
        v.pipe(
          v.string(VERIFICATION_MESSAGES.invalidPhotoKeys),
          v.maxLength(200, VERIFICATION_MESSAGES.invalidPhotoKeys),
        ),
        VERIFICATION_MESSAGES.invalidPhotoKeys,
      ),
      v.maxLength(6, VERIFICATION_MESSAGES.invalidPhotoKeys),
    ),
  },
  VERIFICATION_MESSAGES.invalidPhotoKeys,
);

/** `POST /api/moderation/verifications/{id}/reject` */
export const RejectVerificationSchema = v.pipe(
  v.strictObject(
    {
      reason: v.picklist(REJECTION_REASONS, VERIFICATION_MESSAGES.invalidReason),
      note: v.optional(
        v.pipe(
          v.string(VERIFICATION_MESSAGES.noteTooLong),
          v.trim(),
          v.maxLength(REJECTION_NOTE_MAX, VERIFICATION_MESSAGES.noteTooLong),
        ),
      ),
    },
    VERIFICATION_MESSAGES.invalidReason,
  ),
  v.check((input) => input.reason !== 'other' || (input.note ?? '').length > 0, VERIFICATION_MESSAGES.noteRequired),
);
export type RejectVerificationInput = v.InferOutput<typeof RejectVerificationSchema>;

/** One entry of the moderators' queue. */
export const VerificationQueueItemSchema = v.object({
  id: v.string(),
  kind: v.picklist(['selfie', 'recheck']),
  userId: v.string(),
  name: v.string(),
  age: v.nullable(v.number()),
  pose: v.nullable(PoseSchema),
  createdAt: IsoDate,
  /** The profile's photos now (what the approval covers). */
  photoKeys: v.array(v.string()),
  /** For a re-check: the photos approved before (those still on the profile are marked). */
  approvedPhotoKeys: v.array(v.string()),
  hasSelfie: v.boolean(),
});
export type VerificationQueueItem = v.InferOutput<typeof VerificationQueueItemSchema>;

export const VerificationQueueSchema = v.object({
  success: v.literal(true),
  requests: v.array(VerificationQueueItemSchema),
});
export type VerificationQueue = v.InferOutput<typeof VerificationQueueSchema>;
