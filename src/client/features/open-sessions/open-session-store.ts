/**
 * «Entrenos abiertos» on this device (issue #35, docs/decisions/0055). Every write — publish,
 * join, the host's answer, leave, remove, cancel — is an outbox item (kind `openSession`) whose
 * body carries its clientId, so it works offline and replays exactly once; the optimistic change
 * is written in the same transaction. The lists and each session are kept as the server last sent
 * them (`meta` rows, JSON), so they read offline too.
 */
import type {
  OpenSession,
  OpenSessionDecision,
  OpenSessionListResponse,
  OpenSessionMember,
  OpenSessionMembersResponse,
  OpenSessionResponse,
  PublishOpenSessionInput,
} from '#shared/open-sessions/open-session-schemas';
import { CALENDAR_DOWNLOAD_FAILED, downloadFromApi } from '../../services/download.ts';
import { currentDb, type LocalDb, pendingOutboxPayloads, readMeta, writeMeta } from '../../services/local-db.ts';
import { requestJson } from '../../services/http.ts';
import { outbox } from '../../services/offline.ts';
import { connection } from '../../services/socket.ts';
import { toast } from '../../ui/toast-store.ts';
import { applyAfterAnswer, refreshAttendance } from './session-after-store.ts';

const KEY = {
  nearby: 'openSessions:nearby',
  mine: 'openSessions:mine',
  session: (id: string) => `openSessions:session:${id}`,
  members: (id: string) => `openSessions:members:${id}`,
  /** The last refusal of a write about this session (or of a publish: `publish`). */
  error: (scope: string) => `openSessions:error:${scope}`,
} as const;

const readJson = async <T>(db: LocalDb, key: string): Promise<T | null> => {
  const value = await readMeta(db, key);
  return value === undefined ? null : (JSON.parse(value) as T);
};
const writeJson = (db: LocalDb, key: string, value: unknown) => writeMeta(db, key, JSON.stringify(value));

/** The lists as last saved: null when never loaded on this device. */
export const readNearby = (db: LocalDb) => readJson<OpenSession[]>(db, KEY.nearby);
export const readMine = (db: LocalDb) => readJson<OpenSession[]>(db, KEY.mine);
/** One session: its own copy, else the one in a list (opened offline from a list). */
export async function readSession(db: LocalDb, id: string): Promise<OpenSession | null> {
  const own = await readJson<OpenSession>(db, KEY.session(id));
  if (own) return own;
  for (const key of [KEY.mine, KEY.nearby]) {
    const found = (await readJson<OpenSession[]>(db, key))?.find((session) => session._id === id);
    if (found) return found;
  }
  return null;
}
export const readMembers = (db: LocalDb, id: string) => readJson<OpenSessionMember[]>(db, KEY.members(id));
export const readError = async (db: LocalDb, scope: string) => (await readMeta(db, KEY.error(scope))) ?? '';

/** Publishes not yet answered by the server (shown as «Pendiente de enviar»). */
export async function readPendingPublishes(db: LocalDb): Promise<(PublishOpenSessionInput & { key: string })[]> {
  const payloads = await pendingOutboxPayloads(db, 'openSession');
  return payloads
    .filter((payload) => payload.action === 'publish')
    .map((payload) => ({ ...(payload.input as PublishOpenSessionInput), key: String(payload.key) }));
}

/** A session's new copy into every place it is kept. */
async function saveSession(db: LocalDb, session: OpenSession): Promise<void> {
  await writeJson(db, KEY.session(session._id), session);
  for (const key of [KEY.nearby, KEY.mine]) {
    const list = await readJson<OpenSession[]>(db, key);
    if (!list) continue;
    const index = list.findIndex((item) => item._id === session._id);
    if (index >= 0) list[index] = session;
    else if (key === KEY.mine && (session.myState === 'host' || session.myState === 'approved')) list.push(session);
    await writeJson(db, key, list);
  }
}

/** The lists from the server (a failure keeps the saved ones). */
export async function refreshLists(): Promise<void> {
  const db = currentDb();
  if (!db) return;
  const [nearby, mine] = await Promise.allSettled([
    requestJson<OpenSessionListResponse>('open-sessions/nearby'),
    requestJson<OpenSessionListResponse>('open-sessions/mine'),
  ]);
  if (nearby.status === 'fulfilled') await writeJson(db, KEY.nearby, nearby.value.sessions);
  if (mine.status === 'fulfilled') await writeJson(db, KEY.mine, mine.value.sessions);
}

/** The refresh of each session under way, so that refreshes of one session apply in the order asked. */
const refreshes = new Map<string, Promise<RefreshResult>>();

type RefreshResult = 'ok' | 'missing' | 'offline';

/**
 * One session (and, for its host, the requests) from the server; a 404 forgets it. Refreshes of a
 * session run one after another: two side by side (an event, the screen opening) could otherwise
 * land out of order, and an older answer (the requests before someone asked) overwrite a newer one.
 */
export function refreshSession(id: string): Promise<RefreshResult> {
  const previous = refreshes.get(id);
  const next = (previous ? previous.catch(() => 'offline' as const) : Promise.resolve()).then(() => readFromServer(id));
  refreshes.set(id, next);
  void next.finally(() => {
    if (refreshes.get(id) === next) refreshes.delete(id);
  });
  return next;
}

async function readFromServer(id: string): Promise<RefreshResult> {
  const db = currentDb();
  if (!db) return 'offline';
  try {
    const answer = await requestJson<OpenSessionResponse>(`open-sessions/${encodeURIComponent(id)}`);
    await saveSession(db, await withWaitingWrites(db, answer.session));
    // Once it has ended: «¿Quién vino?» (only for its host and members; nothing before the end).
    await refreshAttendance(answer.session);
    if (answer.session.myState === 'host') {
      const members = await requestJson<OpenSessionMembersResponse>(`open-sessions/${encodeURIComponent(id)}/members`);
      await writeJson(db, KEY.members(id), members.members);
    }
    return 'ok';
  } catch (error) {
    if ((error as { status?: number }).status === 404) {
      await db.meta.delete(KEY.session(id));
      for (const key of [KEY.nearby, KEY.mine]) {
        const list = await readJson<OpenSession[]>(db, key);
        if (list)
          await writeJson(
            db,
            key,
            list.filter((session) => session._id !== id),
          );
      }
      return 'missing';
    }
    return 'offline';
  }
}

/** Publishes (offline too): shown as pending until the server answers. */
export function publishOpenSession(input: PublishOpenSessionInput): Promise<boolean> {
  const clientId = crypto.randomUUID();
  return outbox.enqueue(
    {
      kind: 'openSession',
      scope: 'open-sessions',
      clientId,
      request: { method: 'POST', path: 'open-sessions', json: { ...input, clientId } },
      payload: { action: 'publish', key: clientId, input },
    },
    async (db) => {
      await db.meta.delete(KEY.error('publish'));
    },
  );
}

type Write =
  | { action: 'join'; message?: string }
  | { action: 'leave' }
  | { action: 'cancel' }
  | { action: 'answer'; userId: string; decision: OpenSessionDecision }
  | { action: 'remove'; userId: string };

const pathOf = (id: string, write: Write) => {
  const base = `open-sessions/${encodeURIComponent(id)}`;
  switch (write.action) {
    case 'answer':
      return `${base}/requests/${encodeURIComponent(write.userId)}`;
    case 'remove':
      return `${base}/members/${encodeURIComponent(write.userId)}/remove`;
    default:
      return `${base}/${write.action}`;
  }
};

/** What the screen shows at once, before the server answers. */
function optimistic(session: OpenSession, write: Write): OpenSession {
  switch (write.action) {
    case 'join':
      // First come, or invited to a repeat («Repetir la próxima semana»): a place at once.
      return { ...session, myState: session.approval === 'first' || session.isInvited ? 'approved' : 'requested' };
    case 'leave':
      return { ...session, myState: 'left' };
    case 'cancel':
      return { ...session, status: 'cancelled' };
    default:
      return session;
  }
}

/**
 * The server's copy with this device's writes to the session still waiting in the outbox on top, as
 * the screen showed them: an answer asked before a write (the screen opening, then «Solicitar»
 * offline) must not take the write off the screen. Once a write is sent, its own answer is saved.
 */
async function withWaitingWrites(db: LocalDb, session: OpenSession): Promise<OpenSession> {
  const scope = `open-session:${session._id}`;
  const waiting = await db.outbox
    .where('status')
    .equals('pending')
    .filter((item) => item.scope === scope)
    .sortBy('id');
  return waiting.reduce((shown, item) => optimistic(shown, { action: item.payload?.action } as Write), session);
}

/** Join, leave, cancel, answer or remove: one outbox item with its clientId. */
export function writeOpenSession(session: OpenSession, write: Write): Promise<boolean> {
  const clientId = crypto.randomUUID();
  const { action: _action, ...fields } = write;
  const json = 'message' in fields && fields.message ? { clientId, message: fields.message } : { clientId };
  const body = write.action === 'answer' ? { clientId, decision: write.decision } : json;
  return outbox.enqueue(
    {
      kind: 'openSession',
      scope: `open-session:${session._id}`,
      clientId,
      request: { method: 'POST', path: pathOf(session._id, write), json: body },
      payload: { action: write.action, sessionId: session._id },
    },
    async (db) => {
      await db.meta.delete(KEY.error(session._id));
      await saveSession(db, optimistic(session, write));
      if (write.action === 'answer' || write.action === 'remove') {
        const members = (await readMembers(db, session._id)) ?? [];
        const state = write.action === 'remove' ? 'removed' : write.decision === 'approve' ? 'approved' : 'declined';
        await writeJson(
          db,
          KEY.members(session._id),
          members.map((member) => (member.userId === write.userId ? { ...member, state } : member)),
        );
      }
    },
  );
}

/** «Añadir al calendario»: the session's `.ics` (host and approved members). */
export async function downloadOpenSessionCalendar(session: OpenSession): Promise<void> {
  try {
    await downloadFromApi(
      `open-sessions/${encodeURIComponent(session._id)}/calendar`,
      `entreno-abierto-${session.startsAt.slice(0, 10)}.ics`,
    );
  } catch (error) {
    console.warn('[open-sessions] calendar download failed', error);
    toast.error(CALENDAR_DOWNLOAD_FAILED);
  }
}

let isStarted = false;

/** Once at start-up: how the outbox applies an answer or a refusal, and the live `openSessionUpdated`. */
export function startOpenSessions(): void {
  if (isStarted) return;
  isStarted = true;
  outbox.register('openSession', {
    async apply(db, item, result) {
      const session = (result as OpenSessionResponse | undefined)?.session;
      if (session) await saveSession(db, session);
      await applyAfterAnswer(db, item, result);
    },
    async fail(db, item) {
      // The refusal's words (e.g. «Completo»), for the screen; the session's copy comes again after.
      const failed = item.id === undefined ? undefined : await db.outbox.get(item.id);
      const scope = item.payload?.action === 'publish' ? 'publish' : String(item.payload?.sessionId ?? '');
      await writeMeta(db, KEY.error(scope), failed?.lastError || 'No se pudo completar la acción');
      await applyAfterAnswer(db, item, undefined);
      // After the transaction: the server's copy replaces the optimistic one.
      const sessionId = item.payload?.sessionId;
      setTimeout(() => void (typeof sessionId === 'string' ? refreshSession(sessionId) : refreshLists()), 0);
    },
    after(item) {
      if (typeof item.payload?.sessionId === 'string') void refreshSession(item.payload.sessionId);
      void refreshLists();
    },
  });
  connection.on('openSessionUpdated', (event) => {
    if (event?.sessionId) void refreshSession(event.sessionId);
  });
}
