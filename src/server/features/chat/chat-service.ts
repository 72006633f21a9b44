import { CHAT_MESSAGES } from '#shared/chat/chat-messages';
import {
  ArchiveRequestSchema,
  type ChatSwipeType,
  type ConversationListQuery,
  type ConversationListResponse,
  type ConversationResponse,
  type ConversationSummary,
  type GroupResponse,
  isUuid,
  MESSAGE_SEND_LIMIT,
  MESSAGE_SEND_WINDOW_MS,
  type MessageListQuery,
  type MessageListResponse,
  MuteRequestSchema,
  PinRequestSchema,
  SwipeTypeRequestSchema,
} from '#shared/chat/chat-schemas';
import { CHAT_EVENTS, type TypingInput } from '#shared/chat/socket-events';
import type { MatchEvent } from '#shared/discovery/discovery-schemas';
import { badRequest, forbidden, notFound, tooManyRequests, unauthorized } from '../../errors.ts';
import type { RateLimitRule } from '../../infra/rate-limit.ts';
import { SERVER_MESSAGES } from '#shared/messages';
import { parseInput } from '../../validation.ts';
import type { ConversationAccess, ConversationRepository } from './conversation-repository.ts';
import type { GroupMembership, Membership, PairMembership } from './conversation-membership.ts';
import { hiddenCopy, toChatMessage, toSummary } from './chat-mapping.ts';
import { createLanes } from './sender-lanes.ts';
import type { ChatServiceDeps, ReadOutcome, Sender, SendInput, SendOutcome } from './chat-ports.ts';

const SEND_RULE: RateLimitRule = { name: 'chat-send', limit: MESSAGE_SEND_LIMIT, windowMs: MESSAGE_SEND_WINDOW_MS };

export type ChatService = ReturnType<typeof createChatService>;

export { ackError, statusOf, toChatMessage, toSummary } from './chat-mapping.ts';
export type {
  ChatNotifier,
  ChatRealtime,
  ChatServiceDeps,
  ReadOutcome,
  Sender,
  SendInput,
  SendOutcome,
} from './chat-ports.ts';

/**
 * The chat's rules (spec 001 §4, §5, §7), shared by the HTTP routes and the socket handlers:
 * only the two users of a conversation see it (anyone else gets 404, so its existence is not
 * revealed); a message is committed, then acknowledged, then announced (`announce`).
 */
export function createChatService(deps: ChatServiceDeps) {
  const { conversations, messages, realtime, clock } = deps;

  /** The caller's access, or 404 (a malformed id is as unknown as someone else's conversation). */
  const access = async (userId: string, conversationId: string): Promise<ConversationAccess> => {
    const found = isUuid(conversationId)
      ? await conversations.findAccess(conversationId.toLowerCase(), userId)
      : undefined;
    if (!found) throw notFound(CHAT_MESSAGES.conversationNotFound);
    return found;
  };

  const summary = async (userId: string, conversationId: string): Promise<ConversationSummary> => {
    const view = await conversations.findView(userId, conversationId);
    if (!view) throw notFound(CHAT_MESSAGES.conversationNotFound);
    return toSummary(view);
  };

  const updateOwn = async (
    userId: string,
    conversationId: string,
    patch: Parameters<ConversationRepository['updateParticipant']>[2],
  ): Promise<ConversationResponse> => {
    const found = await access(userId, conversationId);
    await conversations.updateParticipant(userId, found.conversationId, patch, clock.now());
    const conversation = await summary(userId, found.conversationId);
    realtime.emitToUser(userId, CHAT_EVENTS.conversationUpdated, conversation);
    return { success: true, conversation };
  };

  /** A conversation the user is in (from memory once known), or 404 as for an unknown one. */
  const memberOfAny = async (userId: string, conversationId: string): Promise<Membership> => {
    const id = conversationId.toLowerCase();
    if (!isUuid(id)) throw notFound(CHAT_MESSAGES.conversationNotFound);
    let found = await deps.membership.isMember(userId, id);
    // A group member added on another node a moment ago: read once more before refusing.
    if (!found && deps.membership.peek(id) !== undefined && (await groupOf(id))) {
      deps.membership.forget(id);
      found = await deps.membership.isMember(userId, id);
    }
    if (!found) throw notFound(CHAT_MESSAGES.conversationNotFound);
    return found;
  };
  /** A match the user is in; a group is as unknown to the match-only calls. */
  const member = async (userId: string, conversationId: string): Promise<PairMembership> => {
    const found = await memberOfAny(userId, conversationId);
    if (found.kind !== 'match') throw notFound(CHAT_MESSAGES.conversationNotFound);
    return found;
  };
  /** The group this id names (from memory once known), else undefined (a match, or nothing). */
  const groupOf = async (conversationId: string): Promise<GroupMembership | undefined> => {
    const id = conversationId.toLowerCase();
    const found = isUuid(id) ? await deps.membership.get(id) : undefined;
    return found?.kind === 'group' ? found : undefined;
  };
  const otherOf = (found: PairMembership, userId: string) => (found.userA === userId ? found.userB : found.userA);

  /**
   * Receipts' access: a live conversation from memory; an ended one from the database, which
   * tells a block (no receipts at all) from an unmatch.
   */
  const receiptAccess = async (
    userId: string,
    conversationId: string,
  ): Promise<Pick<ConversationAccess, 'conversationId' | 'otherUserId' | 'status'>> => {
    const found = await member(userId, conversationId);
    if (!found.isLive) return access(userId, found.conversationId);
    return { conversationId: found.conversationId, otherUserId: otherOf(found, userId), status: 'active' };
  };

  /** One lane per sender and conversation (#15): pipelined sends keep their emission order. */
  const lanes = createLanes();

  /**
   * Stores a message (trimmed, 1–2000 characters: the handlers' schemas) in one statement that
   * itself re-checks the session, the membership and the conversation's liveness. A repeated
   * clientId answers the original message and stores nothing.
   */
  const sendNow = async (sender: Sender, conversationId: string, input: SendInput): Promise<SendOutcome> => {
    const userId = sender.userId;
    if (!isUuid(conversationId)) throw notFound(CHAT_MESSAGES.conversationNotFound);
    // Known to this node: refused from memory. Not known: no read first, the statement checks the
    // membership and the receiver itself and its answer fills the cache (docs/decisions/0037).
    const known = deps.membership.peek(conversationId);
    if (known && known.kind === 'group') return deps.groups.send(sender, input);
    if (input.isGroupOnly) {
      const group = known === undefined ? await groupOf(conversationId) : undefined;
      if (!group) throw badRequest(CHAT_MESSAGES.invalidReceiver, 'VALIDATION');
      return deps.groups.send(sender, input);
    }
    if (known === false || (known && known.userA !== userId && known.userB !== userId)) {
      throw notFound(CHAT_MESSAGES.conversationNotFound);
    }
    if (known && input.receiverId !== undefined && input.receiverId !== otherOf(known, userId)) {
      throw badRequest(CHAT_MESSAGES.invalidReceiver, 'VALIDATION');
    }
    // From this node's memory (docs/decisions/0035): the send's only I/O is its statement.
    const limited = await deps.limiter.consumeQuickly({ rule: SEND_RULE, key: userId });
    if (limited.isLimited)
      throw tooManyRequests(CHAT_MESSAGES.sendRateLimited, limited.retryAfterMs / 1000, 'RATE_LIMIT');
    const outcome = await messages.insert({
      conversationId,
      senderId: userId,
      sessionId: sender.sessionId,
      text: input.text,
      clientId: input.clientId,
      receiverId: input.receiverId,
      knownReceiverId: known ? otherOf(known, userId) : undefined,
      now: clock.now(),
    });
    if (outcome.kind === 'revoked') throw unauthorized(SERVER_MESSAGES.invalidToken);
    if (outcome.kind === 'missing') {
      deps.membership.forget(conversationId);
      // Not a match this sender is in: a group this node did not know yet?
      const group = known ? undefined : await groupOf(conversationId);
      if (group) return deps.groups.send(sender, input);
      throw notFound(CHAT_MESSAGES.conversationNotFound);
    }
    if (outcome.kind === 'wrong-receiver') throw badRequest(CHAT_MESSAGES.invalidReceiver, 'VALIDATION');
    if (outcome.kind === 'inactive') {
      deps.membership.forget(conversationId);
      throw forbidden(CHAT_MESSAGES.cannotSend);
    }
    if (outcome.kind === 'created' && !known)
      deps.membership.remember({ kind: 'match', conversationId, ...outcome.pair, isLive: true });
    const message = toChatMessage(outcome.message, outcome.sender);
    if (outcome.kind === 'repeat') {
      return {
        message,
        isNew: false,
        receiverUnread: 0,
        receiverTotalUnread: 0,
        isReceiverMuted: true,
        senderName: outcome.sender.name,
      };
    }
    deps.onStored?.(conversationId);
    return {
      message,
      isNew: true,
      receiverUnread: outcome.receiverUnread,
      receiverTotalUnread: outcome.receiverTotalUnread,
      isReceiverMuted: outcome.isReceiverMuted,
      senderName: outcome.sender.name,
    };
  };

  return {
    async listConversations(userId: string, query: ConversationListQuery): Promise<ConversationListResponse> {
      await conversations.ensureParticipants(userId, clock.now());
      const { page, limit } = query;
      const offset = (page - 1) * limit;
      const { views, total } = await conversations.list(userId, { isArchived: query.archived, offset, limit });
      return {
        success: true,
        conversations: views.map(toSummary),
        pagination: { page, limit, total, hasMore: offset + views.length < total },
      };
    },

    /** Page 1 holds the newest `limit` messages, oldest to newest within the page. */
    async listMessages(userId: string, conversationId: string, query: MessageListQuery): Promise<MessageListResponse> {
      if (await groupOf(conversationId)) return deps.groups.listMessages(userId, conversationId.toLowerCase(), query);
      const found = await access(userId, conversationId);
      const { rows, hasMore } = await messages.list(found.conversationId, {
        before: query.before,
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
      });
      const people = new Map([
        [userId, found.self],
        [found.otherUserId, found.other],
      ]);
      const list = rows
        .reverse()
        .map((row) => toChatMessage(row, people.get(row.senderId) ?? { name: '', photo: null }));
      return { success: true, messages: list, hasMore };
    },

    setPinned(userId: string, conversationId: string, body: unknown) {
      const { isPinned } = parseInput(PinRequestSchema, body);
      return updateOwn(userId, conversationId, { isPinned });
    },

    async setMuted(
      userId: string,
      conversationId: string,
      body: unknown,
    ): Promise<ConversationResponse | GroupResponse> {
      const { isMuted } = parseInput(MuteRequestSchema, body);
      if (await groupOf(conversationId)) {
        return { success: true, group: await deps.groups.setMuted(userId, conversationId.toLowerCase(), isMuted) };
      }
      return updateOwn(userId, conversationId, { isMuted });
    },

    setArchived(userId: string, conversationId: string, body: unknown) {
      const { archived } = parseInput(ArchiveRequestSchema, body ?? {});
      return updateOwn(userId, conversationId, { isArchived: archived });
    },

    /** Spec 001 §4: only a conversation born of a superlike may carry the "Súper entreno" mark. */
    async setSwipeType(userId: string, conversationId: string, body: unknown): Promise<ConversationResponse> {
      const { swipeType } = parseInput(SwipeTypeRequestSchema, body);
      const found = await access(userId, conversationId);
      const view = await conversations.findView(userId, found.conversationId);
      const origin: ChatSwipeType = view?.matchSwipeType ?? 'like';
      if (swipeType === 'superlike' && origin !== 'superlike')
        throw badRequest(CHAT_MESSAGES.superlikeOnly, 'SUPERLIKE_ONLY');
      return updateOwn(userId, found.conversationId, { swipeType: swipeType === origin ? null : swipeType });
    },

    /**
     * Stores a message (trimmed, 1–2000 characters: the handlers' schemas) from a participant of an
     * active conversation. A repeated clientId answers the original message and stores nothing.
     */
    send(sender: Sender, input: SendInput): Promise<SendOutcome> {
      // Entered before any await: the lane's order is the order the sends arrived in.
      const conversationId = input.conversationId.toLowerCase();
      return lanes.run(`${sender.userId}:${conversationId}`, () => sendNow(sender, conversationId, input));
    },

    /**
     * After the sender has its acknowledgement: `newMessage` to every socket of the recipient and
     * to the sender's other sockets, the conversation's new state to both, the recipient's unread
     * count, then (off the caller's path) the recipient's notification. A repeat emits nothing.
     */
    announce(outcome: SendOutcome, options: { exceptSocketId?: string } = {}): void {
      if (!outcome.isNew) return;
      const { message } = outcome;
      if (outcome.groupMembers) {
        // A group's message: one broadcast to its members (the sending socket has its ack).
        realtime.emitToUser(outcome.groupMembers, CHAT_EVENTS.newMessage, message, {
          exceptSocketId: options.exceptSocketId,
        });
        if (outcome.groupHiddenFrom?.length) {
          realtime.emitToUser(outcome.groupHiddenFrom, CHAT_EVENTS.newMessage, hiddenCopy(message));
        }
        return;
      }
      const { conversationId, senderId } = message;
      const receiverId = message.receiverId as string;
      // The recipient's sockets and the sender's others: one payload, one broadcast.
      realtime.emitToUser([receiverId, senderId], CHAT_EVENTS.newMessage, message, {
        exceptSocketId: options.exceptSocketId,
      });
      const lastMessage = { text: message.text, timestamp: message.timestamp, senderId, read: false };
      const changed = { conversationId, lastMessage, updatedAt: message.timestamp, status: 'active' as const };
      realtime.emitToUser(receiverId, CHAT_EVENTS.conversationUpdated, {
        ...changed,
        unreadCount: outcome.receiverUnread,
      });
      realtime.emitToUser(senderId, CHAT_EVENTS.conversationUpdated, changed);
      realtime.emitToUser(receiverId, CHAT_EVENTS.unreadCountUpdated, {
        kind: 'messages',
        unreadCount: outcome.receiverTotalUnread,
        conversationId,
        conversationUnreadCount: outcome.receiverUnread,
      });
    },

    /** The recipient's client has them; the sender (only) hears `messagesDelivered`. */
    async markDelivered(userId: string, conversationId: string, messageIds?: readonly string[]): Promise<string[]> {
      if (await groupOf(conversationId)) {
        const group = await memberOfAny(userId, conversationId);
        return messages.markDelivered(group.conversationId, userId, messageIds, clock.now());
      }
      const found = await receiptAccess(userId, conversationId);
      // A block ends receipts too: neither side learns anything more of the other (docs/decisions/0012).
      if (found.status === 'blocked') return [];
      const delivered = await messages.markDelivered(found.conversationId, userId, messageIds, clock.now());
      if (delivered.length > 0) {
        realtime.emitToUser(found.otherUserId, CHAT_EVENTS.messagesDelivered, {
          conversationId: found.conversationId,
          messageIds: delivered,
          status: 'delivered',
        });
      }
      return delivered;
    },

    /**
     * The reader saw some messages, or the whole conversation (up to `upToMessageId` when given:
     * the newest message its screen showed): the sender hears `messagesRead`,
     * the reader's own sockets the new counts.
     */
    async markRead(
      userId: string,
      conversationId: string,
      messageIds?: readonly string[],
      upToMessageId?: string,
    ): Promise<ReadOutcome> {
      if (await groupOf(conversationId)) {
        const group = await memberOfAny(userId, conversationId);
        if (group.kind === 'group') return deps.groups.markRead(userId, group, messageIds, upToMessageId);
      }
      const found = await receiptAccess(userId, conversationId);
      const id = found.conversationId;
      const outcome = await messages.markRead(id, userId, messageIds, clock.now(), upToMessageId);
      if (outcome.messageIds.length > 0 && found.status !== 'blocked') {
        realtime.emitToUser(found.otherUserId, CHAT_EVENTS.messagesRead, {
          conversationId: id,
          messageIds: outcome.messageIds,
          unreadCount: outcome.conversationUnread,
          status: 'read',
        });
        realtime.emitToUser(userId, CHAT_EVENTS.unreadCountUpdated, {
          kind: 'messages',
          unreadCount: outcome.totalUnread,
          conversationId: id,
          conversationUnreadCount: outcome.conversationUnread,
        });
        realtime.emitToUser(userId, CHAT_EVENTS.conversationUpdated, {
          conversationId: id,
          unreadCount: outcome.conversationUnread,
        });
      }
      return {
        messageIds: outcome.messageIds,
        unreadCount: outcome.conversationUnread,
        totalUnread: outcome.totalUnread,
      };
    },

    async unreadCount(userId: string): Promise<number> {
      await conversations.ensureParticipants(userId, clock.now());
      return conversations.unreadTotal(userId);
    },

    /** Ends the conversation for both (docs/decisions/0009); both users' clients hear it. */
    async unmatch(userId: string, conversationId: string): Promise<ConversationResponse> {
      const found = await access(userId, conversationId);
      const id = found.conversationId;
      if (found.status === 'blocked') throw forbidden(CHAT_MESSAGES.cannotSend);
      const changed = await conversations.unmatch(id, userId, clock.now());
      const conversation = await summary(userId, id);
      if (changed) {
        await deps.bus.publish({ type: 'pair-ended', userIds: [userId, found.otherUserId], conversationIds: [id] });
        for (const participant of [userId, found.otherUserId]) {
          realtime.emitToUser(participant, CHAT_EVENTS.conversationUpdated, {
            conversationId: id,
            status: 'unmatched',
          });
        }
        // The one who ended it has it out of the list, so its unread messages no longer count.
        realtime.emitToUser(userId, CHAT_EVENTS.unreadCountUpdated, {
          kind: 'messages',
          unreadCount: await conversations.unreadTotal(userId),
        });
      }
      return { success: true, conversation };
    },

    /** `joinConversation`: only a participant may join its room (404 otherwise). */
    async join(userId: string, conversationId: string): Promise<string> {
      return (await memberOfAny(userId, conversationId)).conversationId;
    },

    /**
     * Relays typing to the other participant only, never stored, and volatile (ARCHITECTURE.md):
     * a socket that cannot take it at once loses it rather than getting it late. One packet per
     * socket, `userTyping` or (asked for) its alias `typing` (docs/decisions/0013); the client
     * repeats "typing" while the user types and the indicator expires by itself, so a lost packet
     * costs a moment of indicator, not a stuck one.
     */
    async typing(userId: string, input: TypingInput): Promise<void> {
      const any = await memberOfAny(userId, input.conversationId);
      if (any.kind === 'group') return deps.groups.typing(userId, any, input.isTyping);
      const found = any;
      if (!found.isLive) return;
      const event = { userId, conversationId: found.conversationId, isTyping: input.isTyping };
      realtime.emitToUser(otherOf(found, userId), CHAT_EVENTS.userTyping, event, { volatile: true });
    },

    /**
     * A new match (the swipes feature's events port), once per user: the participant rows and the
     * sync entry, the 'match' notification, and `conversationUpdated` with the new conversation.
     */
    async matched(userId: string, event: MatchEvent): Promise<void> {
      // A lookup of this id before the match existed may have cached "unknown" for a few seconds.
      deps.membership.forget(event.conversationId);
      await conversations.ensureConversation(event.conversationId, clock.now());
      const view = await conversations.findView(userId, event.conversationId);
      if (view) realtime.emitToUser(userId, CHAT_EVENTS.conversationUpdated, toSummary(view));
      await deps.notifier?.notifyMatch(userId, {
        conversationId: event.conversationId,
        otherName: event.otherUser.name,
        isSuperlike: event.swipeType === 'superlike',
      });
    },
  };
}
