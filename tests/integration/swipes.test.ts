// @setup embedded
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscoveryApi, createSignedInUser, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { connectSocket, nextEvent } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, DAY } from '../helpers/test-clock.ts';

describe('swipes and matches (spec 001 §3, §4, §7)', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const countRows = async (table: 'swipes' | 'matches' | 'conversations', userId: string) => {
    const column = table === 'swipes' ? 'swiper_id' : table === 'matches' ? 'user_low' : 'user_a';
    const other = table === 'swipes' ? 'target_id' : table === 'matches' ? 'user_high' : 'user_b';
    const result = await app.database.db.execute(
      sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)} = ${userId} or ${sql.identifier(other)} = ${userId}`,
    );
    return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n);
  };

  const swipe = (from: TestUser, to: TestUser, action: string, clientId?: string) =>
    api.post(
      `/swipes/users/${from.userId}/swipe`,
      { target_user_id: to.userId, action, ...(clientId ? { clientId } : {}) },
      from.token,
    );

  it('a mutual like makes one match and one conversation; repeats create nothing new', async () => {
    const ana = await api.userWithProfile({}, 'Ana');
    const bruno = await api.userWithProfile({ gender: 'male' }, 'Bruno');
    const socket = await connectSocket(app, { token: ana.token });
    try {
      const first = await swipe(ana, bruno, 'like');
      expect(first.body).toEqual({ success: true, match: false });
      const announced = nextEvent<Record<string, unknown>>(socket, 'match');
      const second = await swipe(bruno, ana, 'like');
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({
        success: true,
        match: true,
        matchData: { otherUser: { userId: ana.userId, name: 'Ana', photos: [] }, swipeType: 'like' },
      });
      const matchData = second.body.matchData as { matchId: string; conversationId: string };
      expect(await announced).toMatchObject({
        matchId: matchData.matchId,
        conversationId: matchData.conversationId,
        otherUser: { userId: bruno.userId, name: 'Bruno' },
        swipeType: 'like',
      });

      // The same swipes again: the original answers, no new rows.
      expect((await swipe(bruno, ana, 'like')).body).toEqual(second.body);
      expect((await swipe(ana, bruno, 'superlike')).body).toEqual({ success: true, match: false });
      expect(await countRows('swipes', ana.userId)).toBe(2);
      expect(await countRows('matches', ana.userId)).toBe(1);
      expect(await countRows('conversations', ana.userId)).toBe(1);
    } finally {
      socket.close();
    }
  });

  it('treats clientId as an idempotency key (offline replay)', async () => {
    const carla = await api.userWithProfile({}, 'Carla');
    const diego = await api.userWithProfile({}, 'Diego');
    const elena = await api.userWithProfile({}, 'Elena');
    const first = await swipe(carla, diego, 'dislike', 'outbox-1');
    expect(first.body).toEqual({ success: true, match: false });
    // Replayed, even with another body: the first one stands.
    expect((await swipe(carla, elena, 'like', 'outbox-1')).body).toEqual(first.body);
    expect(await countRows('swipes', carla.userId)).toBe(1);
  });

  it('creates exactly one match when both swipe at the same instant (20 pairs)', async () => {
    for (let round = 0; round < 20; round += 1) {
      const [x, y] = await Promise.all([api.userWithProfile({}, 'Xenia'), api.userWithProfile({}, 'Yago')]);
      const [a, b] = await Promise.all([swipe(x, y, 'like'), swipe(y, x, round % 2 ? 'superlike' : 'like')]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      // Exactly one of the two completed the pair, and it is the same match for both.
      expect([a.body.match, b.body.match].filter(Boolean)).toHaveLength(1);
      expect(await countRows('matches', x.userId)).toBe(1);
      expect(await countRows('conversations', x.userId)).toBe(1);
      const matched = (a.body.match ? a.body : b.body).matchData as { swipeType: string };
      expect(matched.swipeType).toBe(round % 2 ? 'superlike' : 'like');
    }
  });

  it("a like waits for the pair's lock, then sees the other like committed meanwhile (decision 0036)", async () => {
    const [x, y] = await Promise.all([api.userWithProfile({}, 'Xenia'), api.userWithProfile({}, 'Yago')]);
    const [low, high] = x.userId < y.userId ? [x.userId, y.userId] : [y.userId, x.userId];
    const isWaitingForLock = async () => {
      const result = await app.database.db.execute(
        sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted
          and database = (select oid from pg_database where datname = current_database())`,
      );
      return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n) > 0;
    };
    let answer: Promise<Awaited<ReturnType<typeof swipe>>> | undefined;
    // Another transaction holds the pair's lock and writes Yago's like; Xenia's like arrives meanwhile.
    await app.database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${low}), hashtext(${high}))`);
      await tx.execute(
        sql`insert into swipes (swiper_id, target_id, action) values (${y.userId}::uuid, ${x.userId}::uuid, 'like')`,
      );
      let hasAnswered = false;
      answer = swipe(x, y, 'like');
      void answer.then(() => {
        hasAnswered = true;
      });
      while (!hasAnswered && !(await isWaitingForLock())) await new Promise((resolve) => setImmediate(resolve));
      // Answering before the lock was released means the like read without it.
      expect(hasAnswered).toBe(false);
    });
    const response = await (answer as NonNullable<typeof answer>);
    expect(response.status).toBe(200);
    expect(response.body.match).toBe(true);
    expect(await countRows('matches', x.userId)).toBe(1);
  });

  it('a repeat with another action changes nothing: a dislike stays a dislike, and makes no match', async () => {
    const uma = await api.userWithProfile({}, 'Uma');
    const victor = await api.userWithProfile({}, 'Víctor');
    expect((await swipe(uma, victor, 'dislike')).body).toEqual({ success: true, match: false });
    expect((await swipe(victor, uma, 'superlike')).body).toEqual({ success: true, match: false });
    // Uma's repeat as a like would complete a pair if it were recorded: it is not.
    expect((await swipe(uma, victor, 'like')).body).toEqual({ success: true, match: false });
    expect((await swipe(uma, victor, 'like', 'outbox-uma')).body).toEqual({ success: true, match: false });
    expect(await countRows('swipes', uma.userId)).toBe(2);
    expect(await countRows('matches', uma.userId)).toBe(0);
    expect(await countRows('conversations', uma.userId)).toBe(0);
  });

  it('an outbox replay of the swipe that made a match answers that match, with its partner', async () => {
    const wendy = await api.userWithProfile({}, 'Wendy');
    const xavi = await api.userWithProfile({}, 'Xavi');
    const yolanda = await api.userWithProfile({}, 'Yolanda');
    await swipe(xavi, wendy, 'superlike');
    const made = await swipe(wendy, xavi, 'like', 'outbox-w1');
    expect(made.body).toMatchObject({
      match: true,
      matchData: { otherUser: { userId: xavi.userId, name: 'Xavi' }, swipeType: 'superlike' },
    });
    // The replay answers the original swipe, even if its body names someone else.
    expect((await swipe(wendy, xavi, 'like', 'outbox-w1')).body).toEqual(made.body);
    expect((await swipe(wendy, yolanda, 'dislike', 'outbox-w1')).body).toEqual(made.body);
    expect(await countRows('swipes', wendy.userId)).toBe(2);
    expect(await countRows('swipes', yolanda.userId)).toBe(0);
    expect(await countRows('matches', wendy.userId)).toBe(1);
  });

  it('a pair whose match already exists reuses it when a deleted swipe is made again', async () => {
    const zoe = await api.userWithProfile({}, 'Zoe');
    const alba = await api.userWithProfile({}, 'Alba');
    await swipe(zoe, alba, 'like');
    const made = await swipe(alba, zoe, 'like');
    await app.database.db.execute(sql`delete from swipes where swiper_id = ${alba.userId}`);
    const again = await swipe(alba, zoe, 'superlike');
    expect(again.body).toEqual(made.body);
    expect(await countRows('matches', zoe.userId)).toBe(1);
    expect(await countRows('conversations', zoe.userId)).toBe(1);
    expect((await swipe(alba, zoe, 'like')).body).toEqual(made.body);
  });

  it('a superlike on either side makes a superlike match', async () => {
    const fran = await api.userWithProfile({}, 'Fran');
    const gema = await api.userWithProfile({}, 'Gema');
    await swipe(fran, gema, 'superlike');
    const response = await swipe(gema, fran, 'like');
    expect(response.body).toMatchObject({ match: true, matchData: { swipeType: 'superlike' } });
  });

  it('refuses swipes for someone else, on oneself, on unknown or blocked users, and bad actions', async () => {
    const hugo = await api.userWithProfile({}, 'Hugo');
    const irene = await api.userWithProfile({}, 'Irene');
    expect(
      (
        await api.post(
          `/swipes/users/${irene.userId}/swipe`,
          { target_user_id: hugo.userId, action: 'like' },
          hugo.token,
        )
      ).status,
    ).toBe(403);
    expect((await swipe(hugo, hugo, 'like')).status).toBe(400);
    expect((await swipe(hugo, { ...irene, userId: '00000000-0000-4000-8000-000000000000' }, 'like')).status).toBe(404);
    expect((await swipe(hugo, irene, 'love')).body).toMatchObject({ success: false, message: 'Acción no válida' });
    await app.database.db.execute(
      sql`insert into blocks (blocker_id, blocked_id) values (${irene.userId}, ${hugo.userId})`,
    );
    for (const action of ['like', 'superlike', 'dislike']) {
      const refused = await swipe(hugo, irene, action);
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ success: false, message: 'Usuario no encontrado' });
      // The block counts both ways.
      expect((await swipe(irene, hugo, action)).status).toBe(404);
    }
    // A user without a profile, and a target that is not an id.
    const noProfile = await createSignedInUser(app, 'Sinperfil');
    expect((await swipe(hugo, noProfile, 'dislike')).status).toBe(404);
    expect((await swipe(hugo, { ...irene, userId: 'no-es-un-id' }, 'like')).status).toBe(404);
    expect(await countRows('swipes', hugo.userId)).toBe(0);
    expect(
      (await api.post(`/swipes/users/${hugo.userId}/swipe`, { target_user_id: irene.userId, action: 'like' })).status,
    ).toBe(401);
  });

  it('lists matches with the other user, compatibility and isRecent by the clock', async () => {
    const julia = await api.userWithProfile({}, 'Julia');
    const kike = await api.userWithProfile({ gender: 'male', birthDate: '1990-05-05' }, 'Kike');
    await swipe(julia, kike, 'like');
    const made = await swipe(kike, julia, 'like');
    const listed = await api.get(`/swipes/users/${julia.userId}/matches`, julia.token);
    expect(listed.status).toBe(200);
    expect(listed.body.success).toBe(true);
    const [item] = listed.body.matches as { otherUser: Record<string, unknown> & { compatibilityScore: number } }[];
    expect(item).toMatchObject({
      matchId: (made.body.matchData as { matchId: string }).matchId,
      timestamp: clock.now().toISOString(),
      otherUser: {
        userId: kike.userId,
        name: 'Kike',
        age: 35,
        photos: [],
        location: { city: 'Madrid' },
        training: { goals: ['Aumentar fuerza'] },
      },
      lastMessage: null,
      isRecent: true,
    });
    expect(item?.otherUser.compatibilityScore).toBeGreaterThan(80);
    expect(item?.otherUser).not.toHaveProperty('birthDate');

    // Spec 001 §3: a match carries its conversation's last message, read once the receiver read it.
    const { conversationId } = made.body.matchData as { conversationId: string };
    const lastMessageOf = async (user: TestUser) =>
      (
        (await api.get(`/swipes/users/${user.userId}/matches`, user.token)).body.matches as { lastMessage: unknown }[]
      )[0]?.lastMessage;
    for (const text of ['Hola, ¿entrenamos?', '¿Mañana a las 7?']) {
      const sent = await api.post('/messages/messages', { conversationId, receiverId: julia.userId, text }, kike.token);
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    }
    const unread = {
      text: '¿Mañana a las 7?',
      timestamp: clock.now().toISOString(),
      senderId: kike.userId,
      read: false,
    };
    expect(await lastMessageOf(julia)).toEqual(unread);
    expect(await lastMessageOf(kike)).toEqual(unread);
    const read = await api.call('PATCH', `/messages/conversations/${conversationId}/read`, { token: julia.token });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(await lastMessageOf(kike)).toEqual({ ...unread, read: true });

    clock.advance(7 * DAY + 1);
    const later = await api.get(`/swipes/users/${julia.userId}/matches`, julia.token);
    expect((later.body.matches as { isRecent: boolean }[])[0]?.isRecent).toBe(false);
    expect((await api.get(`/swipes/users/${julia.userId}/matches`, kike.token)).status).toBe(403);

    const lonely = await api.userWithProfile({}, 'Lola');
    const none = await api.get(`/swipes/users/${lonely.userId}/matches`, lonely.token);
    expect(none.body).toMatchObject({ success: true, matches: [] });
  });

  it('lists only pairs whose conversation is active: never unmatched or blocked ones (0009, 0012)', async () => {
    const pablo = await api.userWithProfile({}, 'Pablo');
    const quique = await api.userWithProfile({}, 'Quique');
    const rosa = await api.userWithProfile({}, 'Rosa');
    const sara = await api.userWithProfile({}, 'Sara');
    const tomas = await api.userWithProfile({}, 'Tomás');
    const others = [quique, rosa, sara, tomas];
    const conversationWith = new Map<string, string>();
    for (const other of others) {
      await swipe(pablo, other, 'like');
      const made = await swipe(other, pablo, 'like');
      conversationWith.set(other.userId, (made.body.matchData as { conversationId: string }).conversationId);
    }
    const listedIds = async (user: TestUser) => {
      const response = await api.get(`/swipes/users/${user.userId}/matches`, user.token);
      expect(response.status).toBe(200);
      return (response.body.matches as { otherUser: { userId: string } }[]).map((item) => item.otherUser.userId);
    };
    expect((await listedIds(pablo)).sort()).toEqual(others.map((user) => user.userId).sort());

    // Quique unmatches: the pair is gone for both.
    const unmatched = await api.post(
      `/messages/conversations/${conversationWith.get(quique.userId)}/unmatch`,
      {},
      quique.token,
    );
    expect(unmatched.status, JSON.stringify(unmatched.body)).toBe(200);
    // Rosa blocks Pablo through the safety call; Pablo blocks Sara and unblocks her again (their
    // conversation stays ended); Tomás's block is only a row, its conversation still says active.
    expect((await api.post('/safety/blocks', { userId: pablo.userId }, rosa.token)).status).toBe(201);
    expect((await api.post('/safety/blocks', { userId: sara.userId }, pablo.token)).status).toBe(201);
    expect((await api.call('DELETE', `/safety/blocks/${sara.userId}`, { token: pablo.token })).status).toBe(200);
    await app.database.db.execute(
      sql`insert into blocks (blocker_id, blocked_id) values (${tomas.userId}, ${pablo.userId})`,
    );

    expect(await listedIds(pablo)).toEqual([]);
    for (const other of others) expect(await listedIds(other)).toEqual([]);
    // The match rows stay (0009): only the list leaves them out.
    expect(await countRows('matches', pablo.userId)).toBe(4);
  });

  it('shows the chat partner profile only to matched users', async () => {
    const mar = await api.userWithProfile({}, 'Mar');
    const nacho = await api.userWithProfile({}, 'Nacho');
    const stranger = await api.userWithProfile({}, 'Olga');
    expect((await api.get(`/messages/conversations/profile/${nacho.userId}`, mar.token)).status).toBe(403);
    await swipe(mar, nacho, 'like');
    await swipe(nacho, mar, 'like');
    const partner = await api.get(`/messages/conversations/profile/${nacho.userId}`, mar.token);
    expect(partner.status).toBe(200);
    expect(partner.body.profile).toMatchObject({ userId: nacho.userId, name: 'Nacho', location: { city: 'Madrid' } });
    expect(partner.body.profile).not.toHaveProperty('birthDate');
    expect((await api.get(`/messages/conversations/profile/${nacho.userId}`, stranger.token)).status).toBe(403);
  });
});
