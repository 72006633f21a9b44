// @setup scaled — a block between an open session's host and member, across two nodes
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '#shared/chat/chat-schemas';
import type { GroupUpdatedEvent } from '#shared/chat/socket-events';
import type { OpenSession } from '#shared/open-sessions/open-session-schemas';
import { emitWithAck, nextEventMatching } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { createOpenSessionApi } from '../helpers/open-session-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startSecondNode, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock } from '../helpers/test-clock.ts';

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

/**
 * A block made on node A between a session's host and a member whose socket is on node B
 * (docs/decisions/0056, amendment of session 17): the member's socket hears that they are out of
 * the group, and node B — whose membership cache knew them in it — refuses their next message.
 */
describe.runIf(isScaled)('blocks in an open session across two nodes', () => {
  const clock = createTestClock('2026-04-14T09:00:00.000Z');
  let nodeA: TestApp;
  let nodeB: TestApp;
  let apiA: DiscoveryApi;

  beforeAll(async () => {
    nodeA = await startTestApp({}, { dependencies: { clock } });
    nodeB = await startSecondNode(nodeA, { dependencies: { clock } });
    apiA = createDiscoveryApi(nodeA);
  });
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
  });

  const inGroup = async (host: TestUser, member: TestUser) => {
    const sessions = createOpenSessionApi(apiA, () => clock.now());
    const session = await sessions.publish(host, { places: 3 });
    expect((await sessions.write(member, `${session._id}/join`)).status).toBe(200);
    const seen = (await apiA.get(`/open-sessions/${session._id}`, host.token)).body.session as OpenSession;
    return seen.conversationId as string;
  };

  for (const who of ['host', 'member'] as const) {
    it(`the ${who} blocks on node A; the member's socket on node B is out of the group at once`, async () => {
      const host = await apiA.userWithProfile({}, 'Rosa');
      const member = await apiA.userWithProfile({}, 'Saúl');
      const conversationId = await inGroup(host, member);
      const socket = await connectSocket(nodeB, { token: member.token });
      try {
        // Node B learns the group with the member in it.
        expect(await emitWithAck(socket, 'joinConversation', { conversationId })).toMatchObject({ ok: true });
        const change = who === 'host' ? 'member-removed' : 'member-left';
        const heard = nextEventMatching<GroupUpdatedEvent>(
          socket,
          'groupUpdated',
          (event) => event.conversationId === conversationId && event.change === change,
        );
        const [blocker, blocked] = who === 'host' ? [host, member] : [member, host];
        const block = await apiA.post('/safety/blocks', { userId: blocked.userId }, blocker.token);
        expect(block.status, JSON.stringify(block.body)).toBe(201);
        expect((await heard).userId).toBe(member.userId);

        const refused = await emitWithAck(socket, 'sendMessage', {
          conversationId,
          text: 'Sigo aquí',
          clientId: randomUUID(),
        });
        expect(refused).toMatchObject({ ok: false, status: 404 });
        expect((await createDiscoveryApi(nodeB).get(`/groups/${conversationId}`, member.token)).status).toBe(404);
      } finally {
        socket.close();
      }
    });
  }

  it("two members: a message sent on node A reaches the blocker's socket on node B without its text", async () => {
    const host = await apiA.userWithProfile({}, 'Tina');
    const bea = await apiA.userWithProfile({}, 'Úrsula');
    const carlos = await apiA.userWithProfile({}, 'Víctor');
    const conversationId = await inGroup(host, bea);
    const sessions = createOpenSessionApi(apiA, () => clock.now());
    const seen = (await apiA.get('/open-sessions/mine', host.token)).body.sessions as OpenSession[];
    const session = seen.find((candidate) => candidate.conversationId === conversationId) as OpenSession;
    expect((await sessions.write(carlos, `${session._id}/join`)).status).toBe(200);
    expect((await createDiscoveryApi(nodeB).post('/safety/blocks', { userId: carlos.userId }, bea.token)).status).toBe(
      201,
    );
    const socket = await connectSocket(nodeB, { token: bea.token });
    try {
      const heard = nextEventMatching<ChatMessage>(socket, 'newMessage', (m) => m.conversationId === conversationId);
      const sent = await apiA.post(
        '/messages/messages',
        { conversationId, text: 'Contesta', clientId: randomUUID() },
        carlos.token,
      );
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      expect(await heard).toMatchObject({ _id: (sent.body.data as ChatMessage)._id, text: '', isHidden: true });
    } finally {
      socket.close();
    }
  });
});
