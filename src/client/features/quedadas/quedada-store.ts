/**
 * The quedadas on this device (issue #21): IndexedDB is the store (services/local-db.ts), screens
 * read it with live queries; the network refreshes it (REST on open, `quedadaUpdated` live).
 * Proposing, answering and confirming are outbox items (kind `quedada`) written in one
 * transaction with their optimistic change, so they work offline and replay exactly once (the
 * clientId is the server's idempotency key).
 */
import type {
  ProposeQuedadaRequest,
  Quedada,
  QuedadaActionInput,
  QuedadaActionRequest,
  QuedadaResponse,
} from '#shared/quedadas/quedada-schemas';
import { transition } from '#shared/quedadas/quedada-state';
import { QUEDADA_MESSAGES } from '#shared/quedadas/quedada-messages';
import { CALENDAR_DOWNLOAD_FAILED, downloadFromApi } from '../../services/download.ts';
import { currentDb, type LocalDb, type StoredQuedada, upsertQuedadas } from '../../services/local-db.ts';
import { outbox } from '../../services/offline.ts';
import { session } from '../../services/session.ts';
import { connection } from '../../services/socket.ts';
import { toast } from '../../ui/toast-store.ts';
import { quedadaApi } from './quedada-api.ts';

const ownUserId = () => session.current()?.user.userId ?? '';
const scopeOf = (conversationId: string) => `quedadas:${conversationId}`;

/** A proposal the user made, waiting to be sent: shown at once as a pending card. */
function pendingProposal(input: ProposeQuedadaRequest, otherUserId: string): StoredQuedada {
  const now = new Date().toISOString();
  const proposer = ownUserId();
  return {
    key: input.clientId,
    sync: 'pending',
    _id: '',
    conversationId: input.conversationId,
    proposerId: proposer,
    proposedBy: proposer,
    status: 'proposed',
    gymName: input.gymName,
    gymAddress: input.gymAddress ?? null,
    startsAt: input.startsAt,
    durationMin: input.durationMin,
    activity: input.activity,
    note: input.note ?? null,
    history: [],
    cancelledBy: null,
    isLateCancel: false,
    confirmations: { [proposer]: null, [otherUserId]: null },
    version: 0,
    clientId: input.clientId,
    createdAt: now,
    updatedAt: now,
  };
}

/** "Proponer entreno": the pending card and its outbox item in one transaction. */
export async function proposeQuedada(
  input: Omit<ProposeQuedadaRequest, 'clientId'>,
  otherUserId: string,
): Promise<boolean> {
  const body: ProposeQuedadaRequest = { ...input, clientId: crypto.randomUUID() };
  return outbox.enqueue(
    {
      kind: 'quedada',
      scope: scopeOf(input.conversationId),
      clientId: body.clientId,
      request: { method: 'POST', path: 'quedadas', json: body },
      payload: { conversationId: input.conversationId, action: 'propose' },
    },
    async (db) => {
      await db.quedadas.put(pendingProposal(body, otherUserId));
    },
  );
}

/**
 * Accept, decline, counter, cancel or confirm: the card changes at once (the shared state machine
 * decides how) and shows as pending until the server answers.
 */
export async function actOnQuedada(quedada: StoredQuedada, action: QuedadaActionInput): Promise<boolean> {
  const body = { ...action, clientId: crypto.randomUUID() } as QuedadaActionRequest;
  const members = Object.keys(quedada.confirmations) as [string, string];
  const next = transition({ ...quedada, members }, body, ownUserId(), new Date());
  if (!next.ok) {
    toast.error(QUEDADA_MESSAGES[next.error]);
    return false;
  }
  return outbox.enqueue(
    {
      kind: 'quedada',
      scope: scopeOf(quedada.conversationId),
      clientId: body.clientId,
      request: { method: 'POST', path: `quedadas/${encodeURIComponent(quedada._id)}/actions`, json: body },
      payload: { conversationId: quedada.conversationId, quedadaId: quedada._id, action: body.action },
    },
    async (db) => {
      await db.quedadas.put({ ...quedada, ...next.patch, sync: 'pending' });
    },
  );
}

/** Network refresh of a conversation's quedadas into the store (the screen follows the store). */
export async function refreshConversationQuedadas(conversationId: string): Promise<void> {
  try {
    const answer = await quedadaApi.listForConversation(conversationId);
    const db = currentDb();
    if (db) await upsertQuedadas(db, answer.quedadas);
  } catch (error) {
    console.warn(`[quedadas] ${QUEDADA_MESSAGES.loadFailed}`, error);
  }
}

/** Network refresh of "Próximos entrenos". */
export async function refreshUpcoming(): Promise<void> {
  try {
    const answer = await quedadaApi.listUpcoming();
    const db = currentDb();
    if (db) await upsertQuedadas(db, answer.quedadas);
  } catch (error) {
    console.warn(`[quedadas] ${QUEDADA_MESSAGES.loadFailed}`, error);
  }
}

/** "Añadir al calendario": downloads the server's `.ics`. */
export async function downloadCalendar(quedada: Quedada): Promise<void> {
  try {
    await downloadFromApi(
      `quedadas/${encodeURIComponent(quedada._id)}/calendar`,
      `entreno-${quedada.startsAt.slice(0, 10)}.ics`,
    );
  } catch (error) {
    console.warn('[quedadas] calendar download failed', error);
    toast.error(CALENDAR_DOWNLOAD_FAILED);
  }
}

async function applyAnswer(db: LocalDb, result: unknown): Promise<void> {
  const quedada = (result as QuedadaResponse | undefined)?.quedada;
  if (quedada) await upsertQuedadas(db, [quedada]);
}

let isStarted = false;

/**
 * Once at start-up: the outbox learns how to apply a quedada's answer (and a refusal), and live
 * `quedadaUpdated` events go into the store.
 */
export function startQuedadas(): void {
  if (isStarted) return;
  isStarted = true;
  outbox.register('quedada', {
    apply: (db, _item, result) => applyAnswer(db, result),
    async fail(db, item) {
      if (item.payload?.action === 'propose') {
        await db.quedadas.update(item.clientId, { sync: 'error' });
        return;
      }
      const quedadaId = String(item.payload?.quedadaId ?? '');
      const stored = quedadaId ? await db.quedadas.get(quedadaId) : undefined;
      if (stored) await db.quedadas.put({ ...stored, sync: 'error' });
    },
    after(item) {
      if (typeof item.payload?.conversationId === 'string')
        void refreshConversationQuedadas(item.payload.conversationId);
    },
  });
  connection.on('quedadaUpdated', (event) => {
    const db = currentDb();
    if (db && event?.quedada) void upsertQuedadas(db, [event.quedada]);
  });
}

/** "Reintentar" on a refused card: the server's copy again (the refusal's reason is in its state). */
export async function discardFailed(quedada: StoredQuedada): Promise<void> {
  const db = currentDb();
  if (!db) return;
  if (!quedada._id) await db.quedadas.delete(quedada.key);
  await refreshConversationQuedadas(quedada.conversationId);
}
