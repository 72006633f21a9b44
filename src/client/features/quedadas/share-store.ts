/**
 * «Compartir con alguien de confianza» on this device (issue #35, docs/decisions/0054): creating a
 * link, revoking it and answering «¿Todo bien?» are outbox items (kind `quedadaShare`) written in
 * one transaction with their optimistic change, so they work offline and replay exactly once. The
 * token is made here, so the link exists (and can be copied) before the server has heard of it.
 * A link shares a quedada or an open session (amendment of session 17): only the create's and the
 * list's addresses differ; revoke and answer are the same calls for both.
 */
import {
  type CheckInAnswer,
  type QuedadaShareListResponse,
  type QuedadaShareResponse,
  SHARE_GRACE_MS,
} from '#shared/quedadas/share-schemas';
import type { LocalDb, StoredShare } from '../../services/local-db.ts';
import { requestJson } from '../../services/http.ts';
import { outbox } from '../../services/offline.ts';

/** What a link shares, and when that ends (the check-in choices count from it). */
export type ShareTarget = { kind: 'quedada' | 'openSession'; id: string; startsAt: string; durationMin: number };

const scopeOf = (targetId: string) => `quedada-shares:${targetId}`;
const sharesPath = (target: Pick<ShareTarget, 'kind' | 'id'>) =>
  `${target.kind === 'quedada' ? 'quedadas' : 'open-sessions'}/${encodeURIComponent(target.id)}/shares`;

/** 32 random bytes, base64url (43 characters): the link's secret. */
export function newShareToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The page the trusted contact opens. */
export const shareUrl = (token: string) => new URL(`/compartido/${token}`, window.location.origin).toString();

export async function readShares(db: LocalDb, targetId: string): Promise<StoredShare[]> {
  const rows = await db.quedadaShares.where('quedadaId').equals(targetId).toArray();
  return rows.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Every link this device made, for any quedada or open session. */
export function readAllShares(db: LocalDb): Promise<StoredShare[]> {
  return db.quedadaShares.toArray();
}

/**
 * Whether one of these links still waits for this person's «¿Todo bien?»: a check-in, no answer,
 * not revoked, the link not expired (its end plus `SHARE_GRACE_MS` while the server has not
 * answered yet). A quedada in that state stays in «Próximos entrenos» after its end: the check-in
 * «Al terminar» or an hour after comes when the quedada is over, and is answered there.
 */
export function awaitsCheckIn(shares: readonly StoredShare[], targetId: string, endsAt: number, now: number): boolean {
  return shares.some((stored) => {
    if (stored.quedadaId !== targetId || !stored.checkInAt || stored.share?.revokedAt) return false;
    if (stored.share?.checkIn?.answer) return false;
    const expiresAt = stored.share ? Date.parse(stored.share.expiresAt) : endsAt + SHARE_GRACE_MS;
    return expiresAt > now;
  });
}

/** Creates the link (and the check-in at `checkInAt`, or none). */
export async function createShare(target: ShareTarget, checkInAt: string | null): Promise<StoredShare | null> {
  const stored: StoredShare = {
    key: crypto.randomUUID(),
    quedadaId: target.id,
    token: newShareToken(),
    checkInAt,
    share: null,
    sync: 'pending',
    createdAt: new Date().toISOString(),
  };
  const body = { clientId: stored.key, token: stored.token, checkInAt };
  const isQueued = await outbox.enqueue(
    {
      kind: 'quedadaShare',
      scope: scopeOf(target.id),
      clientId: stored.key,
      request: { method: 'POST', path: sharesPath(target), json: body },
      payload: { shareKey: stored.key },
    },
    async (db) => {
      await db.quedadaShares.put(stored);
    },
  );
  return isQueued ? stored : null;
}

/** Revokes the link: it stops showing as soon as the server hears it. */
export async function revokeShare(stored: StoredShare): Promise<boolean> {
  const shareId = stored.share?._id;
  if (!shareId) {
    // Never sent: taking it back from the outbox is enough (false while it is being sent).
    return outbox.withdraw(stored.key, async (db) => {
      await db.quedadaShares.delete(stored.key);
    });
  }
  const clientId = crypto.randomUUID();
  return outbox.enqueue(
    {
      kind: 'quedadaShare',
      scope: scopeOf(stored.quedadaId),
      clientId,
      request: { method: 'POST', path: `quedadas/shares/${shareId}/revoke`, json: { clientId } },
      payload: { shareKey: stored.key, action: 'revoke' },
    },
    async (db) => {
      const share = stored.share ? { ...stored.share, revokedAt: new Date().toISOString() } : null;
      await db.quedadaShares.put({ ...stored, share, sync: 'pending' });
    },
  );
}

/** «¿Todo bien?»: the answer shows at once and reaches the page once sent. */
export async function answerCheckIn(stored: StoredShare, answer: CheckInAnswer): Promise<boolean> {
  const share = stored.share;
  const current = share?.checkIn;
  if (!share || !current) return false;
  const clientId = crypto.randomUUID();
  return outbox.enqueue(
    {
      kind: 'quedadaShare',
      scope: scopeOf(stored.quedadaId),
      clientId,
      request: { method: 'POST', path: `quedadas/shares/${share._id}/check-in`, json: { clientId, answer } },
      payload: { shareKey: stored.key, action: 'check-in' },
    },
    async (db) => {
      const checkIn = { ...current, answer, answeredAt: new Date().toISOString(), state: 'answered' as const };
      await db.quedadaShares.put({ ...stored, share: { ...share, checkIn }, sync: 'pending' });
    },
  );
}

let isStarted = false;

/** Once at start-up: how the outbox applies a share's answer or refusal. */
export function startQuedadaShares(): void {
  if (isStarted) return;
  isStarted = true;
  outbox.register('quedadaShare', {
    async apply(db, item, result) {
      const share = (result as QuedadaShareResponse | undefined)?.share;
      const stored = await db.quedadaShares.get(String(item.payload?.shareKey ?? ''));
      if (share && stored) await db.quedadaShares.put({ ...stored, share, sync: 'synced' });
    },
    async fail(db, item) {
      await db.quedadaShares.update(String(item.payload?.shareKey ?? ''), { sync: 'error' });
    },
  });
}

/** The server's copies (check-in state after its time) into the device's links; others' devices' links have no token here. */
export async function refreshShares(db: LocalDb, target: Pick<ShareTarget, 'kind' | 'id'>): Promise<void> {
  try {
    const answer = await requestJson<QuedadaShareListResponse>(sharesPath(target));
    const stored = await readShares(db, target.id);
    for (const share of answer.shares) {
      const row = stored.find((candidate) => candidate.share?._id === share._id);
      if (row && row.sync === 'synced') await db.quedadaShares.put({ ...row, share });
    }
  } catch (error) {
    console.warn('[quedadas] shares refresh failed', error);
  }
}
