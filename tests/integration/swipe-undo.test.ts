// @setup embedded
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationRemovedEvent, UnreadCountUpdatedEvent } from '#shared/notifications/notification-schemas';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { connectSocket, nextEvent } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock } from '../helpers/test-clock.ts';

/** "Deshacer" (issue #17, docs/decisions/0023). */
describe('undoing a swipe', () => {
  // A still clock: the rate-limit test counts requests, not how fast this machine sends them.
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

  const swipe = (from: TestUser, to: TestUser, action: string, clientId?: string) =>
    api.post(
      `/swipes/users/${from.userId}/swipe`,
      { target_user_id: to.userId, action, ...(clientId ? { clientId } : {}) },
      from.token,
    );
  const undo = (from: TestUser, to: TestUser, swipeClientId?: string, pathUserId = from.userId) =>
    api.post(
      `/swipes/users/${pathUserId}/undo`,
      { target_user_id: to.userId, ...(swipeClientId ? { swipeClientId } : {}) },
      from.token,
    );
  const swipesOf = async (swiper: TestUser) => {
    const result = await app.database.db.execute(
      sql`select target_id, action, client_id from swipes where swiper_id = ${swiper.userId} order by created_at`,
    );
    return (result as unknown as { rows: { target_id: string; action: string; client_id: string | null }[] }).rows;
  };
  const deckIds = async (viewer: TestUser) => {
    const response = await api.get(`/profiles/${viewer.userId}/recommended?page=1&limit=50`, viewer.token);
    expect(response.status).toBe(200);
    return (response.body.profiles as { userId: string }[]).map((profile) => profile.userId);
  };
  // Each test in its own town: the decks of one test never hold another test's people.
  let town = 0;
  const pair = async (first: string, second: string) => {
    town += 1;
    const location = { latitude: 37 + town * 0.5, longitude: -5 + town * 0.5, city: 'Pueblo' };
    return [await api.userWithProfile({ location }, first), await api.userWithProfile({ location }, second)] as const;
  };

  it('takes back a sent swipe, and the profile comes back to the deck', async () => {
    for (const action of ['dislike', 'like', 'superlike']) {
      const [ana, bruno] = await pair('Ana', 'Bruno');
      expect((await swipe(ana, bruno, action, 'swipe-1')).body).toEqual({ success: true, match: false });
      expect(await deckIds(ana)).not.toContain(bruno.userId);

      const undone = await undo(ana, bruno, 'swipe-1');
      expect(undone.status).toBe(200);
      expect(undone.body).toEqual({ success: true, undone: true });
      expect(await swipesOf(ana)).toEqual([]);
      expect(await deckIds(ana)).toContain(bruno.userId);
      // Swiped again after the undo: a new swipe is recorded, as for anyone new.
      expect((await swipe(ana, bruno, 'like', 'swipe-2')).body).toEqual({ success: true, match: false });
      expect(await swipesOf(ana)).toEqual([{ target_id: bruno.userId, action: 'like', client_id: 'swipe-2' }]);
    }
  });

  it('refuses to undo a swipe that made a match, from either side, and says why', async () => {
    const [carla, diego] = await pair('Carla', 'Diego');
    await swipe(carla, diego, 'like', 'c-1');
    expect((await swipe(diego, carla, 'superlike', 'd-1')).body).toMatchObject({ match: true });
    for (const [who, other, clientId] of [
      [diego, carla, 'd-1'],
      [carla, diego, 'c-1'],
      [carla, diego, undefined],
    ] as const) {
      const refused = await undo(who, other, clientId);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        success: false,
        message:
          'Ya es un entrenamiento: no se puede deshacer. Si quieres, puedes deshacer el match desde Entrenamientos.',
        errorType: 'MATCHED',
      });
    }
    expect(await swipesOf(carla)).toHaveLength(1);
    expect(await swipesOf(diego)).toHaveLength(1);
  });

  it('is idempotent: a replayed undo changes nothing, and never takes back a newer swipe', async () => {
    const [elena, fran] = await pair('Elena', 'Fran');
    await swipe(elena, fran, 'dislike', 'e-1');
    expect((await undo(elena, fran, 'e-1')).body).toEqual({ success: true, undone: true });
    expect((await undo(elena, fran, 'e-1')).body).toEqual({ success: true, undone: false });
    // Elena swipes Fran again; the first undo, replayed late, names the first swipe only.
    await swipe(elena, fran, 'like', 'e-2');
    expect((await undo(elena, fran, 'e-1')).body).toEqual({ success: true, undone: false });
    expect(await swipesOf(elena)).toEqual([{ target_id: fran.userId, action: 'like', client_id: 'e-2' }]);
    // Nothing to undo at all is not an error either.
    const [, gema] = await pair('Nadie', 'Gema');
    expect((await undo(elena, gema)).body).toEqual({ success: true, undone: false });
  });

  it('only the swiper can undo their swipe', async () => {
    const [hugo, irene] = await pair('Hugo', 'Irene');
    await swipe(hugo, irene, 'like', 'h-1');
    // Irene on Hugo's path: refused.
    const forbidden = await api.post(
      `/swipes/users/${hugo.userId}/undo`,
      { target_user_id: irene.userId, swipeClientId: 'h-1' },
      irene.token,
    );
    expect(forbidden.status).toBe(403);
    // Irene on her own path naming Hugo's swipe: she has no such swipe.
    expect((await undo(irene, hugo, 'h-1')).body).toEqual({ success: true, undone: false });
    expect((await api.post(`/swipes/users/${hugo.userId}/undo`, { target_user_id: irene.userId })).status).toBe(401);
    expect(await swipesOf(hugo)).toHaveLength(1);
  });

  it("takes back the notification a superlike gave, and updates the target's unread count", async () => {
    const [julia, kike] = await pair('Julia', 'Kike');
    await swipe(julia, kike, 'superlike', 'j-1');
    const listed = (await api.get('/notifications', kike.token)).body.notifications as unknown[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      type: 'activity',
      title: '¡Te han dado un Super Entreno!',
      isRead: false,
      referenceType: 'superlike',
    });
    // It names nobody: not the superliker's id nor name.
    expect(JSON.stringify(listed[0])).not.toContain(julia.userId);
    expect(JSON.stringify(listed[0])).not.toContain('Julia');
    expect((await api.get('/notifications/unread-count', kike.token)).body.count).toBe(1);

    const socket = await connectSocket(app, { token: kike.token });
    try {
      // An open list drops it at once (notificationRemoved), and the bell follows.
      const removed = nextEvent<NotificationRemovedEvent>(socket, 'notificationRemoved');
      const counted = nextEvent<UnreadCountUpdatedEvent>(socket, 'unreadCountUpdated');
      expect((await undo(julia, kike, 'j-1')).body).toEqual({ success: true, undone: true });
      expect(await removed).toEqual({ _id: (listed[0] as { _id: string })._id });
      expect(await counted).toEqual({ kind: 'notifications', count: 0 });
    } finally {
      socket.close();
    }
    expect((await api.get('/notifications', kike.token)).body.notifications).toEqual([]);
    expect((await api.get('/notifications/unread-count', kike.token)).body.count).toBe(0);
  });

  it('a like gives no notification, and a dislike none either', async () => {
    const [luis, marta] = await pair('Luis', 'Marta');
    await swipe(luis, marta, 'like');
    const [, nuria] = await pair('Otro', 'Nuria');
    await swipe(luis, nuria, 'dislike');
    expect((await api.get('/notifications', marta.token)).body.notifications).toEqual([]);
    expect((await api.get('/notifications', nuria.token)).body.notifications).toEqual([]);
  });

  it('refuses bad input with a Spanish message, never a 5xx', async () => {
    const [olga, pablo] = await pair('Olga', 'Pablo');
    const post = (body: unknown) => api.post(`/swipes/users/${olga.userId}/undo`, body, olga.token);
    expect((await post({ target_user_id: pablo.userId, extra: 1 })).status).toBe(400);
    expect((await post({ target_user_id: pablo.userId, swipeClientId: 'no vale' })).body).toMatchObject({
      success: false,
      message: 'Acción no válida',
    });
    expect((await post({})).status).toBe(400);
    expect((await post({ target_user_id: 'no-es-un-id' })).status).toBe(404);
    expect((await post({ target_user_id: olga.userId })).status).toBe(400);
  });

  it('counts against the swipes budget: 30 swipes and undos in 10 s, then a 429', async () => {
    const [quique, rosa] = await pair('Quique', 'Rosa');
    const statuses: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      statuses.push((await swipe(quique, rosa, 'dislike', `q-${i}`)).status);
      statuses.push((await undo(quique, rosa, `q-${i}`)).status);
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    const limited = await undo(quique, rosa);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, errorType: 'RATE_LIMIT' });
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});
