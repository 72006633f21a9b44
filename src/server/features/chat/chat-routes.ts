import type { FastifyInstance } from 'fastify';
import {
  type ChatUnreadCountResponse,
  type ConversationListResponse,
  ConversationListQuerySchema,
  type ConversationResponse,
  MarkReadRequestSchema,
  type MarkReadResponse,
  type MessageListResponse,
  MessageListQuerySchema,
  SendMessageRequestSchema,
  type SendMessageResponse,
} from '#shared/chat/chat-schemas';
import { requireAuth } from '../../plugins/auth.ts';
import { parseInput } from '../../validation.ts';
import type { ChatService } from './chat-service.ts';

type Params = { id: string };

/** Spec 001 §7 conversation and message calls, mounted at /api/messages; every one needs a bearer token. */
export async function chatRoutes(app: FastifyInstance, options: { chat: ChatService }) {
  const { chat } = options;
  app.addHook('preHandler', app.authenticate);

  app.get('/conversations', async (request): Promise<ConversationListResponse> => {
    return chat.listConversations(requireAuth(request).userId, parseInput(ConversationListQuerySchema, request.query));
  });

  app.get<{ Params: Params }>('/conversations/:id/messages', async (request): Promise<MessageListResponse> => {
    const query = parseInput(MessageListQuerySchema, request.query);
    return chat.listMessages(requireAuth(request).userId, request.params.id, query);
  });

  app.patch<{ Params: Params }>('/conversations/:id/pin', async (request): Promise<ConversationResponse> => {
    return chat.setPinned(requireAuth(request).userId, request.params.id, request.body);
  });

  app.patch<{ Params: Params }>('/conversations/:id/mute', async (request): Promise<ConversationResponse> => {
    return chat.setMuted(requireAuth(request).userId, request.params.id, request.body);
  });

  app.patch<{ Params: Params }>('/conversations/:id/archive', async (request): Promise<ConversationResponse> => {
    return chat.setArchived(requireAuth(request).userId, request.params.id, request.body);
  });

  app.patch<{ Params: Params }>('/conversations/:id/swipetype', async (request): Promise<ConversationResponse> => {
    return chat.setSwipeType(requireAuth(request).userId, request.params.id, request.body);
  });

  app.patch<{ Params: Params }>('/conversations/:id/read', async (request): Promise<MarkReadResponse> => {
    const { upToMessageId } = parseInput(MarkReadRequestSchema, request.body ?? {});
    const outcome = await chat.markRead(requireAuth(request).userId, request.params.id, undefined, upToMessageId);
    return { success: true, unreadCount: outcome.totalUnread };
  });

  // Not in the spec (unmatch is local only there): docs/decisions/0009-unmatch.md.
  app.post<{ Params: Params }>('/conversations/:id/unmatch', async (request): Promise<ConversationResponse> => {
    return chat.unmatch(requireAuth(request).userId, request.params.id);
  });

  // Committed, then answered, then announced (QUALITY 15): a repeated clientId answers 200, emits nothing.
  // The statement re-checks the session row itself (docs/decisions/0018 §4): the cached check suffices.
  app.post('/messages', { config: { isSessionGuardedInSql: true } }, async (request, reply) => {
    const input = parseInput(SendMessageRequestSchema, request.body);
    const outcome = await chat.send(requireAuth(request), input);
    const body: SendMessageResponse = { success: true, data: outcome.message };
    reply.status(outcome.isNew ? 201 : 200).send(body);
    chat.announce(outcome);
    return reply;
  });

  app.get('/messages/unread/count', async (request): Promise<ChatUnreadCountResponse> => {
    return { success: true, unreadCount: await chat.unreadCount(requireAuth(request).userId) };
  });
}
