// @setup embedded
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '#shared/chat/chat-schemas';
import { createMatchedPair, type MatchedPair } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

type Ack = { ok: boolean; data?: ChatMessage; message?: string };

/** Emits every text without waiting, as a pipelining client does; the acks in the order they came. */
function pipeline(socket: Socket, conversationId: string, texts: readonly string[]) {
  const arrived: string[] = [];
  const acks = texts.map((text) =>
    (socket.timeout(20_000).emitWithAck('sendMessage', { conversationId, text, clientId: text }) as Promise<Ack>).then(
      (ack) => {
        arrived.push(text);
        return ack;
      },
    ),
  );
  return { acks: Promise.all(acks), arrived };
}

/** #15: a sender's messages are stored, acknowledged and announced in the order they were emitted. */
describe('pipelined sends keep each sender’s order', () => {
  let app: TestApp;
  let api: DiscoveryApi;
  const PER_SENDER = 20;

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('20 messages from each of six sockets, without waiting for acknowledgements', async () => {
    const pairs: MatchedPair[] = [];
    for (const names of [
      ['Ana', 'Bruno'],
      ['Carla', 'Diego'],
      ['Elena', 'Fran'],
    ] as const) {
      pairs.push(await createMatchedPair(api, { names: [...names] }));
    }
    const senders = pairs.flatMap((pair) => [
      { user: pair.a, other: pair.b, pair },
      { user: pair.b, other: pair.a, pair },
    ]);
    const sockets = new Map<string, Socket>();
    for (const { user } of senders) sockets.set(user.userId, await connectSocket(app, { token: user.token }));
    try {
      // What each recipient hears, in order, per sender.
      const heard = new Map<string, string[]>();
      for (const { user, other } of senders) {
        heard.set(user.userId, []);
        (sockets.get(other.userId) as Socket).on('newMessage', (message: ChatMessage) => {
          if (message.senderId === user.userId) heard.get(user.userId)?.push(message.text);
        });
      }
      const textsOf = (user: TestUser) =>
        Array.from({ length: PER_SENDER }, (_, i) => `orden-${user.userId.slice(0, 8)}-${String(i).padStart(2, '0')}`);
      const runs = senders.map(({ user, pair }) => ({
        user,
        pair,
        texts: textsOf(user),
        ...pipeline(sockets.get(user.userId) as Socket, pair.conversationId, textsOf(user)),
      }));
      const acked = await Promise.all(runs.map((run) => run.acks));

      for (const [index, run] of runs.entries()) {
        const acks = acked[index] as Ack[];
        expect(acks.every((ack) => ack.ok)).toBe(true);
        // Acknowledged in emission order, with increasing seqs.
        expect(run.arrived).toEqual(run.texts);
        const seqs = acks.map((ack) => ack.data?.seq as number);
        expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
        // Stored in emission order.
        const listed = await api.get(
          `/messages/conversations/${run.pair.conversationId}/messages?limit=100`,
          run.user.token,
        );
        const stored = (listed.body.messages as ChatMessage[])
          .filter((message) => message.senderId === run.user.userId)
          .sort((x, y) => x.seq - y.seq)
          .map((message) => message.text);
        expect(stored).toEqual(run.texts);
      }
      // Announced in emission order (the recipients got all of them).
      for (const run of runs) {
        await expect.poll(() => heard.get(run.user.userId)?.length).toBe(PER_SENDER);
        expect(heard.get(run.user.userId)).toEqual(run.texts);
      }
    } finally {
      for (const socket of sockets.values()) socket.close();
    }
    // Six users, three matches and 120 messages: generous on a loaded 2-core machine.
  }, 120_000);
});
