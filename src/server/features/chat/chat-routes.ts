import type { FastifyInstance } from 'fastify';
import {
  type ChatUnreadCountResponse,
  type ConversationListResponse,
  ConversationListQuerySchema,
  type ConversationResponse,
  GroupLeaveRequestSchema,
  GroupSendMessageRequestSchema,
  type GroupListResponse,
  type GroupUnreadCountResponse,
  type GroupResponse,
  MarkReadRequestSchema,
  type MarkReadResponse,
  type MessageListResponse,
  MessageListQuerySchema,
  SendMessageRequestSchema,
  isUuid,
  type SendMessageResponse,
} from '#shared/chat/chat-schemas';
import { CHAT_MESSAGES } from '#shared/chat/chat-messages';
import { notFound } from '../../errors.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { parseInput } from '../../validation.ts';
import type { ChatService } from './chat-service.ts';
import type { GroupChat } from './group-chat.ts';

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

  // A group's answer is `{ success, group }` (docs/decisions/0056); a match's is the spec's.
  app.patch<{ Params: Params }>(
    '/conversations/:id/mute',
    async (request): Promise<ConversationResponse | GroupResponse> => {
      return chat.setMuted(requireAuth(request).userId, request.params.id, request.body);
    },
  );

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
    // Without a receiver only a group's message is valid (the spec's match message names one).
    // An empty receiver is none (an outbox item queued before its conversation was known to be a group).
    const raw = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as {
      receiverId?: unknown;
    };
    const hasReceiver = raw.receiverId !== undefined && raw.receiverId !== '';
    const { receiverId: _none, ...groupBody } = raw;
    const input = hasReceiver
      ? parseInput(SendMessageRequestSchema, request.body)
      : { ...parseInput(GroupSendMessageRequestSchema, groupBody), isGroupOnly: true };
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

/**
 * Group conversations (docs/decisions/0056), mounted at /api/groups: the caller's groups, one
 * group (title, members and their read cursors), and leaving one. Messages, mark-read and mute go
 * through the spec's calls above.
 */
export async function groupRoutes(app: FastifyInstance, options: { groups: GroupChat }) {
  const { groups } = options;
  app.addHook('preHandler', app.authenticate);

  app.get('/', async (request): Promise<GroupListResponse> => {
    return { success: true, groups: await groups.list(requireAuth(request).userId) };
  });

  app.get('/unread-count', async (request): Promise<GroupUnreadCountResponse> => {
    return { success: true, unreadCount: await groups.unreadTotal(requireAuth(request).userId) };
  });

  app.get<{ Params: Params }>('/:id', async (request): Promise<GroupResponse> => {
    return { success: true, group: await groups.get(requireAuth(request).userId, groupId(request.params.id)) };
  });

  app.post<{ Params: Params }>('/:id/leave', async (request): Promise<{ success: true }> => {
    const { clientId } = parseInput(GroupLeaveRequestSchema, request.body);
    await groups.leave(requireAuth(request).userId, groupId(request.params.id), clientId);
    return { success: true };
  });
}

/** A group's id as the repository takes it: a malformed one is as unknown as someone else's (404). */
function groupId(id: string): string {
  if (!isUuid(id)) throw notFound(CHAT_MESSAGES.conversationNotFound);
  return id.toLowerCase();
}
