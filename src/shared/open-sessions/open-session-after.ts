/**
 * After an open session (issue #35, docs/decisions/0055, amendment of session 15): «¿Quién vino?»
 * — each person in the session marks, for each other one, whether they came — how those marks
 * count for reliability, and «Repetir la próxima semana». Schemas, messages and the pure rules,
 * shared by the server, the client and the tests.
 */
import * as v from 'valibot';
import { dayNumber } from '../time/madrid-calendar.ts';
import { CONFIRM_WINDOW_MS, id, QuedadaClientIdSchema, type Reliability } from '../quedadas/quedada-schemas.ts';
import { instantToMadridLocal, madridLocalToInstant } from '../quedadas/quedada-time.ts';
import { OPEN_SESSION_PLACES_MAX } from './open-session-schemas.ts';

export const ATTENDANCE_MESSAGES = {
  invalid: 'Las marcas de asistencia no son válidas',
  notEnded: 'El entreno aún no ha terminado',
  tooLate: 'Ya no se puede marcar quién vino: han pasado más de 7 días desde el entreno',
  notListed: 'Esa persona no estaba en el entreno',
  repeatNotEnded: 'Solo puedes repetir un entreno que ya ha terminado',
  connectInvalid: 'La persona indicada no es válida',
  notTrainedTogether: 'Solo podéis conectar si los dos vinisteis al entreno',
  cannotConnect: 'No es posible conectar con esta persona',
} as const;

/** Marks stay editable this long after the session's end (as «¿Entrenasteis juntos?», 0029). */
export const ATTENDANCE_WINDOW_MS = CONFIRM_WINDOW_MS;
const WEEK_DAYS = 7;
/** Rounds of «¿Quién vino?» before the verdicts count as never settling (twice the people in a session). */
const VERDICT_ROUNDS_MAX = 2 * (OPEN_SESSION_PLACES_MAX + 1);
const MS_PER_DAY = 86_400_000;

/** One person's mark about another: «Vino» (true) or «No vino» (false). */
export const AttendanceMarkSchema = v.strictObject(
  { userId: id(ATTENDANCE_MESSAGES.invalid), came: v.boolean(ATTENDANCE_MESSAGES.invalid) },
  ATTENDANCE_MESSAGES.invalid,
);

/** `POST /api/open-sessions/{id}/attendance`: some of the caller's marks (each one replaces the last). */
export const AttendanceRequestSchema = v.strictObject(
  {
    clientId: QuedadaClientIdSchema,
    marks: v.pipe(
      v.array(AttendanceMarkSchema, ATTENDANCE_MESSAGES.invalid),
      v.minLength(1, ATTENDANCE_MESSAGES.invalid),
      // Everyone in a session but the caller: the places and the host.
      v.maxLength(OPEN_SESSION_PLACES_MAX, ATTENDANCE_MESSAGES.invalid),
    ),
  },
  ATTENDANCE_MESSAGES.invalid,
);
export type AttendanceRequest = v.InferOutput<typeof AttendanceRequestSchema>;

/** `POST /api/open-sessions/{id}/connect`: a match without the deck with someone who trained with the caller. */
export const ConnectRequestSchema = v.strictObject(
  { clientId: QuedadaClientIdSchema, userId: id(ATTENDANCE_MESSAGES.connectInvalid) },
  ATTENDANCE_MESSAGES.connectInvalid,
);

/**
 * Whether the caller and this person can connect after the session (docs/decisions/0055, session
 * 16): `connected` when they have a match (from the deck or from here) to chat in, `available`
 * when both were found to have come and nothing stands between them, else `unavailable`.
 */
export type AttendanceConnection =
  | { status: 'connected'; conversationId: string }
  | { status: 'available' }
  | { status: 'unavailable' };

/** Someone the caller may mark, with the caller's mark (null: not marked yet). */
export type AttendancePerson = {
  userId: string;
  name: string;
  photo: string | null;
  isHost: boolean;
  came: boolean | null;
  connection: AttendanceConnection;
};

/** «¿Quién vino?» as the caller sees it. */
export type Attendance = {
  sessionId: string;
  endsAt: string;
  /** Marks are taken until then. */
  closesAt: string;
  canMark: boolean;
  people: AttendancePerson[];
};
export type AttendanceResponse = { success: true; attendance: Attendance };

/** A stored mark: `markerId` says whether `subjectId` came. */
export type AttendanceMark = { markerId: string; subjectId: string; came: boolean };
export type AttendanceVerdict = 'came' | 'missed';

/** Per subject, the strict majority of the counted marks others made about them; a tie decides nothing. */
function tally(marks: readonly AttendanceMark[], ignoredMarkers: ReadonlySet<string>): Map<string, AttendanceVerdict> {
  const balance = new Map<string, number>();
  for (const mark of marks) {
    if (mark.markerId === mark.subjectId || ignoredMarkers.has(mark.markerId)) continue;
    balance.set(mark.subjectId, (balance.get(mark.subjectId) ?? 0) + (mark.came ? 1 : -1));
  }
  const verdicts = new Map<string, AttendanceVerdict>();
  for (const [subject, sum] of balance) if (sum !== 0) verdicts.set(subject, sum > 0 ? 'came' : 'missed');
  return verdicts;
}

const missedIn = (verdicts: ReadonlyMap<string, AttendanceVerdict>): Set<string> =>
  new Set([...verdicts].filter(([, verdict]) => verdict === 'missed').map(([subject]) => subject));

const isSameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) =>
  a.size === b.size && [...a].every((x) => b.has(x));

/**
 * Who came to one session, from its marks: a person came when most of the marks others made
 * about them say «Vino», and missed it when most say «No vino»; a tie or no mark decides nothing.
 * Marks made by someone found missing do not count (a no-show cannot know who came, and must not
 * settle scores): the verdicts are taken with every mark, then again without the marks of those
 * found missing, until the missing ones are the same twice. When they never settle (two people
 * each saying the other did not come), only what the last two rounds agree on is kept
 * (docs/decisions/0055, session 15).
 */
export function attendanceVerdicts(marks: readonly AttendanceMark[]): Map<string, AttendanceVerdict> {
  let ignored = new Set<string>();
  let verdicts = tally(marks, ignored);
  let previous = verdicts;
  for (let round = 0; round < VERDICT_ROUNDS_MAX; round += 1) {
    const missed = missedIn(verdicts);
    if (isSameSet(missed, ignored)) return verdicts;
    ignored = missed;
    previous = verdicts;
    verdicts = tally(marks, ignored);
  }
  return new Map([...verdicts].filter(([subject, verdict]) => previous.get(subject) === verdict));
}

/**
 * What a person's open sessions add to "N de M quedadas cumplidas": one kept for each session
 * they came to, one counted against them for each they missed; undecided ones count for nobody.
 * `sessions` holds each held session's marks.
 */
export function openSessionReliability(userId: string, sessions: readonly (readonly AttendanceMark[])[]): Reliability {
  let kept = 0;
  let counted = 0;
  for (const marks of sessions) {
    const verdict = attendanceVerdicts(marks).get(userId);
    if (verdict) counted += 1;
    if (verdict === 'came') kept += 1;
  }
  return { kept, counted };
}

/** Two records as one ("N de M": quedadas and open sessions together). */
export function addReliability(a: Reliability, b: Reliability | null | undefined): Reliability {
  return b ? { kept: a.kept + b.kept, counted: a.counted + b.counted } : a;
}

/**
 * «Repetir la próxima semana»: the first start after `now` on the same Madrid weekday and
 * wall-clock time as `start`, one or more weeks later (18:00 stays 18:00 across a clock change).
 */
export function nextWeeklyStart(start: Date | string, now: Date): Date {
  const local = instantToMadridLocal(start);
  const first = dayNumber(local.day);
  for (let weeks = 1; ; weeks += 1) {
    const day = new Date((first + weeks * WEEK_DAYS) * MS_PER_DAY).toISOString().slice(0, 10);
    const next = madridLocalToInstant(day, local.time);
    if (next && next.getTime() > now.getTime()) return next;
  }
}
