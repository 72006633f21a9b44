/**
 * The quedada contract (issue #21, docs/decisions/0029): one schema per request, response and
 * socket event, shared by the server (validation), the client (types) and the tests.
 */
import * as v from 'valibot';
import { controlCharacterMessage, hasLineControlCharacter } from '../text/control-characters.ts';
import { QUEDADA_MESSAGES } from './quedada-messages.ts';

export const QUEDADA_STATUSES = [
  'proposed',
  'countered',
  'accepted',
  'declined',
  'cancelled',
  'done',
  'missed',
] as const;
export type QuedadaStatus = (typeof QUEDADA_STATUSES)[number];
/** A proposal waiting for the other person's answer. */
export const OPEN_STATUSES: readonly QuedadaStatus[] = ['proposed', 'countered'];
/** A quedada in play; a conversation has at most one (an accepted one until it has ended; docs/decisions/0029). */
export const ACTIVE_STATUSES: readonly QuedadaStatus[] = ['proposed', 'countered', 'accepted'];

export const QUEDADA_GYM_NAME_MIN = 3;
/** The profile's gym name limit (spec 001: 3–50). */
export const QUEDADA_GYM_NAME_MAX = 50;
export const QUEDADA_GYM_ADDRESS_MAX = 200;
export const QUEDADA_DURATION_MIN = 15;
/** Issue #21: a duration over 6 h is refused. */
export const QUEDADA_DURATION_MAX = 360;
/** The durations the planning forms offer. */
export const QUEDADA_DURATION_CHOICES = [30, 45, 60, 75, 90, 120, 150, 180, 240, 300, QUEDADA_DURATION_MAX] as const;
export const QUEDADA_ACTIVITY_MIN = 2;
export const QUEDADA_ACTIVITY_MAX = 40;
export const QUEDADA_NOTE_MAX = 200;
/** How far ahead a quedada may be planned. */
export const QUEDADA_HORIZON_DAYS = 90;
/** A cancellation this close to the start counts against reliability (issue #21). */
export const LATE_CANCEL_MS = 2 * 3600_000;
/** The reminder choices of /config, minutes before the start; 120 is the default (issue #21). */
export const REMINDER_MINUTES_OPTIONS = [30, 60, 120, 360, 1440] as const;
export const DEFAULT_REMINDER_MINUTES = 120;
/** After this long without both answers, "¿Entrenasteis juntos?" stops being asked. */
export const CONFIRM_WINDOW_MS = 7 * 24 * 3600_000;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isQuedadaId = (value: unknown): value is string => typeof value === 'string' && uuidPattern.test(value);

export const id = (message: string) =>
  v.pipe(v.string(message), v.maxLength(36, message), v.regex(uuidPattern, message));
export const QuedadaClientIdSchema = v.pipe(
  v.string(QUEDADA_MESSAGES.invalidClientId),
  v.regex(/^[A-Za-z0-9_-]{1,64}$/, QUEDADA_MESSAGES.invalidClientId),
);

/**
 * Counts characters, not UTF-16 units; refuses huge strings before trimming them, and control
 * characters (a line feed only in the note): these fields go into the other person's `.ics`
 * (docs/decisions/0043), where a bare carriage return would start a property of its own.
 */
export const text = (
  min: number,
  max: number,
  message: string,
  field: string,
  options: { isMultiline?: boolean } = {},
) =>
  v.pipe(
    v.string(message),
    v.maxLength(max * 4, message),
    v.trim(),
    v.check((value) => !hasLineControlCharacter(value, options), controlCharacterMessage(field)),
    v.check((value) => [...value].length >= min && [...value].length <= max, message),
  );

export const StartsAtSchema = v.pipe(
  v.string(QUEDADA_MESSAGES.startsAt),
  v.maxLength(40, QUEDADA_MESSAGES.startsAt),
  v.isoTimestamp(QUEDADA_MESSAGES.startsAt),
);
export const DurationSchema = v.pipe(
  v.number(QUEDADA_MESSAGES.duration),
  v.integer(QUEDADA_MESSAGES.duration),
  v.minValue(QUEDADA_DURATION_MIN, QUEDADA_MESSAGES.duration),
  v.maxValue(QUEDADA_DURATION_MAX, QUEDADA_MESSAGES.duration),
);

/** When and how long: what a proposal and a counter-proposal carry. */
const timing = { startsAt: StartsAtSchema, durationMin: DurationSchema };

/** `POST /api/quedadas`: a new proposal in a conversation (the clientId is the idempotency key). */
export const ProposeQuedadaRequestSchema = v.strictObject(
  {
    clientId: QuedadaClientIdSchema,
    conversationId: id(QUEDADA_MESSAGES.invalidConversation),
    gymName: text(QUEDADA_GYM_NAME_MIN, QUEDADA_GYM_NAME_MAX, QUEDADA_MESSAGES.gymName, 'gymName'),
    // Null is "none", like leaving the field out (issue #34: a null note was refused as too long).
    gymAddress: v.nullish(text(0, QUEDADA_GYM_ADDRESS_MAX, QUEDADA_MESSAGES.gymAddress, 'gymAddress')),
    ...timing,
    activity: text(QUEDADA_ACTIVITY_MIN, QUEDADA_ACTIVITY_MAX, QUEDADA_MESSAGES.activity, 'activity'),
    note: v.nullish(text(0, QUEDADA_NOTE_MAX, QUEDADA_MESSAGES.note, 'note', { isMultiline: true })),
  },
  QUEDADA_MESSAGES.invalidQuedada,
);
export type ProposeQuedadaRequest = v.InferOutput<typeof ProposeQuedadaRequestSchema>;

/** `POST /api/quedadas/{id}/actions`: answer, counter or cancel; `confirm` after the session. */
export const QuedadaActionRequestSchema = v.variant(
  'action',
  [
    v.strictObject({ clientId: QuedadaClientIdSchema, action: v.literal('accept') }, QUEDADA_MESSAGES.invalidAction),
    v.strictObject({ clientId: QuedadaClientIdSchema, action: v.literal('decline') }, QUEDADA_MESSAGES.invalidAction),
    v.strictObject({ clientId: QuedadaClientIdSchema, action: v.literal('cancel') }, QUEDADA_MESSAGES.invalidAction),
    v.strictObject(
      { clientId: QuedadaClientIdSchema, action: v.literal('counter'), ...timing },
      QUEDADA_MESSAGES.invalidAction,
    ),
    v.strictObject(
      {
        clientId: QuedadaClientIdSchema,
        action: v.literal('confirm'),
        trained: v.boolean(QUEDADA_MESSAGES.invalidAnswer),
      },
      QUEDADA_MESSAGES.invalidAction,
    ),
  ],
  QUEDADA_MESSAGES.invalidAction,
);
export type QuedadaActionRequest = v.InferOutput<typeof QuedadaActionRequestSchema>;
export type QuedadaAction = QuedadaActionRequest['action'];
/** An action as the user chooses it, before the outbox gives it a clientId. */
export type QuedadaActionInput = QuedadaActionRequest extends infer T
  ? T extends unknown
    ? Omit<T, 'clientId'>
    : never
  : never;

/** One earlier proposal on the card's history ("Proponer otra hora"). */
export type QuedadaProposal = { by: string; startsAt: string; durationMin: number; at: string };

/** A quedada as both members see it. */
export type Quedada = {
  _id: string;
  conversationId: string;
  /** Who proposed first. */
  proposerId: string;
  /** Who made the current proposal (the other one answers it). */
  proposedBy: string;
  status: QuedadaStatus;
  gymName: string;
  gymAddress: string | null;
  startsAt: string;
  durationMin: number;
  activity: string;
  note: string | null;
  /** Earlier proposals, oldest first. */
  history: QuedadaProposal[];
  cancelledBy: string | null;
  isLateCancel: boolean;
  /** Each member's answer to "¿Entrenasteis juntos?" (null: not yet). */
  confirmations: Record<string, boolean | null>;
  version: number;
  clientId: string;
  createdAt: string;
  updatedAt: string;
};

export type QuedadaResponse = { success: true; quedada: Quedada };
export type QuedadaListResponse = { success: true; quedadas: Quedada[] };

export const QuedadaListQuerySchema = v.strictObject(
  {
    conversationId: v.optional(id(QUEDADA_MESSAGES.invalidConversation)),
    upcoming: v.optional(v.picklist(['1', 'true'])),
  },
  QUEDADA_MESSAGES.invalidQuedada,
);

/** `GET /api/quedadas/conversations/{id}/suggestions`: what the proposal form offers first. */
export type QuedadaSuggestions = {
  gyms: { name: string; address: string | null }[];
  /** Availability slots both profiles share ("Martes tarde"). */
  sharedSlots: string[];
  /** "Los dos podéis: martes y jueves por la tarde", or null. */
  sharedText: string | null;
  activities: string[];
};
export type QuedadaSuggestionsResponse = { success: true; suggestions: QuedadaSuggestions };

/** The pair's record, for the chat header and the match card. */
export type PairSummary = {
  conversationId: string;
  next: Quedada | null;
  /** Consecutive Madrid weeks with a confirmed quedada, ending this week or last week. */
  streakWeeks: number;
};
export type PairSummaryResponse = { success: true; pair: PairSummary };
export type PairSummaryListResponse = { success: true; pairs: PairSummary[] };

/** "8 de 9 quedadas cumplidas"; null when the user hides it or has nothing counted. */
export type Reliability = { kept: number; counted: number };
export type ReliabilityResponse = { success: true; reliability: Reliability | null };

/** Socket event to both members, every node: the quedada's new state. */
export const QUEDADA_UPDATED_EVENT = 'quedadaUpdated';
export type QuedadaUpdatedEvent = { quedada: Quedada };
