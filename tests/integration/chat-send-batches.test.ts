// @setup embedded
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupRepository } from '../../src/server/features/chat/group-repository.ts';
import { createMessageRepository } from '../../src/server/features/chat/message-repository.ts';
import { takeBatchSizes } from '../../src/server/infra/batcher.ts';
import { createMatchedPair, type MatchedPair } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Two-member sends in self-forming batches (docs/decisions/0061): each send of a batch gets what
 * it would get alone, and no batch holds two sends of one conversation or one user.
 */
describe('sends in batches: one statement for what queued, the rules of each send kept', () => {
  let app: TestApp;
  let api: DiscoveryApi;
  let repository: ReturnType<typeof createMessageRepository>;

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
    repository = createMessageRepository(app.database.db);
  });
  afterAll(async () => {
    await app?.close();
  });

  const rows = async <Row>(query: ReturnType<typeof sql>) =>
    ((await app.database.db.execute(query)) as unknown as { rows: Row[] }).rows;
  const sessionOf = async (user: TestUser) =>
    (await rows<{ id: string }>(sql`select id from sessions where user_id = ${user.userId} limit 1`))[0]?.id as string;
  const LETTERS = 'abcdefghij';
  const pairs = async (n: number, name: string) => {
    const made: MatchedPair[] = [];
    for (let i = 0; i < n; i += 1) {
      made.push(await createMatchedPair(api, { names: [`${name} ${LETTERS[i]}`, `${name} ${LETTERS[i]} bis`] }));
    }
    return made;
  };
  type Send = Parameters<typeof repository.insert>[0];
  const send = async (pair: MatchedPair, from: 'a' | 'b', text: string, extra: Partial<Send> = {}): Promise<Send> => {
    const sender = pair[from];
    const other = from === 'a' ? pair.b : pair.a;
    return {
      conversationId: pair.conversationId,
      senderId: sender.userId,
      sessionId: await sessionOf(sender),
      text,
      clientId: `${text}-client`,
      knownReceiverId: other.userId,
      now: new Date(),
      ...extra,
    };
  };

  /** All at once: the first goes alone (nothing in flight), the rest queue behind it. */
  const together = async (sends: Send[]) => {
    takeBatchSizes();
    const outcomes = await Promise.all(sends.map((one) => repository.insert(one)));
    return { outcomes, sizes: takeBatchSizes().get('chat_sends') };
  };

  it('five conversations: one alone, then four in one statement, each stored once with its counts', async () => {
    const made = await pairs(5, 'Lote');
    // Something unread elsewhere for the first recipient, so its total is more than this message.
    const [first] = made as [MatchedPair];
    const other = await createMatchedPair(api, { a: first.b, names: ['x', 'Otra'] });
    await repository.insert(await send(other, 'b', 'antes'));

    const { outcomes, sizes } = await together(
      await Promise.all(made.map((pair, i) => send(pair, 'a', `hola ${LETTERS[i]}`))),
    );
    expect(sizes).toEqual(
      new Map([
        [1, 1],
        [4, 1],
      ]),
    );
    for (const [i, outcome] of outcomes.entries()) {
      const pair = made[i] as MatchedPair;
      expect(outcome).toMatchObject({
        kind: 'created',
        message: { conversationId: pair.conversationId, senderId: pair.a.userId, receiverId: pair.b.userId, seq: 1 },
        sender: { name: `Lote ${LETTERS[i]}` },
        receiverUnread: 1,
        receiverTotalUnread: i === 0 ? 2 : 1,
        isReceiverMuted: false,
      });
    }
    const stored = await rows<{ conversation_id: string; seq: number; text: string; last_seq: number }>(sql`
      select m.conversation_id, m.seq, m.text, c.last_seq from messages m
      join conversations c on c.id = m.conversation_id
      where m.conversation_id = any(${`{${made.map((pair) => pair.conversationId).join(',')}}`}::uuid[])
      order by m.text`);
    expect(stored.map((row) => [row.text, Number(row.seq), Number(row.last_seq)])).toEqual(
      made.map((_, i) => [`hola ${LETTERS[i]}`, 1, 1]),
    );
  });

  it('two sends of one conversation, or of one user, never share a batch; seqs follow the order', async () => {
    const [ana, bea] = (await pairs(2, 'Orden')) as [MatchedPair, MatchedPair];
    const { outcomes, sizes } = await together([
      await send(ana, 'a', 'uno'),
      await send(ana, 'b', 'dos'),
      await send(bea, 'a', 'tres'),
      await send(ana, 'a', 'cuatro'),
      // The same user as the receiver of "tres" (Orden b bis), in another conversation.
      await send(await createMatchedPair(api, { a: bea.b, names: ['x', 'Orden z'] }), 'a', 'cinco'),
    ]);
    // uno alone; then dos and tres (apart); cuatro shares ana's conversation with dos, cinco bea.b with tres.
    expect(sizes).toEqual(
      new Map([
        [1, 1],
        [2, 2],
      ]),
    );
    expect(outcomes.map((outcome) => (outcome.kind === 'created' ? outcome.message.seq : outcome.kind))).toEqual([
      1, 2, 1, 3, 1,
    ]);
    const [, dos, , cuatro] = outcomes;
    // "dos" was to ana.a, who had not read "uno"; "cuatro" to ana.b, who had read nothing either.
    expect(dos).toMatchObject({ kind: 'created', receiverUnread: 1 });
    expect(cuatro).toMatchObject({ kind: 'created', receiverUnread: 2 });
  });

  it('in one batch: a revoked session, a block, a repeated clientId and a wrong receiver refuse only their own send', async () => {
    const made = (await pairs(6, 'Mixto')) as MatchedPair[];
    const [lead, revoked, blocked, repeated, wrong, fine] = made as [
      MatchedPair,
      MatchedPair,
      MatchedPair,
      MatchedPair,
      MatchedPair,
      MatchedPair,
    ];
    const original = await repository.insert(await send(repeated, 'a', 'original'));
    expect(original.kind).toBe('created');
    const revokedSend = await send(revoked, 'a', 'revocada');
    await app.database.db.execute(
      sql`update sessions set revoked_at = now() where id = ${revokedSend.sessionId}::uuid`,
    );
    await app.database.db.execute(
      sql`insert into blocks (blocker_id, blocked_id) values (${blocked.b.userId}::uuid, ${blocked.a.userId}::uuid)`,
    );

    const { outcomes, sizes } = await together([
      await send(lead, 'a', 'primero'),
      revokedSend,
      await send(blocked, 'a', 'bloqueada'),
      await send(repeated, 'a', 'otra vez', { clientId: 'original-client' }),
      // Names someone of another batch (the first send's), not a user of this one.
      await send(wrong, 'a', 'equivocada', { receiverId: lead.b.userId, knownReceiverId: undefined }),
      await send(fine, 'a', 'bien'),
    ]);
    expect(sizes).toEqual(
      new Map([
        [1, 1],
        [5, 1],
      ]),
    );
    expect(outcomes.map((outcome) => outcome.kind)).toEqual([
      'created',
      'revoked',
      'inactive',
      'repeat',
      'wrong-receiver',
      'created',
    ]);
    expect(outcomes[3]).toMatchObject({ message: { text: 'original' } });
    const texts = await rows<{ text: string }>(sql`
      select text from messages
      where conversation_id = any(${`{${made.map((pair) => pair.conversationId).join(',')}}`}::uuid[])
      order by text`);
    expect(texts.map((row) => row.text)).toEqual(['bien', 'original', 'primero']);
  });
  it('group sends: one alone, then the rest together; a member who blocked the sender, a non-member, a revoked session and a repeat each get their own answer', async () => {
    const groups = createGroupRepository(app.database.db);
    const people = await Promise.all(
      ['Grupo a', 'Grupo b', 'Grupo c', 'Grupo d', 'Grupo e', 'Grupo f'].map((name) => api.userWithProfile({}, name)),
    );
    const [ana, bea, carla, dani, eva, fran] = people as [TestUser, TestUser, TestUser, TestUser, TestUser, TestUser];
    const group = async (owner: TestUser, members: TestUser[]) => {
      const { conversationId } = await app.chat.groups.createGroupConversation({
        ownerId: owner.userId,
        title: 'Lote',
      });
      for (const member of members) await app.chat.groups.addGroupMember(conversationId, member.userId);
      return conversationId;
    };
    const first = await group(ana, [bea]);
    const second = await group(carla, [dani, ana]);
    const third = await group(eva, [fran]);
    const fourth = await group(fran, [eva]);
    // Dani blocked Carla: Carla's message reaches Dani without its text.
    await app.database.db.execute(
      sql`insert into blocks (blocker_id, blocked_id) values (${dani.userId}::uuid, ${carla.userId}::uuid)`,
    );
    const groupSend = async (conversationId: string, sender: TestUser, text: string, clientId = `${text}-client`) => ({
      conversationId,
      senderId: sender.userId,
      sessionId: await sessionOf(sender),
      text,
      clientId,
      now: new Date(),
    });
    const original = await groups.insert(await groupSend(fourth, fran, 'ya enviado'));
    expect(original.kind).toBe('created');
    const fifth = await group(eva, []);
    const revokedSend = await groupSend(fifth, eva, 'revocada');
    await app.database.db.execute(
      sql`update sessions set revoked_at = now() where id = ${revokedSend.sessionId}::uuid`,
    );

    takeBatchSizes();
    const outcomes = await Promise.all(
      [
        await groupSend(first, ana, 'hola grupo'),
        await groupSend(second, carla, 'hola equipo'),
        await groupSend(third, bea, 'no soy de aquí'),
        await groupSend(fourth, fran, 'ya enviado'),
        revokedSend,
        // Same group as "hola equipo": the next batch, seq 2.
        await groupSend(second, dani, 'respuesta'),
      ].map((one) => groups.insert(one)),
    );
    expect(takeBatchSizes().get('chat_group_sends')).toEqual(
      new Map([
        [1, 2],
        [4, 1],
      ]),
    );
    expect(outcomes.map((outcome) => outcome.kind)).toEqual([
      'created',
      'created',
      'missing',
      'repeat',
      'revoked',
      'created',
    ]);
    expect(outcomes[0]).toMatchObject({ message: { seq: 1 }, sender: { name: 'Grupo a' }, hiddenFrom: [] });
    expect(outcomes[1]).toMatchObject({ message: { seq: 1 }, hiddenFrom: [dani.userId] });
    expect(new Set(outcomes[1]?.kind === 'created' ? outcomes[1].members : [])).toEqual(
      new Set([carla.userId, dani.userId, ana.userId]),
    );
    expect(outcomes[3]).toMatchObject({
      message: { id: original.kind === 'created' ? original.message.id : 'none', seq: 1 },
    });
    expect(outcomes[5]).toMatchObject({ message: { seq: 2, senderId: dani.userId } });
  });
});
