// @setup embedded
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ATTENDANCE_MESSAGES as A,
  type Attendance,
  type AttendanceConnection,
} from '#shared/open-sessions/open-session-after';
import { OPEN_SESSION_MESSAGES as M, type OpenSession } from '#shared/open-sessions/open-session-schemas';
import { NOTIFICATION_MESSAGES } from '#shared/notifications/notification-messages';
import { endOf } from '#shared/quedadas/quedada-state';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { createOpenSessionApi, type OpenSessionApi } from '../helpers/open-session-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, MINUTE } from '../helpers/test-clock.ts';

/**
 * «Conectar» after an open session (issue #35, docs/decisions/0055, amendment of session 16): two
 * people the marks say trained together make a match without the deck — the rows a mutual like
 * makes, once, announced as one — only between the session's people, never across a block, a
 * hidden or restricted profile or a «no» in the deck.
 */
describe('open sessions: connect after training', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;
  let sessions: OpenSessionApi;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createDiscoveryApi(app);
    sessions = createOpenSessionApi(api, () => clock.now(), { places: 5, approval: 'host' });
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A session of `host` with `members` approved, then over. */
  const heldWith = async (host: TestUser, members: TestUser[], asker?: TestUser) => {
    const session = await sessions.publish(host);
    await sessions.admit(session, host, members);
    if (asker) expect((await sessions.write(asker, `${session._id}/join`)).status).toBe(200);
    return session;
  };
  /** `marker` says every one of `subjects` came. */
  const cameAll = async (session: OpenSession, marker: TestUser, subjects: TestUser[]) => {
    const marks = subjects.map((subject) => ({ userId: subject.userId, came: true }));
    const marked = await sessions.write(marker, `${session._id}/attendance`, { marks });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
  };
  const connect = (user: TestUser, session: OpenSession, other: TestUser | string, clientId = randomUUID()) =>
    api.post(
      `/open-sessions/${session._id}/connect`,
      { clientId, userId: typeof other === 'string' ? other : other.userId },
      user.token,
    );
  const connectionIn = (attendance: Attendance, other: TestUser): AttendanceConnection | undefined =>
    attendance.people.find((person) => person.userId === other.userId)?.connection;
  const seenBy = async (user: TestUser, session: OpenSession, other: TestUser) => {
    const read = await api.get(`/open-sessions/${session._id}/attendance`, user.token);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    return connectionIn(read.body.attendance as Attendance, other);
  };
  const matchTitles = async (user: TestUser) =>
    (((await api.get('/notifications', user.token)).body.notifications ?? []) as { title: string }[]).filter(
      (n) => n.title === NOTIFICATION_MESSAGES.matchTitle,
    ).length;
  const pairRows = async (a: TestUser, b: TestUser) => {
    const result = (await app.database.db.execute(sql`select m.swipe_type, c.kind, c.status, c.user_a, c.user_b,
        (select count(*)::int from conversation_participants p where p.conversation_id = c.id) as members
      from matches m join conversations c on c.match_id = m.id
      where m.user_low = least(${a.userId}::uuid, ${b.userId}::uuid)
        and m.user_high = greatest(${a.userId}::uuid, ${b.userId}::uuid)`)) as unknown as {
      rows: { swipe_type: string; kind: string; status: string; user_a: string; user_b: string; members: number }[];
    };
    return result.rows;
  };

  it('two who came make one match, as a mutual like does; only the session’s people, once, replayed once', async () => {
    const host = await api.userWithProfile({}, 'Alba');
    const bea = await api.userWithProfile({}, 'Bea');
    const cris = await api.userWithProfile({}, 'Cris');
    const asker = await api.userWithProfile({}, 'Dana');
    const stranger = await api.userWithProfile({}, 'Elia');
    const session = await heldWith(host, [bea, cris], asker);

    // Before connecting, Alba and Bea are in each other's deck.
    const deckOf = async (user: TestUser) => {
      const answer = await api.get(`/profiles/${user.userId}/recommended?limit=50`, user.token);
      expect(answer.status).toBe(200);
      return (answer.body.profiles as { userId: string }[]).map((profile) => profile.userId);
    };
    expect(await deckOf(bea)).toContain(host.userId);

    const early = await connect(bea, session, host);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(A.notEnded);
    clock.set(new Date(endOf(session) + MINUTE));

    // Nobody marked yet: nothing to connect.
    expect(await seenBy(bea, session, host)).toEqual({ status: 'unavailable' });
    const unmarked = await connect(bea, session, host);
    expect(unmarked.status).toBe(409);
    expect(unmarked.body.message).toBe(A.notTrainedTogether);

    // Access: a requester 403, a stranger and a malformed id 404, bad bodies and people not in it 400.
    const requester = await connect(asker, session, host);
    expect(requester.status).toBe(403);
    expect(requester.body.message).toBe(M.notJoined);
    expect((await connect(stranger, session, host)).status).toBe(404);
    expect(
      (await api.post('/open-sessions/nope/connect', { clientId: randomUUID(), userId: host.userId }, bea.token))
        .status,
    ).toBe(404);
    expect(
      (await api.post(`/open-sessions/${session._id}/connect`, { clientId: randomUUID(), userId: host.userId })).status,
    ).toBe(401);
    for (const body of [
      {},
      { clientId: randomUUID() },
      { clientId: randomUUID(), userId: 'nadie' },
      { userId: host.userId },
    ]) {
      const bad = await api.post(`/open-sessions/${session._id}/connect`, body, bea.token);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.message).not.toMatch(/^Invalid /);
    }
    for (const other of [bea, asker, stranger]) {
      const notListed = await connect(bea, session, other);
      expect(notListed.status).toBe(400);
      expect(notListed.body.message).toBe(A.notListed);
    }

    // Host and Bea mark each other «Vino»: both came, as the marks say.
    await cameAll(session, host, [bea]);
    expect(await seenBy(bea, session, host)).toEqual({ status: 'unavailable' });
    await cameAll(session, bea, [host]);
    expect(await seenBy(bea, session, host)).toEqual({ status: 'available' });
    expect(await seenBy(bea, session, cris)).toEqual({ status: 'unavailable' });

    const clientId = randomUUID();
    const made = await connect(bea, session, host, clientId);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const connected = connectionIn(made.body.attendance as Attendance, host);
    expect(connected).toMatchObject({ status: 'connected' });
    const conversationId = (connected as { conversationId: string }).conversationId;
    // The rows a mutual like makes: the match, its conversation (kind match, the ordered pair), both members.
    const [low, high] = [host.userId, bea.userId].sort();
    expect(await pairRows(host, bea)).toEqual([
      { swipe_type: 'like', kind: 'match', status: 'active', user_a: low, user_b: high, members: 2 },
    ]);
    // It is a match like any other: both lists show it, and it carries messages.
    for (const [user, other] of [
      [host, bea],
      [bea, host],
    ] as const) {
      const listed = await api.get(`/swipes/users/${user.userId}/matches`, user.token);
      const matches = listed.body.matches as { conversationId: string; otherUser: { userId: string } }[];
      expect(matches.find((match) => match.conversationId === conversationId)?.otherUser.userId).toBe(other.userId);
    }
    const sent = await api.post(
      '/messages/messages',
      { conversationId, receiverId: host.userId, text: '¡Gran entreno!', clientId: randomUUID() },
      bea.token,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
    // The usual match notification, to each of the two, once.
    await expect.poll(() => matchTitles(host)).toBe(1);
    await expect.poll(() => matchTitles(bea)).toBe(1);

    // A replay (the outbox's), the host's own «Conectar» and a second one: the same match, told nobody.
    expect((await connect(bea, session, host, clientId)).status).toBe(200);
    const back = await connect(host, session, bea);
    expect(back.status).toBe(200);
    expect(connectionIn(back.body.attendance as Attendance, bea)).toEqual({ status: 'connected', conversationId });
    expect((await connect(bea, session, host)).status).toBe(200);
    expect(await pairRows(host, bea)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await matchTitles(host)).toBe(1);
    expect(await matchTitles(bea)).toBe(1);

    // Matched, they leave each other's deck (decision 0055, session 17) ...
    expect(await deckOf(bea)).not.toContain(host.userId);
    expect(await deckOf(host)).not.toContain(bea.userId);
    // ... but a like from a deck another device still holds answers the match they have, and tells
    // nobody of a «new» one.
    clock.set(new Date(endOf(session) + 2 * MINUTE));
    for (const [from, to] of [
      [bea, host],
      [host, bea],
    ] as const) {
      const liked = await api.post(
        `/swipes/users/${from.userId}/swipe`,
        { target_user_id: to.userId, action: 'like', clientId: randomUUID() },
        from.token,
      );
      expect(liked.status, JSON.stringify(liked.body)).toBe(200);
    }
    expect(await pairRows(host, bea)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await matchTitles(host)).toBe(1);
    expect(await matchTitles(bea)).toBe(1);
  });

  it('never across a block, a hidden or restricted profile, an unmatched pair or a «no» in the deck', async () => {
    const host = await api.userWithProfile({}, 'Fina');
    const [gala, hebe, ines, jana] = [
      await api.userWithProfile({}, 'Gala'),
      await api.userWithProfile({}, 'Hebe'),
      await api.userWithProfile({}, 'Inés'),
      await api.userWithProfile({}, 'Jana'),
    ];
    const everyone = [host, gala, hebe, ines, jana];
    const session = await heldWith(host, [gala, hebe, ines, jana]);
    clock.set(new Date(endOf(session) + MINUTE));
    for (const marker of everyone) {
      await cameAll(
        session,
        marker,
        everyone.filter((user) => user !== marker),
      );
    }
    expect(await seenBy(gala, session, host)).toEqual({ status: 'available' });

    // Hebe blocks Gala: neither way.
    const block = await api.post('/safety/blocks', { userId: gala.userId, reason: 'harassment' }, hebe.token);
    expect(block.status, JSON.stringify(block.body)).toBeLessThan(300);
    for (const [from, to] of [
      [gala, hebe],
      [hebe, gala],
    ] as const) {
      expect(await seenBy(from, session, to)).toEqual({ status: 'unavailable' });
      const refused = await connect(from, session, to);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(A.cannotConnect);
    }
    // Inés hides her profile («Perfil visible» off): nobody connects with her until she shows it.
    expect((await api.put('/settings', { privacy: { showProfile: false } }, ines.token)).status).toBe(200);
    expect((await connect(gala, session, ines)).body.message).toBe(A.cannotConnect);
    expect((await api.put('/settings', { privacy: { showProfile: true } }, ines.token)).status).toBe(200);
    expect(await seenBy(gala, session, ines)).toEqual({ status: 'available' });
    // A profile moderation restricted (active off, docs/decisions/0033): neither to it nor from it.
    await app.database.db.execute(sql`update profiles set active = false where user_id = ${jana.userId}::uuid`);
    expect((await connect(gala, session, jana)).body.message).toBe(A.cannotConnect);
    expect((await connect(jana, session, host)).body.message).toBe(A.cannotConnect);
    await app.database.db.execute(sql`update profiles set active = true where user_id = ${jana.userId}::uuid`);
    // Jana said «no» to Gala in the deck: that stands.
    const dislike = await api.post(
      `/swipes/users/${jana.userId}/swipe`,
      { target_user_id: gala.userId, action: 'dislike' },
      jana.token,
    );
    expect(dislike.status, JSON.stringify(dislike.body)).toBe(200);
    expect(await seenBy(gala, session, jana)).toEqual({ status: 'unavailable' });
    expect((await connect(gala, session, jana)).body.message).toBe(A.cannotConnect);
    // Gala and the host connect, then Gala unmatches: no second match through the session.
    const made = await connect(gala, session, host);
    const conversationId = (connectionIn(made.body.attendance as Attendance, host) as { conversationId: string })
      .conversationId;
    const unmatched = await api.post(`/messages/conversations/${conversationId}/unmatch`, {}, gala.token);
    expect(unmatched.status, JSON.stringify(unmatched.body)).toBeLessThan(300);
    expect(await seenBy(host, session, gala)).toEqual({ status: 'unavailable' });
    expect((await connect(host, session, gala)).body.message).toBe(A.cannotConnect);
    expect(await pairRows(host, gala)).toEqual([expect.objectContaining({ status: 'unmatched' })]);
    // None of the refusals made a row.
    expect(await pairRows(gala, hebe)).toEqual([]);
    expect(await pairRows(gala, ines)).toEqual([]);
    expect(await pairRows(gala, jana)).toEqual([]);
  });

  it('two «Conectar» at once, each way, make one match', async () => {
    const host = await api.userWithProfile({}, 'Kira');
    const lola = await api.userWithProfile({}, 'Lola');
    const session = await heldWith(host, [lola]);
    clock.set(new Date(endOf(session) + MINUTE));
    await cameAll(session, host, [lola]);
    await cameAll(session, lola, [host]);
    const answers = await Promise.all([connect(host, session, lola), connect(lola, session, host)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await pairRows(host, lola)).toHaveLength(1);
    await expect.poll(() => matchTitles(lola)).toBe(1);
    expect(await matchTitles(host)).toBe(1);
  });
});
