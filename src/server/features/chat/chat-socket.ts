import type { DefaultEventsMap, Server, Socket } from 'socket.io';
import type * as v from 'valibot';
import { CHAT_MESSAGES } from '#shared/chat/chat-messages';
import {
  type ClientToServerEvents,
  ConversationRefSchema,
  MarkAsDeliveredEventSchema,
  MarkMessagesReadEventSchema,
  MessageReceivedEventSchema,
  SendMessageEventSchema,
  aliasOf,
  type ServerToClientEvents,
  type SocketAck,
  type SocketHandshakeAuth,
  TypingEventSchema,
} from '#shared/chat/socket-events';
import type { Logger } from '../../logger.ts';
import { type SocketAuth, userRoom } from '../../plugins/realtime-auth.ts';
import { checkInput } from '../../validation.ts';
import { type AliasPresence, aliasRoom } from './alias-presence.ts';
import { ackError } from './chat-mapping.ts';
import type { ChatRealtime, ChatService } from './chat-service.ts';

/** What the auth and presence layers keep on each socket. */
type ChatSocketData = { auth?: SocketAuth; visible?: boolean };
export type ChatServer = Server<ClientToServerEvents, ServerToClientEvents, DefaultEventsMap, ChatSocketData>;
type ChatSocket = Socket<ClientToServerEvents, ServerToClientEvents, DefaultEventsMap, ChatSocketData>;

export const conversationRoom = (conversationId: string) => `conversation:${conversationId}`;
/** The sockets of a user that asked for the aliased event names (docs/decisions/0013). */

/** Spec 001 §9: a client keeps at most 20 conversation rooms; the server holds it to that too. */
const MAX_JOINED_CONVERSATIONS = 20;

/** The one place the app's untyped Socket.IO server gets the chat's event maps. */
export function asChatServer(io: Server): ChatServer {
  return io as unknown as ChatServer;
}

/**
 * ChatRealtime over Socket.IO: rooms go through the adapter, so every node is reached (QUALITY 16).
 * `aliases`: whether a user's sockets may have asked for the alias names, here or on another
 * node. Built once, by the chat module, and handed to the other features that emit to users.
 */
export function createChatRealtime(io: Server, logger: Logger, deps: { aliases: AliasPresence }): ChatRealtime {
  const server = asChatServer(io);
  return {
    /**
     * One packet per socket, never two: an aliased event goes under its canonical name to the
     * user's sockets but those that asked for the aliases, and under the alias to those. That is
     * what lets typing be volatile: Socket.IO drops a volatile packet while the transport is still
     * writing the previous one, so a second name sent right after the first would be lost.
     */
    emitToUser(userId, event, payload, options = {}) {
      const users = typeof userId === 'string' ? [userId] : userId;
      const alias = aliasOf(event);
      const send = (name: string, target: ReturnType<ChatServer['to']>) => {
        let chosen = options.exceptSocketId ? target.except(options.exceptSocketId) : target;
        if (options.volatile) chosen = chosen.volatile;
        // The event map ties each name to its payload; the service's signature has already checked the pair.
        (chosen.emit as (name: string, data: unknown) => boolean)(name, payload);
      };
      // No alias socket: one broadcast, not a second one encoded for nobody (docs/decisions/0039).
      if (!alias || !deps.aliases.mayHave(users)) {
        send(event, server.to(users.map(userRoom)));
        return;
      }
      send(event, server.to(users.map(userRoom)).except(users.map(aliasRoom)));
      send(alias, server.to(users.map(aliasRoom)));
    },
    async isViewing(userId, conversationId) {
      try {
        const sockets = await server.in(conversationRoom(conversationId)).fetchSockets();
        return sockets.some((socket) => socket.data.auth?.userId === userId && socket.data.visible === true);
      } catch (error) {
        // A node did not answer: notify rather than lose it.
        logger.warn({ err: error, conversationId }, 'chat: presence lookup failed');
        return false;
      }
    },
  };
}

type AckFn = (result: SocketAck<object>) => void;

/**
 * The chat's socket events (spec 001 §7). Each payload is parsed with its shared schema; a bad
 * one gets an error acknowledgement (or is dropped when there is no acknowledgement), and no
 * handler can throw into Socket.IO. Everything is checked against the authenticated user.
 */
export function attachChatSocket(io: Server, deps: { chat: ChatService; logger: Logger }): void {
  const { chat, logger } = deps;

  /**
   * Parses, runs and acknowledges one event. `run` may return `afterAck`, which runs once the
   * acknowledgement is on its way (the announcement of a stored message).
   */
  const handle = <TSchema extends v.GenericSchema, TResult extends object>(
    socket: ChatSocket,
    schema: TSchema,
    payload: unknown,
    ack: unknown,
    run: (userId: string, input: v.InferOutput<TSchema>) => Promise<TResult & { afterAck?: () => void }>,
  ) => {
    const reply: AckFn = typeof ack === 'function' ? (ack as AckFn) : () => {};
    const userId = socket.data.auth?.userId;
    const parsed = checkInput(schema, payload);
    if (!userId || !parsed.success) {
      reply(invalidEventAck(parsed.success ? undefined : parsed.message));
      return;
    }
    run(userId, parsed.output).then(
      ({ afterAck, ...result }) => {
        reply({ ok: true, ...result });
        afterAck?.();
      },
      (error: unknown) => {
        const failure = ackError(error);
        if (failure.status >= 500) logger.error({ err: error, socketId: socket.id }, 'chat: socket event failed');
        reply(failure);
      },
    );
  };

  asChatServer(io).on('connection', (socket) => {
    const joined: string[] = [];
    const auth: Partial<SocketHandshakeAuth> = socket.handshake.auth ?? {};
    const ownerId = socket.data.auth?.userId;
    // The socket gets the spec's alias names instead of the canonical ones (docs/decisions/0013).
    if (ownerId && auth.eventAliases === true) void socket.join(aliasRoom(ownerId));

    socket.on('joinConversation', (payload, ack) =>
      handle(socket, ConversationRefSchema, payload, ack, async (userId, input) => {
        const conversationId = await chat.join(userId, input.conversationId);
        const room = conversationRoom(conversationId);
        if (!joined.includes(room)) {
          joined.push(room);
          if (joined.length > MAX_JOINED_CONVERSATIONS) await socket.leave(joined.shift() as string);
        }
        await socket.join(room);
        return {};
      }),
    );

    socket.on('leaveConversation', (payload, ack) =>
      handle(socket, ConversationRefSchema, payload, ack, async (_userId, input) => {
        const room = conversationRoom(input.conversationId);
        const index = joined.indexOf(room);
        if (index >= 0) joined.splice(index, 1);
        await socket.leave(room);
        return {};
      }),
    );

    // Committed, then acknowledged with its id and seq, then announced (QUALITY 15).
    socket.on('sendMessage', (payload, ack) =>
      handle(socket, SendMessageEventSchema, payload, ack, async (_userId, input) => {
        const outcome = await chat.send(socket.data.auth as SocketAuth, input);
        return { data: outcome.message, afterAck: () => chat.announce(outcome, { exceptSocketId: socket.id }) };
      }),
    );

    socket.on('messageReceived', (payload, ack) =>
      handle(socket, MessageReceivedEventSchema, payload, ack, async (userId, input) => ({
        messageIds: await chat.markDelivered(userId, input.conversationId, [input.messageId]),
      })),
    );

    socket.on('markAsDelivered', (payload, ack) =>
      handle(socket, MarkAsDeliveredEventSchema, payload, ack, async (userId, input) => ({
        messageIds: await chat.markDelivered(userId, input.conversationId, input.messageIds),
      })),
    );

    socket.on('markMessagesRead', (payload, ack) =>
      handle(socket, MarkMessagesReadEventSchema, payload, ack, async (userId, input) => {
        const ids = 'messageIds' in input ? input.messageIds : undefined;
        const outcome = await chat.markRead(userId, input.conversationId, ids);
        return { messageIds: outcome.messageIds, unreadCount: outcome.unreadCount, totalUnread: outcome.totalUnread };
      }),
    );

    // Relayed volatile and never stored; a foreign or malformed conversation is dropped silently.
    socket.on('typing', (payload) =>
      handle(socket, TypingEventSchema, payload, undefined, async (userId, input) => {
        await chat.typing(userId, input);
        return {};
      }),
    );
  });
}

/** A malformed payload's answer: the schema's own Spanish text when it has one (blank, too long…). */
function invalidEventAck(message: string | undefined): SocketAck {
  return { ok: false, message: message ?? CHAT_MESSAGES.invalidEvent, status: 400, errorType: 'VALIDATION' };
}
