// @setup embedded
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSwipeRepository, type SwipeInput } from '../../src/server/features/swipes/swipe-repository.ts';
import { takeBatchSizes } from '../../src/server/infra/batcher.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { connectSocket, nextEvent } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Swipes in self-forming batches (docs/decisions/0057): the rules of one swipe hold for each swipe
 * of a batch, and for two batches at once.
 */
describe('swipes in batches: one statement for what queued, the rules of each swipe kept', () => {
  let app: TestApp;
  let api: DiscoveryApi;

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const rows = async <Row>(query: ReturnType<typeof sql>) =>
    (await app.database.db.execute(query)) as unknown as { rows: Row[] };
  const count = async (query: ReturnType<typeof sql>) => Number((await rows<{ n: number }>(query)).rows[0]?.n);
  const sessionOf = async (user: TestUser) =>
    (await rows<{ id: string }>(sql`select id from sessions where user_id = ${user.userId} limit 1`)).rows[0]
      ?.id as string;
  const input = async (from: TestUser, to: TestUser, action: SwipeInput['action'], clientId?: string) => ({
    swiperId: from.userId,
    sessionId: await sessionOf(from),
    targetId: to.userId,
    action,
    clientId,
    now: new Date(),
  });
  const LETTERS = 'abcdefghij';
  const people = (n: number, name: string) =>
    Promise.all(Array.from({ length: n }, (_, i) => api.userWithProfile({}, `${name} ${LETTERS[i]}`)));

  /**
   * Submits `first` alone (nothing in flight: it goes at once), then the others while it is in
   * flight: they go together, as the batch right after it.
   */
  const inOneBatch = (first: SwipeInput, others: SwipeInput[]) => {
    const repository = createSwipeRepository(app.database.db);
    takeBatchSizes();
    const answers = [first, ...others].map((one) =>
      repository.record(one).then(
        (outcome) => ({ outcome, error: undefined }),
        (error: Error) => ({ outcome: undefined, error }),
      ),
    );
    return Promise.all(answers).then((settled) => ({ settled, sizes: takeBatchSizes().get('swipes') }));
  };

  it('the two likes of a pair in one batch make one match, one conversation and both member rows', async () => {
    const [ana, bea, carla] = await people(3, 'Ana');
    const [x, y] = await people(2, 'Xoán');
    const { settled, sizes } = await inOneBatch(await input(carla as TestUser, ana as TestUser, 'dislike'), [
      await input(x as TestUser, y as TestUser, 'like'),
      await input(ana as TestUser, bea as TestUser, 'dislike'),
      await input(y as TestUser, x as TestUser, 'superlike'),
    ]);
    expect(sizes?.get(3)).toBe(1);
    const [, first, , second] = settled.map((one) => one.outcome);
    expect(first).toMatchObject({ status: 'recorded', isNew: true, match: undefined });
    expect(second).toMatchObject({
      status: 'recorded',
      isNew: true,
      match: { swipeType: 'superlike' },
      target: { name: 'Xoán a' },
      swiper: { name: 'Xoán b' },
    });
    const xId = (x as TestUser).userId;
    expect(await count(sql`select count(*)::int as n from matches where user_low = ${xId} or user_high = ${xId}`)).toBe(
      1,
    );
    const conversationId = second?.status === 'recorded' ? second.match?.conversationId : undefined;
    expect(
      await count(
        sql`select count(*)::int as n from conversation_participants where conversation_id = ${conversationId}::uuid`,
      ),
    ).toBe(2);
  });

  it('two batches at once holding the two likes of pairs make each match exactly once (decision 0036)', async () => {
    const pairs = await Promise.all(Array.from({ length: 6 }, () => people(2, 'Par')));
    const one = createSwipeRepository(app.database.db);
    const two = createSwipeRepository(app.database.db);
    const likes = await Promise.all(pairs.map(([a, b]) => input(a as TestUser, b as TestUser, 'like')));
    const answers = await Promise.all(
      [...pairs].reverse().map(([a, b]) => input(b as TestUser, a as TestUser, 'like')),
    );
    takeBatchSizes();
    // Each repository's first swipe goes alone; the rest of each side forms a batch while it is in flight.
    const outcomes = await Promise.all([
      ...likes.map((like) => one.record(like)),
      ...answers.map((answer) => two.record(answer)),
    ]);
    expect(Object.fromEntries(takeBatchSizes().get('swipes') ?? [])).toEqual({ 1: 2, 5: 2 });
    for (const [a] of pairs) {
      const id = (a as TestUser).userId;
      expect(await count(sql`select count(*)::int as n from matches where user_low = ${id} or user_high = ${id}`)).toBe(
        1,
      );
      expect(
        await count(sql`select count(*)::int as n from conversations where user_a = ${id} or user_b = ${id}`),
      ).toBe(1);
    }
    expect(outcomes.filter((outcome) => outcome.status === 'recorded' && outcome.isNew && outcome.match)).toHaveLength(
      6,
    );
  });

  it("an item's error reaches only its caller; a revoked session or a block refuses only its own swipe", async () => {
    const [a, b, c, d, e] = (await people(5, 'Eva')) as TestUser[];
    await app.database.db.execute(
      sql`insert into blocks (blocker_id, blocked_id) values (${(d as TestUser).userId}::uuid, ${(a as TestUser).userId}::uuid)`,
    );
    const revoked = await input(e as TestUser, a as TestUser, 'like');
    await app.database.db.execute(sql`update sessions set revoked_at = now() where id = ${revoked.sessionId}::uuid`);
    const broken = { ...(await input(c as TestUser, a as TestUser, 'like')), sessionId: 'no-es-un-uuid' };
    const { settled } = await inOneBatch(await input(a as TestUser, b as TestUser, 'dislike'), [
      await input(b as TestUser, a as TestUser, 'like'),
      broken,
      await input(a as TestUser, d as TestUser, 'like'),
      revoked,
      await input(c as TestUser, b as TestUser, 'like'),
    ]);
    expect(settled.map((one) => one.outcome?.status ?? 'error')).toEqual([
      'recorded',
      'recorded',
      'error',
      'refused',
      'revoked',
      'recorded',
    ]);
    expect(settled[2]?.error?.message).toMatch(/uuid/);
    expect(
      await count(sql`select count(*)::int as n from swipes where target_id = ${(a as TestUser).userId}::uuid`),
    ).toBe(1);
  });

  it('an outbox replay in the same batch as its original answers the original, written once', async () => {
    const [a, b, c] = (await people(3, 'Rita')) as TestUser[];
    const { settled } = await inOneBatch(await input(c as TestUser, a as TestUser, 'dislike'), [
      await input(a as TestUser, b as TestUser, 'like', 'outbox-rita'),
      await input(a as TestUser, c as TestUser, 'superlike', 'outbox-rita'),
    ]);
    expect(settled.map((one) => one.outcome)).toMatchObject([
      { status: 'recorded', isNew: true },
      { status: 'recorded', isNew: true, targetId: (b as TestUser).userId },
      { status: 'recorded', isNew: false, targetId: (b as TestUser).userId },
    ]);
    expect(
      await count(sql`select count(*)::int as n from swipes where swiper_id = ${(a as TestUser).userId}::uuid`),
    ).toBe(1);
  });

  it("concurrent requests: each answer, match event and superlike notice is its own swipe's", async () => {
    const [a, b, c, d, e, f] = (await people(6, 'Noa')) as TestUser[];
    await app.database.db.execute(
      sql`insert into blocks (blocker_id, blocked_id) values (${(f as TestUser).userId}::uuid, ${(e as TestUser).userId}::uuid)`,
    );
    const sockets = await Promise.all([a, b].map((user) => connectSocket(app, { token: (user as TestUser).token })));
    try {
      const announced = sockets.map((socket) => nextEvent<{ otherUser: { userId: string } }>(socket, 'match'));
      const swipe = (from: TestUser, to: TestUser, action: string) =>
        api.post(`/swipes/users/${from.userId}/swipe`, { target_user_id: to.userId, action }, from.token);
      takeBatchSizes();
      const [ab, ba, cd, ef, ca] = await Promise.all([
        swipe(a as TestUser, b as TestUser, 'like'),
        swipe(b as TestUser, a as TestUser, 'like'),
        swipe(c as TestUser, d as TestUser, 'superlike'),
        swipe(e as TestUser, f as TestUser, 'like'),
        swipe(c as TestUser, a as TestUser, 'dislike'),
      ]);
      // Every swipe that reached the statement went through the batcher, alone or not.
      const sizes = takeBatchSizes().get('swipes') ?? new Map<number, number>();
      expect([...sizes].reduce((sum, [size, count]) => sum + size * count, 0)).toBe(5);
      expect([ab?.body.match, ba?.body.match].filter(Boolean)).toHaveLength(1);
      expect(cd?.body).toEqual({ success: true, match: false });
      expect(ef?.status).toBe(404);
      expect(ca?.body).toEqual({ success: true, match: false });
      const [toA, toB] = await Promise.all(announced);
      expect(toA?.otherUser.userId).toBe((b as TestUser).userId);
      expect(toB?.otherUser.userId).toBe((a as TestUser).userId);
      const notices = (await api.get('/notifications', (d as TestUser).token)).body.notifications as unknown[];
      expect(notices).toMatchObject([{ referenceType: 'superlike' }]);
      expect((await api.get('/notifications', (a as TestUser).token)).body.notifications).not.toContainEqual(
        expect.objectContaining({ referenceType: 'superlike' }),
      );
    } finally {
      for (const socket of sockets) socket.disconnect();
    }
  });
});
