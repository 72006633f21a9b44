// @setup embedded
import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitWithAck, eventually, nextEventMatching, recordEvents } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { connectSocket, roundTrip } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

type Message = {
  _id: string;
  seq: number;
  conversationId: string;
  senderId: string;
  senderName?: string;
  receiverId: string | null;
  readBy?: number;
  text: string;
};
type Group = { conversationId: string; unreadCount: number; status: string; members: { userId: string }[] };

/**
 * Group conversations (issue 35, docs/decisions/0056): only current members read or write, over
 * the spec's HTTP calls and socket events; a message is one row whatever the members; unread per
 * member from its cursor; leaving or removal refuses the next write; one collapsed notification
 * per away member; groups stay out of the spec's lists and unread total.
 */
describe('group conversations', () => {
  let app: TestApp;
  let api: DiscoveryApi;
  let owner: TestUser;
  let bea: TestUser;
  let carlos: TestUser;
  let dani: TestUser;
  let outsider: TestUser;
  let groupId: string;
  const sockets: Socket[] = [];

  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await app.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const connect = async (user: TestUser) => {
    const socket = await connectSocket(app, { token: user.token });
    sockets.push(socket);
    return socket;
  };
  const patch = (path: string, body: unknown, token: string) => api.call('PATCH', path, { body, token });
  let sends = 0;
  const send = (user: TestUser, text: string, clientId = `group-send-${++sends}`) =>
    api.post('/messages/messages', { conversationId: groupId, text, clientId }, user.token);
  const groupOf = async (user: TestUser): Promise<Group | undefined> => {
    const answer = await api.get('/groups', user.token);
    expect(answer.status).toBe(200);
    return (answer.body.groups as Group[]).find((group) => group.conversationId === groupId);
  };
  const messageRows = async () =>
    Number(
      (
        await rows<{ n: number }>(sql`select count(*)::int as n from messages where conversation_id = ${groupId}::uuid`)
      )[0]?.n,
    );

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
    const users = await Promise.all(
      ['Olga', 'Bea', 'Carlos', 'Dani', 'Fuera'].map((name) => api.userWithProfile({}, name)),
    );
    [owner, bea, carlos, dani, outsider] = users as [TestUser, TestUser, TestUser, TestUser, TestUser];
    ({ conversationId: groupId } = await app.chat.groups.createGroupConversation({
      ownerId: owner.userId,
      title: 'Pierna en el Gimnasio Centro',
    }));
    for (const user of [bea, carlos]) await app.chat.groups.addGroupMember(groupId, user.userId);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await app?.close();
  });

  it('members write and read it over the spec calls; a message is one row whatever the members', async () => {
    const [beaSocket, carlosSocket, outsiderSocket] = await Promise.all([
      connect(bea),
      connect(carlos),
      connect(outsider),
    ]);
    const outsiderEvents = recordEvents(outsiderSocket);
    const atCarlos = nextEventMatching<Message>(carlosSocket, 'newMessage', (m) => m.text === 'Hola a todos');
    const before = await messageRows();
    const sent = await send(owner, 'Hola a todos');
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.data).toMatchObject({ senderId: owner.userId, receiverId: null, readBy: 0 });
    expect(await messageRows()).toBe(before + 1);
    expect((await atCarlos).senderId).toBe(owner.userId);
    // A member's socket send: acknowledged with its seq, one more row.
    const ack = await emitWithAck<{ ok: boolean; data: Message }>(beaSocket, 'sendMessage', {
      conversationId: groupId,
      text: 'Voy',
      clientId: 'bea-voy',
    });
    expect(ack.ok, JSON.stringify(ack)).toBe(true);
    expect(ack.data.seq).toBe(2);
    // The same clientId again stores nothing.
    const again = await emitWithAck<{ ok: boolean; data: Message }>(beaSocket, 'sendMessage', {
      conversationId: groupId,
      text: 'Voy',
      clientId: 'bea-voy',
    });
    expect(again.data._id).toBe(ack.data._id);
    expect(await messageRows()).toBe(before + 2);
    const [conversation] = await rows<{ last_seq: number; receivers: number }>(
      sql`select c.last_seq, (select count(*)::int from messages m where m.conversation_id = c.id
        and m.receiver_id is not null) as receivers from conversations c where c.id = ${groupId}::uuid`,
    );
    expect(conversation).toEqual({ last_seq: 2, receivers: 0 });
    const page = await api.get(`/messages/conversations/${groupId}/messages`, carlos.token);
    expect(page.status).toBe(200);
    expect((page.body.messages as Message[]).map((m) => m.text)).toEqual(['Hola a todos', 'Voy']);
    // The outsider saw nothing of it (barrier: its own round trip after the others' events).
    await roundTrip(outsiderSocket);
    expect(outsiderEvents.filter((event) => event.name === 'newMessage')).toEqual([]);
  });

  it('only members: an outsider gets 404 on every call and socket event', async () => {
    const socket = await connect(outsider);
    expect((await send(outsider, 'Hola')).status).toBe(404);
    expect((await api.get(`/messages/conversations/${groupId}/messages`, outsider.token)).status).toBe(404);
    expect((await patch(`/messages/conversations/${groupId}/read`, {}, outsider.token)).status).toBe(404);
    expect((await patch(`/messages/conversations/${groupId}/mute`, { isMuted: true }, outsider.token)).status).toBe(
      404,
    );
    expect((await api.get(`/groups/${groupId}`, outsider.token)).status).toBe(404);
    expect((await api.post(`/groups/${groupId}/leave`, {}, outsider.token)).status).toBe(404);
    for (const [event, payload] of [
      ['sendMessage', { conversationId: groupId, text: 'Hola', clientId: 'outsider-1' }],
      ['joinConversation', { conversationId: groupId }],
      ['markMessagesRead', { conversationId: groupId, updateType: 'markRead' }],
    ] as const) {
      const ack = await emitWithAck<{ ok: boolean; status: number }>(socket, event, payload);
      expect(ack, event).toMatchObject({ ok: false, status: 404 });
    }
  });

  it('unread per member from its cursor; a read moves «Leído por N» for the others', async () => {
    const ownerSocket = await connect(owner);
    expect((await groupOf(carlos))?.unreadCount).toBe(2);
    expect((await groupOf(bea))?.unreadCount).toBe(1);
    expect((await groupOf(owner))?.unreadCount).toBe(1);
    const receipt = nextEventMatching<{ userId: string; readSeq: number }>(
      ownerSocket,
      'groupReceipt',
      (event) => event.userId === carlos.userId,
    );
    const read = await patch(`/messages/conversations/${groupId}/read`, {}, carlos.token);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect((await receipt).readSeq).toBe(2);
    expect((await groupOf(carlos))?.unreadCount).toBe(0);
    expect((await groupOf(bea))?.unreadCount).toBe(1);
    const page = await api.get(`/messages/conversations/${groupId}/messages`, owner.token);
    expect((page.body.messages as Message[]).map((m) => m.readBy)).toEqual([1, 1]);
  });

  it("«Mensajes» counts a member's unread group messages; a read tells the reader's other devices", async () => {
    await app.chat.whenDelivered();
    const groupTotal = async (user: TestUser) => {
      const answer = await api.get('/groups/unread-count', user.token);
      expect(answer.status).toBe(200);
      return answer.body.unreadCount as number;
    };
    expect(await groupTotal(owner)).toBe(1);
    expect(await groupTotal(bea)).toBe(1);
    expect(await groupTotal(carlos)).toBe(0);
    expect(await groupTotal(outsider)).toBe(0);
    const ownerPhone = await connect(owner);
    const told = nextEventMatching<{ kind: string; unreadCount: number; conversationId: string }>(
      ownerPhone,
      'unreadCountUpdated',
      (event) => event.kind === 'groups',
    );
    expect((await patch(`/messages/conversations/${groupId}/read`, {}, owner.token)).status).toBe(200);
    expect(await told).toEqual({ kind: 'groups', unreadCount: 0, conversationId: groupId, conversationUnreadCount: 0 });
    expect(await groupTotal(owner)).toBe(0);
    // The spec's total stays the matches' own.
    expect((await api.get('/messages/messages/unread/count', bea.token)).body.unreadCount).toBe(0);
  });

  it('a member who joins later has no unread history and is owed no notification', async () => {
    await app.chat.groups.addGroupMember(groupId, dani.userId);
    expect((await groupOf(dani))?.unreadCount).toBe(0);
    const [row] = await rows<{ notified_seq: number; last_read_seq: number }>(
      sql`select notified_seq, last_read_seq from conversation_participants
        where conversation_id = ${groupId}::uuid and user_id = ${dani.userId}::uuid`,
    );
    expect(row).toEqual({ notified_seq: 2, last_read_seq: 2 });
  });

  it('each away member gets one collapsed notification; the sender none; a muted member none', async () => {
    await app.chat.whenDelivered();
    expect((await patch(`/messages/conversations/${groupId}/mute`, { isMuted: true }, bea.token)).status).toBe(200);
    await send(owner, 'Quedamos a las siete');
    await send(owner, 'En la puerta');
    await eventually(async () => {
      const [left] = await rows<{ n: number }>(sql`select count(*)::int as n from conversation_participants p
        join conversations c on c.id = p.conversation_id
        where c.id = ${groupId}::uuid and p.left_at is null and p.notified_seq < c.last_seq`);
      return left?.n === 0;
    });
    await app.chat.whenDelivered();
    const notified = await rows<{ user_id: string; collapse_count: number }>(
      sql`select user_id, collapse_count from notifications where collapse_key = ${`conversation:${groupId}`}
        order by user_id`,
    );
    const counts = Object.fromEntries(notified.map((row) => [row.user_id, row.collapse_count]));
    // Carlos: the first two, then these two (one notification); Dani joined after the first two;
    // Bea only for the first (muted since); the owner for Bea's.
    expect(counts).toEqual({ [carlos.userId]: 4, [dani.userId]: 2, [owner.userId]: 1, [bea.userId]: 1 });
  });

  it('an outbox item queued with an empty receiver is a group message, stored once', async () => {
    const queued = { conversationId: groupId, receiverId: '', text: 'Desde la cola', clientId: 'queued-group-1' };
    const stored = await api.post('/messages/messages', queued, carlos.token);
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
    expect(stored.body.data).toMatchObject({ receiverId: null, text: 'Desde la cola' });
    expect((await api.post('/messages/messages', queued, carlos.token)).status).toBe(200);
  });

  it('leaving or removal refuses the next write and read at once', async () => {
    const carlosSocket = await connect(carlos);
    const ownerSocket = await connect(owner);
    const told = nextEventMatching<{ change: string; userId: string }>(
      ownerSocket,
      'groupUpdated',
      (event) => event.change === 'member-left',
    );
    expect((await api.post(`/groups/${groupId}/leave`, {}, carlos.token)).status).toBe(200);
    expect(await told).toMatchObject({ userId: carlos.userId });
    expect((await send(carlos, 'Sigo aquí')).status).toBe(404);
    const ack = await emitWithAck<{ ok: boolean; status: number }>(carlosSocket, 'sendMessage', {
      conversationId: groupId,
      text: 'Sigo aquí',
      clientId: 'carlos-after',
    });
    expect(ack).toMatchObject({ ok: false, status: 404 });
    expect((await api.get(`/messages/conversations/${groupId}/messages`, carlos.token)).status).toBe(404);
    expect(await groupOf(carlos)).toBeUndefined();

    await app.chat.groups.removeGroupMember(groupId, dani.userId, 'removed');
    expect((await send(dani, 'Hola')).status).toBe(404);
    expect((await groupOf(owner))?.members.map((member) => member.userId).sort()).toEqual(
      [owner.userId, bea.userId].sort(),
    );
  });

  it("the sync carries a member's groups and their messages; a group one left is removed", async () => {
    type Synced = { cursor: string; groups: Group[]; removedGroupIds: string[]; messages: Message[] };
    const sync = async (user: TestUser, since = '0') => {
      const answer = await api.get(`/sync?since=${since}`, user.token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body as Synced;
    };
    const first = await sync(bea);
    expect(first.groups.map((group) => group.conversationId)).toEqual([groupId]);
    const texts = first.messages.filter((m) => m.conversationId === groupId).map((m) => m.text);
    expect(texts.slice(0, 2)).toEqual(['Hola a todos', 'Voy']);
    expect(first.messages.find((m) => m.text === 'Hola a todos')).toMatchObject({
      receiverId: null,
      senderName: 'Olga',
    });
    // Nothing new: the group is not sent again; a message is, with its group.
    expect((await sync(bea, first.cursor)).groups).toEqual([]);
    await send(owner, 'Cambio de planes: a las ocho');
    const next = await sync(bea, first.cursor);
    expect(next.groups.map((group) => group.conversationId)).toEqual([groupId]);
    expect(next.messages.map((m) => m.text)).toContain('Cambio de planes: a las ocho');
    // Carlos left and Dani was removed: their devices drop the group and its messages.
    for (const user of [carlos, dani]) {
      const theirs = await sync(user);
      expect(theirs.groups).toEqual([]);
      expect(theirs.removedGroupIds).toEqual([groupId]);
      expect(theirs.messages.filter((m) => m.conversationId === groupId)).toEqual([]);
    }
    // An outsider's sync knows nothing of it.
    expect(JSON.stringify(await sync(outsider))).not.toContain(groupId);
  });

  it('a closed group reads but takes no more messages', async () => {
    await app.chat.groups.closeGroupConversation(groupId);
    const refused = await send(bea, 'Última');
    expect(refused.status).toBe(403);
    expect((await api.get(`/messages/conversations/${groupId}/messages`, bea.token)).status).toBe(200);
    expect((await groupOf(bea))?.status).toBe('closed');
  });

  it("stays out of the spec's conversation list and unread total", async () => {
    const listed = await api.get('/messages/conversations', owner.token);
    expect(listed.status).toBe(200);
    expect(listed.body.conversations).toEqual([]);
    const unread = await api.get('/messages/messages/unread/count', bea.token);
    expect(unread.body.unreadCount).toBe(0);
    expect((await groupOf(bea))?.unreadCount).toBeGreaterThan(0);
    // Muted, the group leaves the app's «Mensajes» total too; unmuted, it counts again.
    expect((await api.get('/groups/unread-count', bea.token)).body.unreadCount).toBe(0);
    expect((await patch(`/messages/conversations/${groupId}/mute`, { isMuted: false }, bea.token)).status).toBe(200);
    expect((await api.get('/groups/unread-count', bea.token)).body.unreadCount).toBe((await groupOf(bea))?.unreadCount);
  });
});
