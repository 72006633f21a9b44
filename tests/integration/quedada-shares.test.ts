// @setup embedded
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quedada } from '#shared/quedadas/quedada-schemas';
import { type QuedadaShare, SHARE_MESSAGES as S, type SharedSession } from '#shared/quedadas/share-schemas';
import { createMatchedPair, type MatchedPair } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { proposalBody, quedadaCalls } from '../helpers/quedada-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, HOUR, MINUTE } from '../helpers/test-clock.ts';

/** «Compartir con alguien de confianza» (issue #35, docs/decisions/0054). */
describe('sharing a quedada with someone you trust', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;
  let calls: ReturnType<typeof quedadaCalls>;
  let outsider: TestUser;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createDiscoveryApi(app);
    calls = quedadaCalls(api);
    outsider = await api.userWithProfile({}, 'Olga');
  });
  afterAll(async () => {
    await app?.close();
  });

  const token = () => randomBytes(32).toString('base64url');
  const accepted = async (pair: MatchedPair): Promise<Quedada> => {
    const proposed = calls.quedadaOf(await calls.propose(pair.a, proposalBody(pair.conversationId, clock.now())));
    const answer = await calls.act(pair.b, proposed._id, { action: 'accept' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return calls.quedadaOf(answer);
  };
  const share = (user: TestUser, quedadaId: string, body: Record<string, unknown>) =>
    api.post(
      `/quedadas/${quedadaId}/shares`,
      { clientId: randomUUID(), token: token(), checkInAt: null, ...body },
      user.token,
    );
  const page = (secret: string) => api.get(`/shared/${secret}`);
  const notificationsOf = async (user: TestUser, title: string) => {
    const listed = await api.get('/notifications', user.token);
    return ((listed.body.notifications ?? []) as { title: string; body: string }[]).filter((n) => n.title === title);
  };

  it('creates a link whose page shows who, where and when without sign-in; a replay is the same share; the partner is told', async () => {
    const pair = await createMatchedPair(api, { names: ['Ana', 'Bruno Díaz'] });
    const quedada = await accepted(pair);
    const secret = token();
    const body = { clientId: randomUUID(), token: secret, checkInAt: null };
    const created = await api.post(`/quedadas/${quedada._id}/shares`, body, pair.a.token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const made = created.body.share as QuedadaShare;
    expect(made).toMatchObject({ quedadaId: quedada._id, revokedAt: null, checkIn: null });
    expect(JSON.stringify(created.body)).not.toContain(secret);

    // The outbox's replay answers 200 with the same share and tells nobody twice.
    const replay = await api.post(`/quedadas/${quedada._id}/shares`, body, pair.a.token);
    expect(replay.status).toBe(200);
    expect((replay.body.share as QuedadaShare)._id).toBe(made._id);

    // Only the hash is stored.
    const stored = await app.database.db.execute(
      sql`select token_hash from quedada_shares where id = ${made._id}::uuid`,
    );
    const [row] = (stored as unknown as { rows: { token_hash: string }[] }).rows;
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.token_hash).not.toBe(secret);

    const shown = await page(secret);
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('no-store');
    const shared = shown.body.shared as SharedSession;
    expect(shared).toMatchObject({
      sharedBy: 'Ana',
      partner: { firstName: 'Bruno', isVerified: false },
      gymName: quedada.gymName,
      gymAddress: quedada.gymAddress,
      startsAt: quedada.startsAt,
      activity: quedada.activity,
      isCancelled: false,
      checkIn: null,
    });
    // Nothing else of either person: no ids, no conversation, no position.
    expect(JSON.stringify(shared)).not.toContain(pair.b.userId);
    expect(JSON.stringify(shared)).not.toContain(pair.conversationId);

    await expect.poll(async () => (await notificationsOf(pair.b, 'Entreno compartido')).length).toBe(1);
    expect(await notificationsOf(pair.a, 'Entreno compartido')).toHaveLength(0);
    const [told] = await notificationsOf(pair.b, 'Entreno compartido');
    expect(told?.body).toContain('se ha compartido con un contacto de confianza');
    expect(told?.body).not.toContain(secret);
  });

  it('revokes at once, expires after the session, and an unknown or malformed link is a Spanish 404', async () => {
    const pair = await createMatchedPair(api);
    const quedada = await accepted(pair);
    const secret = token();
    const made = (await share(pair.a, quedada._id, { token: secret })).body.share as QuedadaShare;
    expect((await page(secret)).status).toBe(200);

    const revokeBody = { clientId: randomUUID() };
    const revoked = await api.post(`/quedadas/shares/${made._id}/revoke`, revokeBody, pair.a.token);
    expect(revoked.status).toBe(200);
    const revokedAt = (revoked.body.share as QuedadaShare).revokedAt;
    expect(revokedAt).not.toBeNull();
    const gone = await page(secret);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(S.publicNotFound);
    clock.advance(MINUTE);
    const again = await api.post(`/quedadas/shares/${made._id}/revoke`, revokeBody, pair.a.token);
    expect((again.body.share as QuedadaShare).revokedAt).toBe(revokedAt);

    const second = token();
    const live = (await share(pair.b, quedada._id, { token: second })).body.share as QuedadaShare;
    expect((await page(second)).status).toBe(200);
    clock.set(new Date(Date.parse(live.expiresAt) + 1000));
    expect((await page(second)).status).toBe(404);
    expect((await page('x'.repeat(43))).status).toBe(404);
    expect((await page('not-a-token')).body.message).toBe(S.publicNotFound);
    clock.set(new Date(clock.now().getTime() + 24 * HOUR));
  });

  it('only a member shares, only the owner lists, revokes or answers; bad input is a Spanish 4xx', async () => {
    const pair = await createMatchedPair(api);
    const quedada = await accepted(pair);
    const made = (await share(pair.a, quedada._id, {})).body.share as QuedadaShare;

    const stranger = await share(outsider, quedada._id, {});
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toBe(S.shareNotFound);
    expect((await api.get(`/quedadas/${quedada._id}/shares`, outsider.token)).status).toBe(404);
    for (const user of [outsider, pair.b]) {
      const revoke = await api.post(`/quedadas/shares/${made._id}/revoke`, { clientId: randomUUID() }, user.token);
      expect(revoke.status).toBe(404);
      const answer = await api.post(
        `/quedadas/shares/${made._id}/check-in`,
        { clientId: randomUUID(), answer: 'ok' },
        user.token,
      );
      expect(answer.status).toBe(404);
    }
    // b sees only b's own shares of the quedada (none), a sees a's.
    expect((await api.get(`/quedadas/${quedada._id}/shares`, pair.b.token)).body.shares).toEqual([]);
    expect(
      ((await api.get(`/quedadas/${quedada._id}/shares`, pair.a.token)).body.shares as QuedadaShare[]).map(
        (s) => s._id,
      ),
    ).toEqual([made._id]);
    // Without a token: 401.
    expect(
      (await api.post(`/quedadas/${quedada._id}/shares`, { clientId: randomUUID(), token: token(), checkInAt: null }))
        .status,
    ).toBe(401);

    const bad = [
      { token: 'short' },
      { token: 42 },
      { checkInAt: 'mañana' },
      { checkInAt: new Date(clock.now().getTime() - HOUR).toISOString() },
      { checkInAt: new Date(clock.now().getTime() + 30 * 24 * HOUR).toISOString() },
      { extra: true },
    ];
    for (const overrides of bad) {
      const refused = await share(pair.a, quedada._id, overrides);
      expect(refused.status, JSON.stringify(overrides)).toBe(400);
      expect(typeof refused.body.message).toBe('string');
      expect(refused.body.message).toMatch(/[áéíóúñ¿«]|no es válido|entre/);
    }
    expect((await share(pair.a, 'nope', {})).status).toBe(404);
    const noCheckIn = await api.post(
      `/quedadas/shares/${made._id}/check-in`,
      { clientId: randomUUID(), answer: 'ok' },
      pair.a.token,
    );
    expect(noCheckIn.status).toBe(409);
    expect(noCheckIn.body.message).toBe(S.noCheckIn);
    const badAnswer = await api.post(
      `/quedadas/shares/${made._id}/check-in`,
      { clientId: randomUUID(), answer: 'sí' },
      pair.a.token,
    );
    expect(badAnswer.status).toBe(400);

    // A proposal not yet accepted cannot be shared.
    const other = await createMatchedPair(api);
    const proposed = calls.quedadaOf(await calls.propose(other.a, proposalBody(other.conversationId, clock.now())));
    const early = await share(other.a, proposed._id, {});
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(S.notShareable);
  });

  it('the check-in is sent once at the chosen time; the page shows the answer, or that none came', async () => {
    const pair = await createMatchedPair(api);
    const quedada = await accepted(pair);
    const checkInAt = new Date(Date.parse(quedada.startsAt) + 30 * MINUTE).toISOString();
    const [secretA, secretB] = [token(), token()];
    const mine = (await share(pair.a, quedada._id, { token: secretA, checkInAt })).body.share as QuedadaShare;
    expect(mine.checkIn).toMatchObject({ at: checkInAt, answer: null, state: 'pending' });
    const theirs = (await share(pair.b, quedada._id, { token: secretB, checkInAt })).body.share as QuedadaShare;
    expect(theirs.checkIn?.state).toBe('pending');

    // Before its time nothing is sent.
    await app.quedadas.runDueJobs();
    expect(await notificationsOf(pair.a, '¿Todo bien?')).toHaveLength(0);
    clock.set(new Date(Date.parse(checkInAt) + MINUTE));
    // Several passes at once (as several nodes would): one notification each.
    await Promise.all(Array.from({ length: 4 }, () => app.quedadas.runDueJobs()));
    expect(await notificationsOf(pair.a, '¿Todo bien?')).toHaveLength(1);
    expect(await notificationsOf(pair.b, '¿Todo bien?')).toHaveLength(1);

    const answerBody = { clientId: randomUUID(), answer: 'ok' };
    const answered = await api.post(`/quedadas/shares/${mine._id}/check-in`, answerBody, pair.a.token);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect((answered.body.share as QuedadaShare).checkIn).toMatchObject({ answer: 'ok', state: 'answered' });
    // A replay (and a later different answer) keeps the first answer.
    const replay = await api.post(`/quedadas/shares/${mine._id}/check-in`, answerBody, pair.a.token);
    expect(replay.status).toBe(200);
    const later = await api.post(
      `/quedadas/shares/${mine._id}/check-in`,
      { clientId: randomUUID(), answer: 'help' },
      pair.a.token,
    );
    expect((later.body.share as QuedadaShare).checkIn?.answer).toBe('ok');
    expect(((await page(secretA)).body.shared as SharedSession).checkIn).toMatchObject({
      answer: 'ok',
      state: 'answered',
    });

    // b never answers: after the window the page says none came.
    expect(((await page(secretB)).body.shared as SharedSession).checkIn?.state).toBe('pending');
    clock.advance(31 * MINUTE);
    expect(((await page(secretB)).body.shared as SharedSession).checkIn).toMatchObject({
      answer: null,
      state: 'missed',
    });
    clock.set(new Date(clock.now().getTime() + 24 * HOUR));
  });

  it('a revoked share sends no check-in', async () => {
    const pair = await createMatchedPair(api);
    const quedada = await accepted(pair);
    const checkInAt = new Date(Date.parse(quedada.startsAt) + 10 * MINUTE).toISOString();
    const made = (await share(pair.a, quedada._id, { checkInAt })).body.share as QuedadaShare;
    await api.post(`/quedadas/shares/${made._id}/revoke`, { clientId: randomUUID() }, pair.a.token);
    clock.set(new Date(Date.parse(checkInAt) + MINUTE));
    await app.quedadas.runDueJobs();
    expect(await notificationsOf(pair.a, '¿Todo bien?')).toHaveLength(0);
    clock.set(new Date(clock.now().getTime() + 24 * HOUR));
  });
});
