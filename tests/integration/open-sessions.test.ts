// @setup embedded
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OPEN_SESSION_MESSAGES as M,
  type OpenSession,
  type OpenSessionMember,
} from '#shared/open-sessions/open-session-schemas';
import { SERVER_MESSAGES } from '#shared/messages';
import { createOpenSessionRepository } from '../../src/server/features/open-sessions/open-session-repository.ts';
import {
  createOpenSessionService,
  type OpenSessionGroupChat,
} from '../../src/server/features/open-sessions/open-session-service.ts';
import { openPrivacyReader } from '../../src/server/features/profiles/profile-model.ts';
import { createProfileRepository } from '../../src/server/features/profiles/profile-repository.ts';
import { normalizeGymName } from '#shared/discovery/compatibility';
import { createMatchedPair } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { createModerator } from '../helpers/moderation-api.ts';
import { createOpenSessionApi, openSessionBody, type OpenSessionApi } from '../helpers/open-session-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, HOUR, MINUTE } from '../helpers/test-clock.ts';

/** «Entrenos abiertos» (issue #35, docs/decisions/0055): every route's access, the both-ways filters, blocks, «Completo», replays. */
describe('open sessions', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;
  let sessions: OpenSessionApi;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createDiscoveryApi(app);
    sessions = createOpenSessionApi(api, () => clock.now());
  });
  afterAll(async () => {
    await app?.close();
  });

  const publishBody = (overrides: Record<string, unknown> = {}) => openSessionBody(clock.now(), overrides);
  const nearbyIds = async (user: TestUser) => {
    const listed = await api.get('/open-sessions/nearby', user.token);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    return (listed.body.sessions as OpenSession[]).map((session) => session._id);
  };
  const titlesOf = async (user: TestUser) => {
    const listed = await api.get('/notifications', user.token);
    return ((listed.body.notifications ?? []) as { title: string }[]).map((n) => n.title);
  };

  it('publishes once per clientId, refuses bad input in Spanish, and never shows a position', async () => {
    const host = await api.userWithProfile({}, 'Ana');
    const body = publishBody();
    const created = await api.post('/open-sessions', body, host.token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const session = created.body.session as OpenSession;
    expect(session).toMatchObject({ myState: 'host', places: 2, taken: 0, isFull: false, status: 'open' });
    const replay = await api.post('/open-sessions', body, host.token);
    expect(replay.status).toBe(200);
    expect((replay.body.session as OpenSession)._id).toBe(session._id);

    const tooMany = await api.post('/open-sessions', publishBody({ places: 8 }), host.token);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe(M.places);
    const past = await api.post(
      '/open-sessions',
      publishBody({ startsAt: new Date(clock.now().getTime() - 60_000).toISOString() }),
      host.token,
    );
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(M.startsInPast);
    const junk = await api.post('/open-sessions', { nonsense: true }, host.token);
    expect(junk.status).toBe(400);
    expect((await api.post('/open-sessions', publishBody())).status).toBe(401);

    const viewer = await api.userWithProfile({}, 'Bea');
    const listed = await api.get('/open-sessions/nearby', viewer.token);
    const seen = (listed.body.sessions as OpenSession[]).find((s) => s._id === session._id);
    expect(seen).toMatchObject({ distanceText: 'A menos de 1 km', myState: null, conversationId: null });
    expect(JSON.stringify(listed.body)).not.toMatch(/latitude|longitude/);
  });

  it('shows a session only to people who fit the host both ways, within both distances, never across a block or from a hidden host', async () => {
    const host = await api.userWithProfile(
      { preferences: { gender_preference: 'both', age_range: { min: 25, max: 40 }, distance: 50 } },
      'Carla',
    );
    const session = await sessions.publish(host);
    const fits = await api.userWithProfile({}, 'Dora');
    const wantsMen = await api.userWithProfile(
      { preferences: { gender_preference: 'male', age_range: { min: 18, max: 99 }, distance: 50 } },
      'Elsa',
    );
    const tooYoung = await api.userWithProfile({ birthDate: '2006-01-15' }, 'Fani');
    const farAway = await api.userWithProfile(
      { location: { latitude: 41.3874, longitude: 2.1686, city: 'Barcelona' } },
      'Gema',
    );
    const blocked = await api.userWithProfile({}, 'Hugo');
    const block = await api.post('/safety/blocks', { userId: blocked.userId, reason: 'harassment' }, host.token);
    expect(block.status, JSON.stringify(block.body)).toBeLessThan(300);

    expect(await nearbyIds(fits)).toContain(session._id);
    for (const user of [wantsMen, tooYoung, farAway, blocked]) {
      expect(await nearbyIds(user)).not.toContain(session._id);
      const detail = await api.get(`/open-sessions/${session._id}`, user.token);
      expect(detail.status).toBe(404);
      expect(detail.body.message).toBe(M.notFound);
      const join = await sessions.write(user, `${session._id}/join`);
      expect(join.status).toBe(404);
    }

    // A hidden (or restricted) host's sessions leave every list at once.
    await app.database.db.execute(sql`update profiles set visible = false where user_id = ${host.userId}::uuid`);
    expect(await nearbyIds(fits)).not.toContain(session._id);
    expect((await api.get(`/open-sessions/${session._id}`, fits.token)).status).toBe(404);
    await app.database.db.execute(sql`update profiles set visible = true where user_id = ${host.userId}::uuid`);
    expect(await nearbyIds(fits)).toContain(session._id);

    // A malformed id reads as a missing session.
    expect((await api.get('/open-sessions/not-a-uuid', fits.token)).status).toBe(404);
  });

  it('places a session at its gym’s cell when the gym list knows it near the host, else at the host’s cell', async () => {
    // Toledo, ~70 km from the hosts in central Madrid.
    await app.database.db.execute(sql`insert into gyms (name, name_key, address, city, city_key, latitude, longitude, source)
      values ('Gimnasio Prueba Toledo', ${normalizeGymName('Gimnasio Prueba Toledo')}, 'Calle Real 1', 'Toledo', 'toledo',
        39.8628, -4.0273, 'test')`);
    const wide = { preferences: { gender_preference: 'both', age_range: { min: 18, max: 99 }, distance: 100 } };
    const host = await api.userWithProfile(wide, 'Wendy');
    const atGym = await sessions.publish(host, { gymName: 'Gimnasio Prueba Toledo' });
    const atHome = await sessions.publish(host, { gymName: 'Gimnasio Sin Coordenadas' });
    const inToledo = await api.userWithProfile(
      { ...wide, location: { latitude: 39.8628, longitude: -4.0273, city: 'Toledo' } },
      'Xenia',
    );
    const listed = (await api.get('/open-sessions/nearby', inToledo.token)).body.sessions as OpenSession[];
    expect(listed.find((s) => s._id === atGym._id)?.distanceText).toBe('A menos de 1 km');
    expect(listed.find((s) => s._id === atHome._id)?.distanceText).toMatch(/^A [6-8]\d km$/);
  });

  it('shows a «Mis matches» session to the host’s matches only', async () => {
    const pair = await createMatchedPair(api, { names: ['Irene', 'Julia'] });
    const session = await sessions.publish(pair.a, { visibility: 'matches' });
    const stranger = await api.userWithProfile({}, 'Karen');
    expect(await nearbyIds(pair.b)).toContain(session._id);
    expect(await nearbyIds(stranger)).not.toContain(session._id);
    expect((await api.get(`/open-sessions/${session._id}`, stranger.token)).status).toBe(404);
  });

  it('lists beyond the search box only a match’s session, a repeat one is invited to, or one asked into', async () => {
    // The list reads those by the viewer's own rows, not by the box (docs/decisions/0055, session 17).
    const pair = await createMatchedPair(api, { names: ['Celia', 'Diana'] });
    const [host, viewer] = [pair.a, pair.b];
    const other = await api.userWithProfile({}, 'Elena'); // not matched with the viewer
    const stranger = await api.userWithProfile({}, 'Fabiola');
    const forMatches = await sessions.publish(host, { visibility: 'matches' });
    const nearby = await sessions.publish(host);
    const held = await sessions.publish(other);
    const repeat = await sessions.publish(other);
    expect((await sessions.write(viewer, `${held._id}/join`)).status).toBe(200);
    expect((await sessions.write(viewer, `${nearby._id}/join`)).status).toBe(200);
    for (const session of [forMatches, nearby, repeat]) {
      await app.database.db.execute(
        sql`update open_sessions set latitude = 41.39, longitude = 2.17 where id = ${session._id}::uuid`,
      );
    }
    await app.database.db.execute(
      sql`update open_sessions set repeat_of = ${held._id}::uuid where id = ${repeat._id}::uuid`,
    );

    const seen = await nearbyIds(viewer);
    expect(seen).toEqual(expect.arrayContaining([forMatches._id, repeat._id, held._id]));
    // Far for the nearby rule, and neither a «Mis matches» session nor a repeat: not in this list.
    expect(seen).not.toContain(nearby._id);
    const strangerSees = await nearbyIds(stranger);
    expect(strangerSees).not.toContain(forMatches._id);
    expect(strangerSees).not.toContain(repeat._id);

    // Once the match is over, the «Mis matches» session is listed only to whoever holds a place in it.
    expect((await sessions.write(viewer, `${forMatches._id}/join`)).status).toBe(200);
    await app.database.db.execute(sql`update conversations set status = 'unmatched'
      where kind = 'match' and ${host.userId}::uuid in (user_a, user_b) and ${viewer.userId}::uuid in (user_a, user_b)`);
    expect(await nearbyIds(viewer)).toContain(forMatches._id);
    expect((await sessions.write(viewer, `${forMatches._id}/leave`)).status).toBe(200);
    expect(await nearbyIds(viewer)).not.toContain(forMatches._id);
  });

  it('first come takes the places; then «Completo»; a replayed join takes no second place', async () => {
    const host = await api.userWithProfile({}, 'Lola');
    const session = await sessions.publish(host, { places: 1, approval: 'first' });
    const first = await api.userWithProfile({}, 'Marta');
    const second = await api.userWithProfile({}, 'Nora');
    const joinBody = { clientId: randomUUID() };
    const joined = await api.post(`/open-sessions/${session._id}/join`, joinBody, first.token);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.session).toMatchObject({ myState: 'approved', taken: 1, isFull: true });
    const replay = await api.post(`/open-sessions/${session._id}/join`, joinBody, first.token);
    expect(replay.status).toBe(200);
    expect(replay.body.session).toMatchObject({ myState: 'approved', taken: 1 });

    const full = await sessions.write(second, `${session._id}/join`);
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('Completo');
    const seen = await api.get(`/open-sessions/${session._id}`, second.token);
    expect(seen.body.session).toMatchObject({ isFull: true, myState: null });
    expect((await titlesOf(host)).filter((title) => title === 'Nuevo compañero')).toHaveLength(1);

    // Leaving frees the place; the host cannot join their own session.
    expect((await sessions.write(first, `${session._id}/leave`)).status).toBe(200);
    expect((await sessions.write(second, `${session._id}/join`)).body.session).toMatchObject({ myState: 'approved' });
    const own = await sessions.write(host, `${session._id}/join`);
    expect(own.status).toBe(409);
    expect(own.body.message).toBe(M.ownSession);
  });

  it("«Salir» in the session's group chat leaves the session: the place is freed, the host told; the host may not leave", async () => {
    const host = await api.userWithProfile({}, 'Teresa');
    const session = await sessions.publish(host, { places: 1, approval: 'first' });
    const member = await api.userWithProfile({}, 'Úrsula');
    const waiting = await api.userWithProfile({}, 'Vera');
    const joined = await sessions.write(member, `${session._id}/join`);
    expect(joined.body.session).toMatchObject({ myState: 'approved', taken: 1, isFull: true });
    const conversationId = (joined.body.session as OpenSession).conversationId as string;
    expect(conversationId).toEqual(expect.any(String));
    expect((await api.get(`/groups/${conversationId}`, member.token)).status).toBe(200);

    const refused = await api.post(`/groups/${conversationId}/leave`, {}, host.token);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(M.hostCannotLeave);
    expect((await api.get(`/groups/${conversationId}`, host.token)).status).toBe(200);

    // Outsiders learn nothing: someone who never held a place gets the 404 of anyone else's group.
    const outsider = await api.userWithProfile({}, 'Xenia');
    expect((await api.post(`/groups/${conversationId}/leave`, {}, outsider.token)).status).toBe(404);
    // A malformed body is a Spanish 400, not a leave.
    const malformed = await api.post(`/groups/${conversationId}/leave`, { clientId: 'no válido' }, member.token);
    expect(malformed.status).toBe(400);
    expect((await api.get(`/groups/${conversationId}`, member.token)).status).toBe(200);

    // The outbox's «Salir»: with its clientId, replayed (same clientId) and repeated (a new one).
    const clientId = randomUUID();
    expect((await api.post(`/groups/${conversationId}/leave`, { clientId }, member.token)).status).toBe(200);
    const after = await api.get(`/open-sessions/${session._id}`, member.token);
    expect(after.body.session).toMatchObject({ myState: 'left', taken: 0, isFull: false });
    expect((await api.get(`/groups/${conversationId}`, member.token)).status).toBe(404);
    expect(await titlesOf(host)).toContain('Cambio en tu entreno');
    // The freed place is taken by the next one; a replayed or repeated «Salir» changes nothing.
    expect((await sessions.write(waiting, `${session._id}/join`)).body.session).toMatchObject({ myState: 'approved' });
    expect((await api.post(`/groups/${conversationId}/leave`, { clientId }, member.token)).status).toBe(200);
    expect((await api.post(`/groups/${conversationId}/leave`, {}, member.token)).status).toBe(200);
    const still = await api.get(`/open-sessions/${session._id}`, member.token);
    expect(still.body.session).toMatchObject({ myState: 'left', taken: 1 });
    // The host's notice of the session is still the join's (one notice per session, the newest
    // kept): a replayed or repeated leave told them nothing.
    expect(await titlesOf(host)).toEqual(['Nuevo compañero']);
  });

  it('host approval: the host sees profile, reasons and reliability; only the host answers, removes or cancels', async () => {
    const host = await api.userWithProfile({}, 'Olga');
    const session = await sessions.publish(host, { approval: 'host', places: 2 });
    const asker = await api.userWithProfile({}, 'Paula');
    const other = await api.userWithProfile({}, 'Rosa');
    const stranger = await api.userWithProfile(
      { location: { latitude: 41.3874, longitude: 2.1686, city: 'Barcelona' } },
      'Sara',
    );

    const asked = await sessions.write(asker, `${session._id}/join`, { message: 'Voy con ganas' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body.session).toMatchObject({ myState: 'requested', taken: 0 });
    expect(await titlesOf(host)).toContain('Nueva solicitud');
    expect((await sessions.write(other, `${session._id}/join`)).status).toBe(200);

    const members = await api.get(`/open-sessions/${session._id}/members`, host.token);
    expect(members.status).toBe(200);
    const request = (members.body.members as OpenSessionMember[]).find((m) => m.userId === asker.userId);
    expect(request).toMatchObject({ state: 'requested', message: 'Voy con ganas', reliability: null });
    expect(request?.profile?.name).toBe('Paula');
    expect(request?.profile?.compatibilityReasons.length).toBeGreaterThan(0);

    // Someone who sees the session but is not its host: 403; someone who cannot see it: 404.
    for (const [user, status] of [
      [asker, 403],
      [stranger, 404],
    ] as const) {
      expect((await api.get(`/open-sessions/${session._id}/members`, user.token)).status).toBe(status);
      expect(
        (await sessions.write(user, `${session._id}/requests/${other.userId}`, { decision: 'approve' })).status,
      ).toBe(status);
      expect((await sessions.write(user, `${session._id}/members/${other.userId}/remove`)).status).toBe(status);
      expect((await sessions.write(user, `${session._id}/cancel`)).status).toBe(status);
    }
    const forbidden = await api.get(`/open-sessions/${session._id}/members`, asker.token);
    expect(forbidden.body.message).toBe(M.hostOnly);
    const badDecision = await sessions.write(host, `${session._id}/requests/${asker.userId}`, { decision: 'maybe' });
    expect(badDecision.status).toBe(400);
    expect(badDecision.body.message).toBe(M.invalidDecision);
    expect((await sessions.write(host, `${session._id}/requests/nobody`, { decision: 'approve' })).status).toBe(400);

    const approveBody = { clientId: randomUUID(), decision: 'approve' };
    const approved = await api.post(`/open-sessions/${session._id}/requests/${asker.userId}`, approveBody, host.token);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.session).toMatchObject({ taken: 1 });
    const replay = await api.post(`/open-sessions/${session._id}/requests/${asker.userId}`, approveBody, host.token);
    expect(replay.status).toBe(200);
    expect(await titlesOf(asker)).toContain('Solicitud aceptada');
    expect((await api.get(`/open-sessions/${session._id}`, asker.token)).body.session).toMatchObject({
      myState: 'approved',
    });

    const declined = await sessions.write(host, `${session._id}/requests/${other.userId}`, { decision: 'decline' });
    expect(declined.status).toBe(200);
    const again = await sessions.write(other, `${session._id}/join`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(M.cannotRejoin);

    // The host removes the member; a removed member cannot come back.
    expect((await sessions.write(host, `${session._id}/members/${asker.userId}/remove`)).status).toBe(200);
    expect(await titlesOf(asker)).toContain('Ya no estás en el entreno');
    expect((await sessions.write(asker, `${session._id}/join`)).status).toBe(409);

    // Cancelling tells everyone holding or waiting for a place; a replay answers the cancelled session.
    const late = await api.userWithProfile({}, 'Tania');
    expect((await sessions.write(late, `${session._id}/join`)).status).toBe(200);
    const cancelBody = { clientId: randomUUID() };
    const cancelled = await api.post(`/open-sessions/${session._id}/cancel`, cancelBody, host.token);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.session).toMatchObject({ status: 'cancelled' });
    expect((await api.post(`/open-sessions/${session._id}/cancel`, cancelBody, host.token)).status).toBe(200);
    expect((await titlesOf(late)).filter((title) => title === 'Entreno cancelado')).toHaveLength(1);
    expect(await nearbyIds(late)).not.toContain(session._id);
    const mine = await api.get('/open-sessions/mine', host.token);
    expect((mine.body.sessions as OpenSession[]).map((s) => s._id)).toContain(session._id);
  });

  it('«Añadir al calendario»: the .ics for the host and approved members, while the session is on', async () => {
    const host = await api.userWithProfile({}, 'Begoña');
    const session = await sessions.publish(host, { approval: 'host', note: 'Traed toalla' });
    const member = await api.userWithProfile({}, 'Carmen');
    const asker = await api.userWithProfile({}, 'Diana');
    const stranger = await api.userWithProfile(
      { location: { latitude: 41.3874, longitude: 2.1686, city: 'Barcelona' } },
      'Elena',
    );
    expect((await sessions.write(member, `${session._id}/join`)).status).toBe(200);
    expect(
      (await sessions.write(host, `${session._id}/requests/${member.userId}`, { decision: 'approve' })).status,
    ).toBe(200);
    expect((await sessions.write(asker, `${session._id}/join`)).status).toBe(200);

    const calendar = (user: TestUser, id = session._id) =>
      fetch(`${app.url}/api/open-sessions/${id}/calendar`, { headers: { authorization: `Bearer ${user.token}` } });
    for (const [user, who] of [
      [host, 'Tu entreno abierto: Pierna'],
      [member, 'Entreno abierto de Begoña: Pierna'],
    ] as const) {
      const answer = await calendar(user);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
      expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="entreno-abierto-.+\.ics"$/);
      const ics = (await answer.text()).replace(/\r\n /g, '');
      expect(ics).toContain(`UID:open-session-${session._id}@entreno.app`);
      expect(ics).toContain(`DESCRIPTION:${who}`);
      expect(ics).toContain(`URL:${app.config.publicOrigin}/entrenos/abiertos/${session._id}`);
    }
    // Waiting for an answer: not yet in it. Unseen or unknown: as if it did not exist.
    const waiting = await calendar(asker);
    expect(waiting.status).toBe(403);
    expect(((await waiting.json()) as { message: string }).message).toBe(M.notJoined);
    expect((await calendar(stranger)).status).toBe(404);
    expect((await calendar(member, 'not-an-id')).status).toBe(404);
    expect((await calendar(member, randomUUID())).status).toBe(404);

    expect((await sessions.write(host, `${session._id}/cancel`)).status).toBe(200);
    const cancelled = await calendar(member);
    expect(cancelled.status).toBe(409);
    expect(((await cancelled.json()) as { message: string }).message).toBe(M.notOpen);
  });

  it('a moderator removes a session; anyone else meets an unknown route', async () => {
    const host = await api.userWithProfile({}, 'Úrsula');
    const session = await sessions.publish(host);
    const member = await api.userWithProfile({}, 'Vera');
    expect((await sessions.write(member, `${session._id}/join`)).status).toBe(200);

    const refused = await sessions.write(host, `${session._id}/moderation/remove`);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe(SERVER_MESSAGES.routeNotFound);

    const moderator = await createModerator(app);
    const removed = await sessions.write(moderator, `${session._id}/moderation/remove`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.session).toMatchObject({ status: 'removed' });
    expect(await titlesOf(host)).toContain('Entreno retirado');
    expect(await titlesOf(member)).toContain('Entreno retirado');
    expect(await nearbyIds(member)).not.toContain(session._id);
    expect((await sessions.write(member, `${session._id}/join`)).status).toBe(409);
  });

  it('keeps the group chat in step: made at publish for the host, joined when approved, left, closed at cancel', async () => {
    // The chat's group calls as a recording stand-in (the chat module provides them; decision 0056).
    const pair = await createMatchedPair(api, { names: ['Bárbara', 'Celia'] });
    const calls: string[] = [];
    const groupChat: OpenSessionGroupChat = {
      async createGroupConversation(input) {
        calls.push(`create ${input.ownerId} ${input.title}`);
        return { conversationId: pair.conversationId };
      },
      async addGroupMember(conversationId, userId) {
        calls.push(`add ${conversationId} ${userId}`);
      },
      async removeGroupMember(conversationId, userId, reason) {
        calls.push(`remove ${conversationId} ${userId} ${reason}`);
      },
      async closeGroupConversation(conversationId) {
        calls.push(`close ${conversationId}`);
      },
    };
    const db = app.database.db;
    const service = createOpenSessionService({
      sessions: createOpenSessionRepository(db),
      profiles: createProfileRepository(db),
      privacyOf: openPrivacyReader,
      reliabilityOf: async () => null,
      isModerator: async () => false,
      realtime: { emitToUser: () => undefined },
      groupChat,
      limiter: app.limiter,
      clock,
      logger: app.http.log,
    });
    const caller = (user: TestUser) => ({ userId: user.userId, sessionId: randomUUID() });
    const host = pair.a;
    const body = publishBody({ approval: 'host', activity: 'Core' });
    const published = await service.publish(caller(host), body);
    expect(published.session.conversationId).toBe(pair.conversationId);
    expect((await service.publish(caller(host), body)).isNew).toBe(false);
    const id = published.session._id;
    const joiner = pair.b;
    await service.join(caller(joiner), id, { clientId: randomUUID() });
    await service.answer(caller(host), id, joiner.userId, { clientId: randomUUID(), decision: 'approve' });
    await service.leave(caller(joiner), id, { clientId: randomUUID() });
    await service.cancel(caller(host), id, { clientId: randomUUID() });
    const c = pair.conversationId;
    expect(calls).toEqual([
      `create ${host.userId} Core · Altafit Argüelles`,
      `add ${c} ${joiner.userId}`,
      `remove ${c} ${joiner.userId} left`,
      `close ${c}`,
    ]);
  });

  it('answers any body, id and user id with a Spanish 2xx/4xx, never a 5xx (QUALITY 12)', async () => {
    const host = await api.userWithProfile({}, 'Débora');
    const other = await api.userWithProfile({}, 'Eva');
    const session = await sessions.publish(host, { approval: 'host' });
    const hostile = fc.oneof(
      fc.anything({ maxDepth: 2 }),
      fc.string({ maxLength: 300 }),
      fc.constantFrom('', 'x'.repeat(5000), '\u0000', '__proto__', '-1', '1e9'),
      fc.integer(),
      fc.constant(null),
    );
    const body = fc.oneof(
      fc.record(
        {
          clientId: fc.oneof(fc.uuid(), hostile),
          gymName: hostile,
          startsAt: hostile,
          durationMin: hostile,
          activity: hostile,
          level: hostile,
          places: hostile,
          visibility: hostile,
          approval: hostile,
          message: hostile,
          decision: hostile,
        },
        { requiredKeys: [] },
      ),
      fc.anything({ maxDepth: 2 }),
    );
    const id = fc.oneof(fc.constant(session._id), fc.uuid(), fc.string({ maxLength: 40 }));
    const paths = (sessionId: string, userId: string) => [
      '',
      `${sessionId}/join`,
      `${sessionId}/leave`,
      `${sessionId}/cancel`,
      `${sessionId}/moderation/remove`,
      `${sessionId}/requests/${userId}`,
      `${sessionId}/members/${userId}/remove`,
    ];
    await fc.assert(
      fc.asyncProperty(
        id,
        fc.oneof(fc.constant(other.userId), fc.string({ maxLength: 40 })),
        body,
        async (sid, uid, sent) => {
          for (const path of paths(encodeURIComponent(sid), encodeURIComponent(uid))) {
            for (const user of [host, other]) {
              const response = await api.post(`/open-sessions/${path}`, sent, user.token);
              const label = `${path} ${JSON.stringify(sent)?.slice(0, 200)}`;
              expect(response.status, label).toBeLessThan(500);
              if (response.status >= 400) expect(response.body.message, label).not.toMatch(/^Invalid /);
            }
          }
          const read = await api.get(`/open-sessions/${encodeURIComponent(sid)}`, other.token);
          expect(read.status).toBeLessThan(500);
        },
      ),
      { numRuns: 40 },
    );
  });

  // Last: it moves the clock.
  it('reminds the host and every approved member once, however many passes run at once; never a cancelled session', async () => {
    const host = await api.userWithProfile({}, 'Yolanda');
    const member = await api.userWithProfile({}, 'Zoe');
    const asker = await api.userWithProfile({}, 'Alba');
    const startsAt = new Date(clock.now().getTime() + 3 * HOUR).toISOString();
    const session = await sessions.publish(host, { startsAt, approval: 'host', activity: 'Remo' });
    const cancelled = await sessions.publish(host, { startsAt, activity: 'Spinning' });
    expect((await sessions.write(member, `${session._id}/join`)).status).toBe(200);
    expect(
      (await sessions.write(host, `${session._id}/requests/${member.userId}`, { decision: 'approve' })).status,
    ).toBe(200);
    expect((await sessions.write(asker, `${session._id}/join`)).status).toBe(200);
    expect((await sessions.write(host, `${cancelled._id}/cancel`)).status).toBe(200);

    await Promise.all(Array.from({ length: 4 }, () => app.openSessions.runDueReminders()));
    const reminders = async (user: TestUser) => {
      const listed = await api.get('/notifications', user.token);
      return ((listed.body.notifications ?? []) as { title: string; body: string }[]).filter(
        (n) => n.title === 'Entreno abierto',
      );
    };
    expect(await reminders(host)).toHaveLength(0);

    clock.advance(HOUR + MINUTE);
    // Concurrent passes (as nodes do) send each reminder once: the collapse key would hide a
    // second in-app row, so the sends themselves are counted.
    const passes = await Promise.all(Array.from({ length: 6 }, () => app.openSessions.runDueReminders()));
    const later = await Promise.all(Array.from({ length: 2 }, () => app.openSessions.runDueReminders()));
    expect([...passes, ...later].reduce((sum, sent) => sum + sent, 0)).toBe(2);
    for (const user of [host, member]) {
      const got = await reminders(user);
      expect(got).toHaveLength(1);
      expect(got[0]?.body).toContain('Remo en Altafit Argüelles');
    }
    // A pending request is no place: no reminder; a cancelled session reminds nobody.
    expect(await reminders(asker)).toHaveLength(0);
    expect((await reminders(host)).some((n) => n.body.includes('Spinning'))).toBe(false);
    const [row] = (
      (await app.database.db.execute(
        sql`select reminder_done_at from open_sessions where id = ${session._id}::uuid`,
      )) as unknown as { rows: { reminder_done_at: Date | null }[] }
    ).rows;
    expect(row?.reminder_done_at).not.toBeNull();
  });
});
