// @setup scaled — group conversations across two nodes (docs/decisions/0056)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '#shared/chat/chat-schemas';
import { emitWithAck, nextEventMatching } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

/**
 * A group's membership changes on one node and the other node obeys at once: a member added on
 * node A writes through node B (whose cache knew the group without them), a member removed on node
 * A is refused its next write and read on node B.
 */
describe.runIf(isScaled)('group conversations across two nodes', () => {
  let nodeA: TestApp;
  let nodeB: TestApp;
  let owner: TestUser;
  let bea: TestUser;
  let carlos: TestUser;

  beforeAll(async () => {
    nodeA = await startTestApp();
    nodeB = await startTestApp({
      databaseUrl: nodeA.config.databaseUrl,
      tokenSecret: nodeA.config.tokenSecret,
      redisKeyPrefix: nodeA.config.redisKeyPrefix,
    });
    const api = createDiscoveryApi(nodeA);
    owner = await api.userWithProfile({}, 'Olga');
    bea = await api.userWithProfile({}, 'Bea');
    carlos = await api.userWithProfile({}, 'Carlos');
  });
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
  });

  it('adds and removals on one node hold for the next write on the other', async () => {
    const { conversationId } = await nodeA.chat.groups.createGroupConversation({
      ownerId: owner.userId,
      title: 'Remo',
    });
    await nodeA.chat.groups.addGroupMember(conversationId, bea.userId);
    const ownerSocket = await connectSocket(nodeA, { token: owner.token });
    const beaSocket = await connectSocket(nodeB, { token: bea.token });
    const carlosSocket = await connectSocket(nodeB, { token: carlos.token });
    try {
      // Node B learns the group (Bea joins its room there), Carlos not in it yet.
      expect(await emitWithAck(beaSocket, 'joinConversation', { conversationId })).toMatchObject({ ok: true });
      expect(await emitWithAck(carlosSocket, 'joinConversation', { conversationId })).toMatchObject({
        ok: false,
        status: 404,
      });

      await nodeA.chat.groups.addGroupMember(conversationId, carlos.userId);
      const atOwner = nextEventMatching<ChatMessage>(ownerSocket, 'newMessage', (m) => m.text === 'Ya estoy');
      const atBea = nextEventMatching<ChatMessage>(beaSocket, 'newMessage', (m) => m.text === 'Ya estoy');
      const sent = await emitWithAck<{ ok: boolean; data: ChatMessage }>(carlosSocket, 'sendMessage', {
        conversationId,
        text: 'Ya estoy',
        clientId: 'multi-node-group-1',
      });
      expect(sent, JSON.stringify(sent)).toMatchObject({ ok: true, data: { receiverId: null } });
      expect((await atOwner)._id).toBe(sent.data._id);
      expect((await atBea)._id).toBe(sent.data._id);

      await nodeA.chat.groups.removeGroupMember(conversationId, bea.userId, 'removed');
      const refused = await emitWithAck(beaSocket, 'sendMessage', {
        conversationId,
        text: 'Sigo',
        clientId: 'multi-node-group-2',
      });
      expect(refused).toMatchObject({ ok: false, status: 404 });
      const page = await createDiscoveryApi(nodeB).get(`/messages/conversations/${conversationId}/messages`, bea.token);
      expect(page.status).toBe(404);
    } finally {
      for (const socket of [ownerSocket, beaSocket, carlosSocket]) socket.close();
    }
  });
});
