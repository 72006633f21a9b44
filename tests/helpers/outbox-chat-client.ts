import { randomBytes } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import type { ChatMessage } from '#shared/chat/chat-schemas';

type SendAck = { ok: true; data: ChatMessage } | { ok: false; status?: number; message?: string; retryAfterS?: number };

/**
 * A chat client that behaves as the PWA does (ARCHITECTURE.md, "Offline and sync"), in Node:
 * Socket.IO through the load balancer with polling first and a random `route` (what the browser
 * sends), automatic reconnection, an outbox whose messages carry client ids and are replayed until
 * acknowledged, and a catch-up read of the conversation after every reconnection.
 */
export function createOutboxChatClient(options: {
  url: string;
  token: string;
  conversationId: string;
  /** Name prefix of the client ids, so a test can tell the senders apart. */
  name: string;
  route?: string;
}) {
  const { url, token, conversationId } = options;
  const route = options.route ?? randomBytes(8).toString('hex');
  const socket: Socket = io(url, {
    path: '/socket.io',
    transports: ['polling', 'websocket'],
    query: { route },
    auth: { token },
    reconnection: true,
    reconnectionDelay: 100,
    reconnectionDelayMax: 500,
    randomizationFactor: 0,
  });
  /** Every newMessage event, in order of arrival (duplicates would show here). */
  const liveEvents: ChatMessage[] = [];
  /** Every message of the conversation this client has seen, by server id (live or caught up). */
  const seen = new Map<string, ChatMessage>();
  const acked = new Map<string, ChatMessage>();
  const outbox: { clientId: string; text: string }[] = [];
  let connections = 0;
  let disconnections = 0;
  let sent = 0;
  let pumping: Promise<void> | undefined;

  const catchUp = async () => {
    const response = await fetch(`${url}/api/messages/conversations/${conversationId}/messages?limit=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok) return;
    const body = (await response.json()) as { messages: ChatMessage[] };
    for (const message of body.messages) seen.set(message._id, message);
  };
  socket.on('connect', () => {
    connections += 1;
    // After a reconnection, fetch what was sent while away (the PWA asks /api/sync).
    if (connections > 1) void catchUp().catch(() => {});
  });
  socket.on('disconnect', () => {
    disconnections += 1;
  });
  socket.on('newMessage', (message: ChatMessage) => {
    liveEvents.push(message);
    seen.set(message._id, message);
  });

  const connected = () =>
    socket.connected ? Promise.resolve() : new Promise<void>((resolve) => socket.once('connect', () => resolve()));

  /** One attempt: the ack, or undefined when the socket dropped or the ack did not come in time. */
  const attempt = async (item: { clientId: string; text: string }): Promise<SendAck | undefined> => {
    await connected();
    let onDisconnect: (() => void) | undefined;
    const dropped = new Promise<undefined>((resolve) => {
      onDisconnect = () => resolve(undefined);
      socket.once('disconnect', onDisconnect);
    });
    try {
      return await Promise.race([
        socket
          .timeout(5000)
          .emitWithAck('sendMessage', { conversationId, text: item.text, clientId: item.clientId })
          .catch(() => undefined) as Promise<SendAck | undefined>,
        dropped,
      ]);
    } finally {
      if (onDisconnect) socket.off('disconnect', onDisconnect);
    }
  };

  const pump = async () => {
    while (outbox.length > 0) {
      const item = outbox[0] as { clientId: string; text: string };
      const ack = await attempt(item);
      if (ack?.ok) {
        acked.set(item.clientId, ack.data);
        seen.set(ack.data._id, ack.data);
        outbox.shift();
      } else if (ack && ack.status !== undefined && ack.status < 500 && ack.status !== 429) {
        throw new Error(`message ${item.clientId} refused: ${JSON.stringify(ack)}`);
      } else if (ack) {
        // 429 or 5xx (a node draining, a dependency blip): the outbox keeps it and tries again, after
        // a 429 when its answer says (retryAfterS: the send limit's window), else shortly (the
        // reconnection to another node is what a draining node's 503 waits for).
        const retryAfterS = !ack.ok && ack.status === 429 ? (ack.retryAfterS ?? 1) : 0.1;
        const retryAfterMs = retryAfterS * 1000;
        await new Promise((resolve) => setTimeout(resolve, retryAfterMs));
      }
    }
  };

  const kick = () => {
    pumping ??= pump().finally(() => {
      pumping = undefined;
      if (outbox.length > 0) kick();
    });
  };

  return {
    socket,
    route,
    liveEvents,
    seen,
    acked,
    get connections() {
      return connections;
    },
    get disconnections() {
      return disconnections;
    },
    /** Queues a message (client id `<name>-<n>`) and starts draining the outbox. */
    send(text: string): string {
      sent += 1;
      const clientId = `${options.name}-${sent}`;
      outbox.push({ clientId, text });
      kick();
      return clientId;
    },
    /** Resolves once every queued message has been acknowledged. */
    async drained(): Promise<void> {
      while (pumping) await pumping;
    },
    connected,
    catchUp,
    close() {
      socket.close();
    },
  };
}

export type OutboxChatClient = ReturnType<typeof createOutboxChatClient>;
