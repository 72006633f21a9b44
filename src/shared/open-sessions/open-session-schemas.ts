/**
 * «Entrenos abiertos» (issue #35, docs/decisions/0055): a host publishes a session at a gym with
 * 1–7 places besides them; people nearby who fit both ways (or the host's matches) find it and
 * join, first come or with the host's approval. One schema per request, one type per answer,
 * shared by the server (validation), the client (types) and the tests.
 */
import * as v from 'valibot';
import type { PublicProfile } from '../profile/profile-views.ts';
import { EXPERIENCE_LEVEL_LABELS, EXPERIENCE_LEVELS } from '../profile/options.ts';
import {
  DurationSchema,
  QUEDADA_ACTIVITY_MAX,
  QUEDADA_ACTIVITY_MIN,
  QUEDADA_GYM_ADDRESS_MAX,
  QUEDADA_GYM_NAME_MAX,
  QUEDADA_GYM_NAME_MIN,
  QUEDADA_NOTE_MAX,
  QuedadaClientIdSchema,
  type Reliability,
  StartsAtSchema,
  text as boundedText,
} from '../quedadas/quedada-schemas.ts';

export const OPEN_SESSION_MESSAGES = {
  invalidSession: 'Los datos del entreno abierto no son válidos',
  gymName: 'El gimnasio debe tener entre 3 y 50 caracteres',
  gymAddress: 'La dirección del gimnasio no puede superar los 200 caracteres',
  activity: 'Indica qué vais a entrenar (entre 2 y 40 caracteres)',
  note: 'La nota no puede superar los 200 caracteres',
  message: 'El mensaje no puede superar los 200 caracteres',
  level: 'Elige un nivel válido',
  places: 'Las plazas deben estar entre 1 y 7 además de ti',
  visibility: 'Elige quién puede verlo: tus matches o gente cerca',
  approval: 'Elige si apruebas cada solicitud o por orden de llegada',
  startsInPast: 'El entreno no puede ser en el pasado',
  startsTooFar: 'El entreno no puede ser dentro de más de 90 días',
  needsProfile: 'Completa tu perfil para publicar o unirte a entrenos abiertos',
  notFound: 'Entreno no encontrado',
  hostOnly: 'Solo quien publica el entreno puede hacerlo',
  notOpen: 'Este entreno ya no admite cambios',
  ended: 'Este entreno ya ha terminado',
  full: 'Completo',
  ownSession: 'No puedes unirte a tu propio entreno',
  cannotRejoin: 'No puedes volver a unirte a este entreno',
  notRequested: 'Esta persona no tiene una solicitud pendiente',
  notMember: 'Esta persona no está en el entreno',
  notJoined: 'No estás en este entreno',
  hostCannotLeave: 'Quien publica el entreno no puede salir de él: puedes cancelarlo',
  invalidDecision: 'La respuesta debe ser aprobar o rechazar',
  invalidUser: 'La persona indicada no es válida',
  rateLimited: 'Demasiadas acciones seguidas. Espera un momento',
} as const;
/** Places besides the host (issue #35). */
export const OPEN_SESSION_PLACES_MIN = 1;
export const OPEN_SESSION_PLACES_MAX = 7;
export const OPEN_SESSION_MESSAGE_MAX = 200;
/** How many sessions the nearby list answers at most. */
export const OPEN_SESSION_LIST_LIMIT = 50;

export const OPEN_SESSION_LEVELS = ['all', ...EXPERIENCE_LEVELS] as const;
export type OpenSessionLevel = (typeof OPEN_SESSION_LEVELS)[number];
export const OPEN_SESSION_VISIBILITIES = ['matches', 'nearby'] as const;
export type OpenSessionVisibility = (typeof OPEN_SESSION_VISIBILITIES)[number];
export const OPEN_SESSION_APPROVALS = ['host', 'first'] as const;
export type OpenSessionApproval = (typeof OPEN_SESSION_APPROVALS)[number];
export const OPEN_SESSION_STATUSES = ['open', 'cancelled', 'removed'] as const;
export type OpenSessionStatus = (typeof OPEN_SESSION_STATUSES)[number];
export const MEMBER_STATES = ['requested', 'approved', 'declined', 'left', 'removed'] as const;
export type MemberState = (typeof MEMBER_STATES)[number];
/** States that hold (or wait for) a place. */
export const ACTIVE_MEMBER_STATES: readonly MemberState[] = ['requested', 'approved'];

/** `POST /api/open-sessions`: publish (the clientId is the idempotency key). */
export const PublishOpenSessionRequestSchema = v.strictObject(
  {
    clientId: QuedadaClientIdSchema,
    gymName: boundedText(QUEDADA_GYM_NAME_MIN, QUEDADA_GYM_NAME_MAX, OPEN_SESSION_MESSAGES.gymName, 'gymName'),
    gymAddress: v.optional(boundedText(0, QUEDADA_GYM_ADDRESS_MAX, OPEN_SESSION_MESSAGES.gymAddress, 'gymAddress')),
    startsAt: StartsAtSchema,
    durationMin: DurationSchema,
    activity: boundedText(QUEDADA_ACTIVITY_MIN, QUEDADA_ACTIVITY_MAX, OPEN_SESSION_MESSAGES.activity, 'activity'),
    level: v.picklist(OPEN_SESSION_LEVELS, OPEN_SESSION_MESSAGES.level),
    places: v.pipe(
      v.number(OPEN_SESSION_MESSAGES.places),
      v.integer(OPEN_SESSION_MESSAGES.places),
      v.minValue(OPEN_SESSION_PLACES_MIN, OPEN_SESSION_MESSAGES.places),
      v.maxValue(OPEN_SESSION_PLACES_MAX, OPEN_SESSION_MESSAGES.places),
    ),
    note: v.optional(boundedText(0, QUEDADA_NOTE_MAX, OPEN_SESSION_MESSAGES.note, 'note', { isMultiline: true })),
    visibility: v.picklist(OPEN_SESSION_VISIBILITIES, OPEN_SESSION_MESSAGES.visibility),
    approval: v.picklist(OPEN_SESSION_APPROVALS, OPEN_SESSION_MESSAGES.approval),
  },
  OPEN_SESSION_MESSAGES.invalidSession,
);
export type PublishOpenSessionRequest = v.InferOutput<typeof PublishOpenSessionRequestSchema>;
export type PublishOpenSessionInput = Omit<PublishOpenSessionRequest, 'clientId'>;

/** `POST /api/open-sessions/{id}/join`: a request (host approval) or a place (first come). */
export const JoinOpenSessionRequestSchema = v.strictObject(
  {
    clientId: QuedadaClientIdSchema,
    message: v.optional(
      boundedText(0, OPEN_SESSION_MESSAGE_MAX, OPEN_SESSION_MESSAGES.message, 'message', { isMultiline: true }),
    ),
  },
  OPEN_SESSION_MESSAGES.invalidSession,
);

/** `POST /api/open-sessions/{id}/requests/{userId}`: the host's answer. */
export const AnswerRequestSchema = v.strictObject(
  {
    clientId: QuedadaClientIdSchema,
    decision: v.picklist(['approve', 'decline'], OPEN_SESSION_MESSAGES.invalidDecision),
  },
  OPEN_SESSION_MESSAGES.invalidSession,
);
export type OpenSessionDecision = v.InferOutput<typeof AnswerRequestSchema>['decision'];

/** Leave, remove someone, cancel, and a moderator's removal: only the clientId. */
export const OpenSessionWriteSchema = v.strictObject(
  { clientId: QuedadaClientIdSchema },
  OPEN_SESSION_MESSAGES.invalidSession,
);

/** An open session as a viewer sees it: never a position, only the deck's distance text. */
export type OpenSession = {
  _id: string;
  host: { userId: string; name: string; photo: string | null; isVerified: boolean };
  gymName: string;
  gymAddress: string | null;
  startsAt: string;
  durationMin: number;
  activity: string;
  level: OpenSessionLevel;
  /** Places besides the host. */
  places: number;
  /** Approved members (the host not counted). */
  taken: number;
  /** «Completo»: every place is taken. */
  isFull: boolean;
  note: string | null;
  visibility: OpenSessionVisibility;
  approval: OpenSessionApproval;
  status: OpenSessionStatus;
  /** "A 3 km" between the viewer's cell and the session's cell (the deck's text); '' for the host. */
  distanceText: string;
  /** The viewer's place: host, a member state, or null (not joined). */
  myState: 'host' | MemberState | null;
  /**
   * «Repetir la próxima semana»: the viewer held a place in the session this one repeats, so a
   * join takes a place at once (while one is free), whatever the session's approval.
   */
  isInvited: boolean;
  /** The group chat, for the host and approved members once it exists. */
  conversationId: string | null;
  version: number;
  createdAt: string;
};

export type OpenSessionResponse = { success: true; session: OpenSession };
export type OpenSessionListResponse = { success: true; sessions: OpenSession[] };

/** A requester or member as the host sees them: the profile with «Por qué encajáis» and reliability. */
export type OpenSessionMember = {
  userId: string;
  state: MemberState;
  message: string | null;
  profile: PublicProfile | null;
  reliability: Reliability | null;
  createdAt: string;
};
export type OpenSessionMembersResponse = { success: true; members: OpenSessionMember[] };

/** Socket event to the host and members, every node: the session changed. */
export const OPEN_SESSION_UPDATED_EVENT = 'openSessionUpdated';
export type OpenSessionUpdatedEvent = { sessionId: string };

/** The level as the card says it. */
export function openSessionLevelLabel(level: OpenSessionLevel): string {
  return level === 'all' ? 'Todos los niveles' : EXPERIENCE_LEVEL_LABELS[level];
}
