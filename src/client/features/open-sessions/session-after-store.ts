/**
 * After an open session on this device (docs/decisions/0055, amendments of sessions 15 and 16):
 * «¿Quién vino?» marks, «Conectar» and «Repetir la próxima semana». Each is an outbox item of kind
 * `openSession` (scope of the session, so they stay in order with its other writes) carrying its
 * clientId, so they work offline and replay exactly once; the marks show at once and are kept, as
 * the server last answered them, in a `meta` row, so the section reads offline too.
 */
import type { Attendance, AttendanceResponse } from '#shared/open-sessions/open-session-after';
import type { OpenSession, OpenSessionResponse } from '#shared/open-sessions/open-session-schemas';
import { endOf } from '#shared/quedadas/quedada-state';
import {
  currentDb,
  type LocalDb,
  type OutboxItem,
  pendingOutboxPayloads,
  readMeta,
  writeMeta,
} from '../../services/local-db.ts';
import { requestJson } from '../../services/http.ts';
import { outbox } from '../../services/offline.ts';

const KEY = {
  attendance: (id: string) => `openSessions:attendance:${id}`,
  /** The repeat of a session: the new session's id once answered, '' while it waits. */
  repeat: (id: string) => `openSessions:repeat:${id}`,
} as const;

type Marks = { userId: string; came: boolean }[];

/** «¿Quién vino?» is for the host and the approved members of a held session that has ended. */
export const canAskWhoCame = (session: OpenSession, now: number): boolean =>
  session.status === 'open' && (session.myState === 'host' || session.myState === 'approved') && endOf(session) <= now;

export async function readAttendance(db: LocalDb, id: string): Promise<Attendance | null> {
  const value = await readMeta(db, KEY.attendance(id));
  return value === undefined ? null : (JSON.parse(value) as Attendance);
}

/** The people a «Conectar» of this device waits in the outbox for (shown as «Conectando…»). */
export async function readPendingConnects(db: LocalDb, id: string): Promise<string[]> {
  const payloads = await pendingOutboxPayloads(db, 'openSession');
  return payloads.flatMap((payload) =>
    payload.action === 'connect' && payload.sessionId === id && typeof payload.userId === 'string'
      ? [payload.userId]
      : [],
  );
}

/** The repeat: undefined when none, '' while it waits in the outbox, else the new session's id. */
export const readRepeat = (db: LocalDb, id: string) => readMeta(db, KEY.repeat(id));

const withMarks = (attendance: Attendance, marks: Marks): Attendance => ({
  ...attendance,
  people: attendance.people.map((person) => {
    const mark = marks.find((item) => item.userId === person.userId);
    return mark ? { ...person, came: mark.came } : person;
  }),
});

const marksOf = (item: OutboxItem): Marks => (item.request.json as { marks?: Marks } | undefined)?.marks ?? [];

/**
 * The marks from the server, with this device's marks still waiting in the outbox on top (an
 * answer asked before a tap must not take the tap off the screen). A failure keeps the saved copy.
 */
export async function refreshAttendance(session: OpenSession): Promise<void> {
  const db = currentDb();
  if (!db || !canAskWhoCame(session, Date.now())) return;
  try {
    const answer = await requestJson<AttendanceResponse>(`open-sessions/${encodeURIComponent(session._id)}/attendance`);
    // One transaction with the outbox: a tap enqueued while the answer was on its way is either
    // seen here or applied after this write, never overwritten by it.
    await db.transaction('rw', db.meta, db.outbox, async () => {
      const waiting = await db.outbox
        .where('status')
        .equals('pending')
        .filter((item) => item.scope === `open-session:${session._id}` && item.payload?.action === 'attendance')
        .sortBy('id');
      const shown = waiting.reduce((current, item) => withMarks(current, marksOf(item)), answer.attendance);
      await writeMeta(db, KEY.attendance(session._id), JSON.stringify(shown));
    });
  } catch (error) {
    console.warn('[open-sessions] attendance not read', error);
  }
}

/**
 * One write after the session: an outbox item in the session's scope (in order with its other
 * writes) posting `fields` and the clientId to `open-sessions/{id}/{action}`; the session's last
 * refusal is cleared, and `change` shows the write at once, in the same transaction.
 */
function enqueueAfter(
  session: OpenSession,
  action: 'attendance' | 'connect' | 'repeat',
  fields: Record<string, unknown>,
  change?: (db: LocalDb) => Promise<void>,
): Promise<boolean> {
  const clientId = crypto.randomUUID();
  return outbox.enqueue(
    {
      kind: 'openSession',
      scope: `open-session:${session._id}`,
      clientId,
      request: {
        method: 'POST',
        path: `open-sessions/${encodeURIComponent(session._id)}/${action}`,
        json: { clientId, ...fields },
      },
      payload: {
        action,
        sessionId: session._id,
        ...(typeof fields.userId === 'string' ? { userId: fields.userId } : {}),
      },
    },
    async (db) => {
      await db.meta.delete(`openSessions:error:${session._id}`);
      await change?.(db);
    },
  );
}

/** «Vino» / «No vino» about one person: shown at once, sent through the outbox. */
export function markAttendance(session: OpenSession, userId: string, came: boolean): Promise<boolean> {
  const marks: Marks = [{ userId, came }];
  return enqueueAfter(session, 'attendance', { marks }, async (db) => {
    const saved = await readAttendance(db, session._id);
    if (saved) await writeMeta(db, KEY.attendance(session._id), JSON.stringify(withMarks(saved, marks)));
  });
}

/**
 * «Conectar» with someone who trained with the viewer (a replay makes no second match); its answer
 * is «¿Quién vino?» with the chat to open. Shown as «Conectando…» while it waits (`readPendingConnects`).
 */
export const connectWith = (session: OpenSession, userId: string): Promise<boolean> =>
  enqueueAfter(session, 'connect', { userId });

/** «Repetir la próxima semana» (the host): one outbox item; its answer is the new session. */
export const repeatSession = (session: OpenSession): Promise<boolean> =>
  enqueueAfter(session, 'repeat', {}, (db) => writeMeta(db, KEY.repeat(session._id), ''));

/**
 * The outbox's answer to one of these items, in the transaction that removes it (the session
 * store's handler calls it for every `openSession` item): the marks (and connections) as the
 * server now has them, or the repeat's new session id. A refusal forgets a waiting repeat (the
 * button comes back).
 */
export async function applyAfterAnswer(db: LocalDb, item: OutboxItem, result: unknown): Promise<void> {
  const sessionId = String(item.payload?.sessionId ?? '');
  if (item.payload?.action === 'attendance' || item.payload?.action === 'connect') {
    const attendance = (result as AttendanceResponse | undefined)?.attendance;
    if (attendance) await writeMeta(db, KEY.attendance(sessionId), JSON.stringify(attendance));
  } else if (item.payload?.action === 'repeat') {
    const repeated = (result as OpenSessionResponse | undefined)?.session;
    if (repeated) await writeMeta(db, KEY.repeat(sessionId), repeated._id);
    else await db.meta.delete(KEY.repeat(sessionId));
  }
}
