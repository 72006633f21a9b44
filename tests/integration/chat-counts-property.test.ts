// @setup embedded
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, SyncResponse } from '#shared/chat/chat-schemas';
import { createMatchedPair } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { createTestDatabase, startTestApp, type TestApp } from '../helpers/test-app.ts';

type Sent = { conversationId: string; seq: number; id: string; senderId: string; receiverId: string };

type Command =
  | { kind: 'send'; conversation: number; fromFirst: boolean }
  | { kind: 'read'; conversation: number; byFirst: boolean; upTo: number | null }
  | { kind: 'reconnect'; user: number }
  | { kind: 'crash' };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('send' as const), conversation: fc.nat(1), fromFirst: fc.boolean() }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('read' as const),
      conversation: fc.nat(1),
      byFirst: fc.boolean(),
      upTo: fc.option(fc.nat(20), { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reconnect' as const), user: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('crash' as const) }) },
);

/**
 * Decision 0041's property: whatever the interleaving of sends, reads (whole, or up to a message
 * shown), reconnections (a sync from the start) and crashes (the server stopped with its
 * notification work unfinished, then started again on the same data), every count the server
 * answers equals the count recomputed from the messages the test sent and the reads it made —
 * per conversation, in total, in the sync — and each message received by someone away is in their
 * notifications exactly once.
 */
describe('counts are derived: random interleavings agree with a recount (fast-check)', { timeout: 300_000 }, () => {
  const tokenSecret = randomBytes(32).toString('hex');
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: TestApp;
  let users: TestUser[] = [];
  let conversations: { id: string; first: TestUser; second: TestUser }[] = [];
  const sent: Sent[] = [];
  const readUpTo = new Map<string, number>();

  const start = () => startTestApp({ databaseUrl: database.url, tokenSecret, rateLimitIpFactor: 1000 });
  const api = () => createDiscoveryApi(app);
  const key = (userId: string, conversationId: string) => `${userId}:${conversationId}`;

  /** The recount: messages to the user after what it read, per conversation. */
  const expectedUnread = (userId: string, conversationId: string) =>
    sent.filter(
      (message) =>
        message.conversationId === conversationId &&
        message.receiverId === userId &&
        message.seq > (readUpTo.get(key(userId, conversationId)) ?? 0),
    ).length;

  const expectedTotal = (user: TestUser) =>
    conversations
      .filter((c) => c.first === user || c.second === user)
      .reduce((sum, c) => sum + expectedUnread(user.userId, c.id), 0);

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await start();
    const a = await api().userWithProfile({}, 'Ana');
    const b = await api().userWithProfile({}, 'Bruno');
    const c = await api().userWithProfile({}, 'Carla');
    users = [a, b, c];
    const ab = await createMatchedPair(api(), { a, b });
    const ac = await createMatchedPair(api(), { a, b: c });
    conversations = [
      { id: ab.conversationId, first: a, second: b },
      { id: ac.conversationId, first: a, second: c },
    ];
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  const run = async (step: Command) => {
    if (step.kind === 'crash') {
      // Stopped with its dirty set unfinished: the next start's sweep owes what was left.
      await app.close();
      app = await start();
      return;
    }
    if (step.kind === 'reconnect') {
      const user = users[step.user] as TestUser;
      const synced = await api().get('/sync?since=0', user.token);
      expect(synced.status).toBe(200);
      for (const summary of (synced.body as unknown as SyncResponse).conversations) {
        expect(summary.unreadCount, 'sync').toBe(expectedUnread(user.userId, summary.conversationId));
      }
      return;
    }
    const conversation = conversations[step.conversation] as (typeof conversations)[number];
    if (step.kind === 'send') {
      const [from, to] = step.fromFirst
        ? [conversation.first, conversation.second]
        : [conversation.second, conversation.first];
      const response = await api().post(
        '/messages/messages',
        { conversationId: conversation.id, receiverId: to.userId, text: `m${sent.length}` },
        from.token,
      );
      if (response.status === 429) return;
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      const message = response.body.data as ChatMessage;
      sent.push({
        conversationId: conversation.id,
        seq: message.seq,
        id: message._id,
        senderId: from.userId,
        receiverId: to.userId,
      });
      return;
    }
    const reader = step.byFirst ? conversation.first : conversation.second;
    const theirs = sent.filter((m) => m.conversationId === conversation.id && m.receiverId === reader.userId);
    const shown = step.upTo === null || theirs.length === 0 ? undefined : theirs[step.upTo % theirs.length];
    const response = await api().call('PATCH', `/messages/conversations/${conversation.id}/read`, {
      body: shown ? { upToMessageId: shown.id } : undefined,
      token: reader.token,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const last = sent.filter((m) => m.conversationId === conversation.id).at(-1)?.seq ?? 0;
    const k = key(reader.userId, conversation.id);
    readUpTo.set(k, Math.max(readUpTo.get(k) ?? 0, shown ? shown.seq : last));
    // The HTTP answer is the reader's total (spec 001 §7).
    expect(response.body.unreadCount, 'read answer').toBe(expectedTotal(reader));
  };

  it('agree after every step, and notify each message exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 10 }), async (steps) => {
        for (const step of steps) {
          await run(step);
          for (const user of users) {
            const total = expectedTotal(user);
            const answered = await api().get('/messages/messages/unread/count', user.token);
            expect(answered.body.unreadCount, `total of ${user.userId}`).toBe(total);
          }
          for (const conversation of conversations) {
            const listed = await api().get('/messages/conversations', conversation.second.token);
            const summary = (listed.body.conversations as { conversationId: string; unreadCount: number }[]).find(
              (c) => c.conversationId === conversation.id,
            );
            expect(summary?.unreadCount, 'list').toBe(expectedUnread(conversation.second.userId, conversation.id));
          }
        }
        // Nobody had a conversation on screen: each message received is counted once in the
        // recipient's notifications, across crashes.
        await app.chat.whenDelivered();
        const notified = (await app.database.db.execute(sql`select user_id, reference_id,
            sum(collapse_count)::int as n from notifications where type = 'message' group by 1, 2`)) as unknown as {
          rows: { user_id: string; reference_id: string; n: number }[];
        };
        const counted = new Map(notified.rows.map((row) => [key(row.user_id, row.reference_id), Number(row.n)]));
        for (const conversation of conversations) {
          for (const user of [conversation.first, conversation.second]) {
            const received = sent.filter((m) => m.conversationId === conversation.id && m.receiverId === user.userId);
            expect(counted.get(key(user.userId, conversation.id)) ?? 0, 'notified').toBe(received.length);
          }
        }
      }),
      { numRuns: 6 },
    );
  });
});
