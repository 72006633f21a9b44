/**
 * «Compartir con alguien de confianza» (issue #35, docs/decisions/0054): the person shares one of
 * their quedadas with a trusted contact through an unguessable, revocable link that expires after
 * the session, and may ask for a check-in «¿Todo bien?» at a time they pick.
 */
import * as v from 'valibot';
import { QuedadaClientIdSchema } from './quedada-schemas.ts';

export const SHARE_MESSAGES = {
  invalidShare: 'Los datos para compartir no son válidos',
  invalidToken: 'El enlace para compartir no es válido',
  checkInAt: 'Elige una hora de aviso entre ahora y el final del entreno',
  invalidAnswer: 'La respuesta debe ser «Todo bien» o «Necesito ayuda»',
  notShareable: 'Solo puedes compartir una quedada aceptada que no haya terminado',
  shareNotFound: 'Enlace no encontrado',
  publicNotFound: 'Este enlace no existe, se ha revocado o ya ha caducado',
  noCheckIn: 'Este enlace no tiene aviso «¿Todo bien?»',
  revoked: 'Este enlace ya está revocado',
  rateLimited: 'Demasiadas consultas seguidas. Espera un momento',
} as const;

/** The link's secret: 32 random bytes in base64url, made by the client (the outbox replays it). */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** How long the page stays readable after the session ends. */
export const SHARE_GRACE_MS = 3 * 3600_000;
/** A check-in with no answer this long after its time shows as «Sin respuesta». */
export const CHECK_IN_ANSWER_WINDOW_MS = 30 * 60_000;

export const CreateShareRequestSchema = v.strictObject(
  {
    clientId: QuedadaClientIdSchema,
    token: v.pipe(v.string(SHARE_MESSAGES.invalidToken), v.regex(SHARE_TOKEN_PATTERN, SHARE_MESSAGES.invalidToken)),
    checkInAt: v.nullable(
      v.pipe(
        v.string(SHARE_MESSAGES.checkInAt),
        v.maxLength(40, SHARE_MESSAGES.checkInAt),
        v.check((value) => !Number.isNaN(Date.parse(value)), SHARE_MESSAGES.checkInAt),
      ),
    ),
  },
  SHARE_MESSAGES.invalidShare,
);
export type CreateShareRequest = v.InferOutput<typeof CreateShareRequestSchema>;

export const CHECK_IN_ANSWERS = ['ok', 'help'] as const;
export type CheckInAnswer = (typeof CHECK_IN_ANSWERS)[number];

export const CheckInAnswerRequestSchema = v.strictObject(
  { clientId: QuedadaClientIdSchema, answer: v.picklist(CHECK_IN_ANSWERS, SHARE_MESSAGES.invalidAnswer) },
  SHARE_MESSAGES.invalidShare,
);
export const RevokeShareRequestSchema = v.strictObject(
  { clientId: QuedadaClientIdSchema },
  SHARE_MESSAGES.invalidShare,
);

/** The check-in as both the person and the page see it. */
export type CheckIn = {
  at: string;
  answer: CheckInAnswer | null;
  answeredAt: string | null;
  /** pending: before its time or still answerable; answered; missed: no answer in time. */
  state: 'pending' | 'answered' | 'missed';
};

/** A share as its owner sees it (never the token: only its hash is stored). */
export type QuedadaShare = {
  _id: string;
  /** What is shared: a quedada, or an open session (exactly one of the two). */
  quedadaId: string | null;
  sessionId: string | null;
  expiresAt: string;
  revokedAt: string | null;
  checkIn: CheckIn | null;
  createdAt: string;
};
export type QuedadaShareResponse = { success: true; share: QuedadaShare };
export type QuedadaShareListResponse = { success: true; shares: QuedadaShare[] };

/** Someone the page shows: first name, first photo, verified mark. */
export type SharedPerson = { firstName: string; photo: string | null; isVerified: boolean };

/**
 * What the public page shows: who, where, when, and the check-in. Nothing else. A quedada shows
 * the partner; an open session shows its host and approved members besides the sharer, host first.
 */
export type SharedSession = (
  | { kind: 'quedada'; partner: SharedPerson }
  | { kind: 'openSession'; people: (SharedPerson & { isHost: boolean })[] }
) & {
  sharedBy: string;
  gymName: string;
  gymAddress: string | null;
  startsAt: string;
  durationMin: number;
  activity: string;
  isCancelled: boolean;
  expiresAt: string;
  checkIn: CheckIn | null;
};
export type SharedSessionResponse = { success: true; shared: SharedSession };

/** The check-in's state at `now`. */
export function checkInOf(
  at: string | null,
  answer: CheckInAnswer | null,
  answeredAt: string | null,
  now: Date,
): CheckIn | null {
  if (!at) return null;
  const state = answer ? 'answered' : now.getTime() > Date.parse(at) + CHECK_IN_ANSWER_WINDOW_MS ? 'missed' : 'pending';
  return { at, answer, answeredAt, state };
}

/** What a stored share holds, whichever it shares (the servers' records of both kinds). */
export type StoredShareRecord = {
  id: string;
  quedadaId: string | null;
  sessionId: string | null;
  expiresAt: Date;
  checkInAt: Date | null;
  checkInAnswer: CheckInAnswer | null;
  answeredAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
};

/** A share as its owner sees it at `now`. */
export function shareViewOf(record: StoredShareRecord, now: Date): QuedadaShare {
  return {
    _id: record.id,
    quedadaId: record.quedadaId,
    sessionId: record.sessionId,
    expiresAt: record.expiresAt.toISOString(),
    revokedAt: record.revokedAt?.toISOString() ?? null,
    checkIn: checkInOf(
      record.checkInAt?.toISOString() ?? null,
      record.checkInAnswer,
      record.answeredAt?.toISOString() ?? null,
      now,
    ),
    createdAt: record.createdAt.toISOString(),
  };
}
