import { CHAT_MESSAGES } from '#shared/chat/chat-messages';
import {
  type GroupSummary,
  MESSAGE_SEND_LIMIT,
  MESSAGE_SEND_WINDOW_MS,
  type MessageListQuery,
  type MessageListResponse,
} from '#shared/chat/chat-schemas';
import { CHAT_EVENTS, type GroupUpdatedEvent } from '#shared/chat/socket-events';
import { SERVER_MESSAGES } from '#shared/messages';
import { badRequest, conflict, forbidden, notFound, tooManyRequests, unauthorized } from '../../errors.ts';
import type { Clock } from '../../infra/clock.ts';
import type { InvalidationBus } from '../../infra/invalidation-bus.ts';
import type { RateLimiter, RateLimitRule } from '../../infra/rate-limit.ts';
import type { SqlExecutor } from '../sync/change-log-repository.ts';
import { hiddenCopy, toChatMessage } from './chat-mapping.ts';
import type { ChatRealtime, ReadOutcome, Sender, SendInput, SendOutcome } from './chat-service.ts';
import type { GroupMembership, MembershipCache } from './conversation-membership.ts';
import type { ConversationRepository } from './conversation-repository.ts';
import type { GroupChange, GroupRepository, GroupView } from './group-repository.ts';
import type { MessageRepository } from './message-repository.ts';

/** The same per-user limit as a match's messages (one budget for both). */
const SEND_RULE: RateLimitRule = { name: 'chat-send', limit: MESSAGE_SEND_LIMIT, windowMs: MESSAGE_SEND_WINDOW_MS };

export function toGroupSummary(view: GroupView): GroupSummary {
  return {
    conversationId: view.conversationId,
    kind: 'group',
    title: view.title,
    ownerId: view.ownerId,
    status: view.status,
    isMuted: view.isMuted,
    unreadCount: view.unreadCount,
    lastSeq: view.lastSeq,
    updatedAt: view.updatedAt.toISOString(),
    lastMessage: view.lastMessage && {
      text: view.lastMessage.text,
      timestamp: view.lastMessage.at.toISOString(),
      senderId: view.lastMessage.senderId,
    },
    members: view.members,
  };
}

/** What a membership change tells: which change, about whom. */
export type GroupChangeNotice = { change: GroupUpdatedEvent['change']; userId?: string };

export type GroupChat = ReturnType<typeof createGroupChat>;

/**
 * Decides a member's «Salir» for a group another feature owns (an open session's chat: leaving it is
 * leaving the session, which removes the member from the group): true when it did (or when the caller
 * had already left: a replay answers as the first leave did), false for a group that is not its own
 * or a caller who never belonged to it (the chat then answers as for anyone else's group); throws the
 * refusal it has (a 4xx).
 */
export type GroupLeaveHandler = (
  userId: string,
  conversationId: string,
  clientId: string | undefined,
) => Promise<boolean>;

/**
 * Group conversations (issue 35, docs/decisions/0056) on the message model of decision 0041: the
 * membership calls the open-sessions feature makes, and the group side of the chat's calls
 * (send, pages, mark-read, typing, mute), which the chat service hands here for a group.
 */
export function createGroupChat(deps: {
  groups: GroupRepository;
  messages: MessageRepository;
  conversations: ConversationRepository;
  realtime: ChatRealtime;
  membership: MembershipCache;
  bus: InvalidationBus;
  limiter: RateLimiter;
  clock: Clock;
  onStored?: (conversationId: string) => void;
}) {
  const { groups, realtime, clock } = deps;
  const leaveHandlers: GroupLeaveHandler[] = [];

  /** The caller's group, from the database (reads never trust a cache): 404 unless a current member. */
  const view = async (userId: string, conversationId: string): Promise<GroupView> => {
    const [found] = await groups.views(userId, conversationId);
    if (!found) throw notFound(CHAT_MESSAGES.conversationNotFound);
    return found;
  };

  /**
   * Every node forgets the group's membership, then its members (and the one who is no longer
   * one) hear the change, each with the group as they now see it.
   */
  const announceChange = async (change: GroupChange, notice: GroupChangeNotice): Promise<void> => {
    if (!change.isChanged) return;
    await deps.bus.publish({ type: 'group-changed', conversationIds: [change.conversationId] });
    const base = { conversationId: change.conversationId, change: notice.change, userId: notice.userId };
    for (const member of change.members) {
      const [seen] = await groups.views(member, change.conversationId);
      realtime.emitToUser(member, CHAT_EVENTS.groupUpdated, {
        ...base,
        ...(seen ? { group: toGroupSummary(seen) } : {}),
      });
    }
    if (notice.userId && !change.members.includes(notice.userId)) {
      realtime.emitToUser(notice.userId, CHAT_EVENTS.groupUpdated, base);
    }
  };

  /** The reader's sockets hear their new group total (read on read: nothing is kept per message). */
  const emitGroupsUnread = async (userId: string, conversationId: string, conversationUnreadCount: number) => {
    realtime.emitToUser(userId, CHAT_EVENTS.unreadCountUpdated, {
      kind: 'groups',
      unreadCount: await groups.unreadTotal(userId),
      conversationId,
      conversationUnreadCount,
    });
  };

  /** Announced now when the call ran its own transaction; by `announceChange` after the caller's commits. */
  const finish = async (change: GroupChange, notice: GroupChangeNotice, executor: SqlExecutor | undefined) => {
    if (!executor) await announceChange(change, notice);
    return change;
  };

  return {
    announceChange,

    async createGroupConversation(
      input: { ownerId: string; title: string },
      executor?: SqlExecutor,
    ): Promise<{ conversationId: string }> {
      const title = input.title.trim();
      if (title.length === 0) throw badRequest(CHAT_MESSAGES.invalidEvent, 'VALIDATION');
      const conversationId = await groups.create({ ownerId: input.ownerId, title, now: clock.now() }, executor);
      // A lookup of this id before it existed may have cached "unknown" for a few seconds.
      if (!executor) await deps.bus.publish({ type: 'group-changed', conversationIds: [conversationId] });
      return { conversationId };
    },

    async addGroupMember(conversationId: string, userId: string, executor?: SqlExecutor): Promise<GroupChange> {
      const change = await groups.addMember(conversationId, userId, clock.now(), executor);
      if (!change) throw notFound(CHAT_MESSAGES.conversationNotFound);
      if (change === 'closed') throw forbidden(CHAT_MESSAGES.cannotSend);
      if (change === 'full') throw conflict(CHAT_MESSAGES.groupFull, 'GROUP_FULL');
      return finish(change, { change: 'member-added', userId }, executor);
    },

    async removeGroupMember(
      conversationId: string,
      userId: string,
      reason: 'left' | 'removed',
      executor?: SqlExecutor,
    ): Promise<GroupChange> {
      const change = await groups.removeMember(conversationId, userId, reason, clock.now(), executor);
      if (!change) throw notFound(CHAT_MESSAGES.conversationNotFound);
      return finish(change, { change: reason === 'left' ? 'member-left' : 'member-removed', userId }, executor);
    },

    async closeGroupConversation(conversationId: string, executor?: SqlExecutor): Promise<GroupChange> {
      const change = await groups.close(conversationId, clock.now(), executor);
      if (!change) throw notFound(CHAT_MESSAGES.conversationNotFound);
      return finish(change, { change: 'closed' }, executor);
    },

    /** `GET /api/groups`: the caller's groups. */
    async list(userId: string): Promise<GroupSummary[]> {
      return (await groups.views(userId)).map(toGroupSummary);
    },

    /** `GET /api/groups/unread-count`: the caller's unread group messages (muted groups left out). */
    unreadTotal: (userId: string): Promise<number> => groups.unreadTotal(userId),

    async get(userId: string, conversationId: string): Promise<GroupSummary> {
      return toGroupSummary(await view(userId, conversationId));
    },

    /**
     * The caller leaves (the chat screen's «Salir», through the outbox): the group's owning feature
     * decides first, as it knows who was a member, so a replay of an applied leave answers 200 again.
     */
    async leave(userId: string, conversationId: string, clientId?: string): Promise<void> {
      for (const handle of leaveHandlers) if (await handle(userId, conversationId, clientId)) return;
      await view(userId, conversationId);
      await this.removeGroupMember(conversationId, userId, 'left');
    },

    /** Registers who decides leaves of the groups it owns (open sessions, at start-up). */
    onLeave(handler: GroupLeaveHandler): void {
      leaveHandlers.push(handler);
    },

    /** A group message: one statement that re-checks the session, the membership and the state. */
    async send(sender: Sender, input: SendInput): Promise<SendOutcome> {
      const conversationId = input.conversationId.toLowerCase();
      // Not refused from memory: a member added on another node a moment ago may not be in this
      // node's cache yet; the statement checks the members on the row it locks.
      if (input.receiverId !== undefined) throw badRequest(CHAT_MESSAGES.invalidReceiver, 'VALIDATION');
      const limited = await deps.limiter.consumeQuickly({ rule: SEND_RULE, key: sender.userId });
      if (limited.isLimited)
        throw tooManyRequests(CHAT_MESSAGES.sendRateLimited, limited.retryAfterMs / 1000, 'RATE_LIMIT');
      const outcome = await groups.insert({
        conversationId,
        senderId: sender.userId,
        sessionId: sender.sessionId,
        text: input.text,
        clientId: input.clientId,
        now: clock.now(),
      });
      if (outcome.kind === 'revoked') throw unauthorized(SERVER_MESSAGES.invalidToken);
      if (outcome.kind === 'missing') {
        deps.membership.forget(conversationId);
        throw notFound(CHAT_MESSAGES.conversationNotFound);
      }
      if (outcome.kind === 'inactive') throw forbidden(CHAT_MESSAGES.cannotSend);
      const message = toChatMessage(outcome.message, outcome.sender);
      const quiet = {
        receiverUnread: 0,
        receiverTotalUnread: 0,
        isReceiverMuted: true,
        senderName: outcome.sender.name,
      };
      if (outcome.kind === 'repeat') return { message, isNew: false, ...quiet };
      deps.onStored?.(conversationId);
      // Members who blocked the sender get it without its text (docs/decisions/0056, session 17).
      const hidden = new Set(outcome.hiddenFrom);
      return {
        message: { ...message, readBy: 0 },
        isNew: true,
        ...quiet,
        groupMembers: outcome.members.filter((member) => !hidden.has(member)),
        ...(hidden.size > 0 ? { groupHiddenFrom: [...hidden] } : {}),
      };
    },

    /** A page of the group's messages, each with «Leído por N» (`readBy`). */
    async listMessages(userId: string, conversationId: string, query: MessageListQuery): Promise<MessageListResponse> {
      const found = await view(userId, conversationId);
      const { rows, hasMore } = await groups.list(found.conversationId, {
        before: query.before,
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
      });
      const people = new Map(found.members.map((member) => [member.userId, member]));
      const missing = rows.map((row) => row.senderId).filter((id) => !people.has(id));
      for (const [id, person] of await deps.conversations.findPeople(missing)) {
        people.set(id, { userId: id, ...person, readSeq: 0, deliveredSeq: 0 });
      }
      const blocked = await groups.blockedSenders(
        userId,
        rows.map((row) => row.senderId),
      );
      const list = rows.reverse().map((row) => {
        const message = {
          ...toChatMessage(row, people.get(row.senderId) ?? { name: '', photo: null }),
          readBy: row.readBy,
        };
        return blocked.has(row.senderId) ? hiddenCopy(message) : message;
      });
      return { success: true, messages: list, hasMore };
    },

    /** The reader's cursor moves; the group's other members hear it (`groupReceipt`). */
    async markRead(
      userId: string,
      group: GroupMembership,
      messageIds?: readonly string[],
      upToMessageId?: string,
    ): Promise<ReadOutcome> {
      const id = group.conversationId;
      const outcome = await deps.messages.markRead(id, userId, messageIds, clock.now(), upToMessageId);
      if (outcome.messageIds.length > 0) {
        const others = group.members.filter((member) => member !== userId);
        realtime.emitToUser(others, CHAT_EVENTS.groupReceipt, { conversationId: id, userId, readSeq: outcome.readSeq });
        realtime.emitToUser(userId, CHAT_EVENTS.groupReceipt, { conversationId: id, userId, readSeq: outcome.readSeq });
        await emitGroupsUnread(userId, id, outcome.conversationUnread);
      }
      return {
        messageIds: outcome.messageIds,
        unreadCount: outcome.conversationUnread,
        totalUnread: outcome.totalUnread,
      };
    },

    /** Who is typing, to the group's other members (volatile, as a match's). */
    typing(userId: string, group: GroupMembership, isTyping: boolean): void {
      if (!group.isLive) return;
      // Not to those who blocked the typist (their messages reach them without text: session 17).
      const blockers = group.blockedBy?.[userId] ?? [];
      const others = group.members.filter((member) => member !== userId && !blockers.includes(member));
      if (others.length === 0) return;
      const event = { userId, conversationId: group.conversationId, isTyping };
      realtime.emitToUser(others, CHAT_EVENTS.userTyping, event, { volatile: true });
    },

    /** Mute (per member): no notifications or pushes of this group for this member. */
    async setMuted(userId: string, conversationId: string, isMuted: boolean): Promise<GroupSummary> {
      const found = await view(userId, conversationId);
      await deps.conversations.updateParticipant(userId, found.conversationId, { isMuted }, clock.now());
      const summary = toGroupSummary(await view(userId, found.conversationId));
      // A muted group leaves the «Mensajes» total; the member's other devices follow.
      if (found.unreadCount > 0) await emitGroupsUnread(userId, found.conversationId, summary.unreadCount);
      return summary;
    },
  };
}
