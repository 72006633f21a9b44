/**
 * What the chat service takes and gives: the ports it reaches sockets and notifications through,
 * its dependencies, and the shapes of a send and a read (chat-service.ts holds the rules).
 */
import type { ChatMessage } from '#shared/chat/chat-schemas';
import type { ServerToClientEvents } from '#shared/chat/socket-events';
import type { Clock } from '../../infra/clock.ts';
import type { InvalidationBus } from '../../infra/invalidation-bus.ts';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import type { Logger } from '../../logger.ts';
import type { OwedMessageNotice } from '../notifications/index.ts';
import type { MembershipCache } from './conversation-membership.ts';
import type { ConversationRepository } from './conversation-repository.ts';
import type { OwedGuard } from './delivery-repository.ts';
import type { GroupChat } from './group-chat.ts';
import type { MessageRepository } from './message-repository.ts';

type EventName = keyof ServerToClientEvents;
type EventPayload<E extends EventName> = Parameters<ServerToClientEvents[E]>[0];

/** How the chat reaches sockets, without knowing Socket.IO (chat-socket.ts implements it). */
export type ChatRealtime = {
  /**
   * To every socket of the user (`user:<id>`, every node), but `exceptSocketId`. Several users
   * with one payload: one broadcast for all of them (one encoding, one Redis publish).
   */
  emitToUser<E extends EventName>(
    userId: string | readonly string[],
    event: E,
    payload: EventPayload<E>,
    /** `volatile`: dropped, not queued, by a socket that cannot take it at once (typing). */
    options?: { exceptSocketId?: string; volatile?: boolean },
  ): void;
  /** Whether the user has a visible client that joined `conversation:<id>`, on any node. */
  isViewing(userId: string, conversationId: string): Promise<boolean>;
};

/** The notifications feature as the chat sees it (app.ts passes its service). */
export type ChatNotifier = {
  /** Stores the messages' notifications (one statement) for the ids `owed`, run in it, returns. */
  notifyMessagesOnce(messages: readonly OwedMessageNotice[], owed: OwedGuard): Promise<unknown>;
  notifyMatch(
    userId: string,
    match: { conversationId: string; otherName: string; isSuperlike?: boolean },
  ): Promise<unknown>;
};

export type ChatServiceDeps = {
  conversations: ConversationRepository;
  messages: MessageRepository;
  realtime: ChatRealtime;
  /** Absent: no notifications (tests of the chat alone). */
  notifier?: ChatNotifier;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** Conversations' users and liveness in memory (docs/decisions/0018 §5). */
  membership: MembershipCache;
  /** Where an unmatch tells every node (`pair-ended`). */
  bus: InvalidationBus;
  /** A message of this conversation was stored: its notification is owed (the delivery drain's dirty set). */
  onStored?: (conversationId: string) => void;
  /** Group conversations (docs/decisions/0056): the calls below hand a group's work to it. */
  groups: GroupChat;
};

/** Who sends: the user and the session whose row the message's statement re-checks. */
export type Sender = { userId: string; sessionId: string };

export type SendInput = {
  conversationId: string;
  text: string;
  clientId?: string;
  receiverId?: string;
  /** No receiver was named where the spec needs one: only a group's message is valid (HTTP). */
  isGroupOnly?: boolean;
};

/** A stored (or replayed) message, ready to be acknowledged and then announced. */
export type SendOutcome = {
  message: ChatMessage;
  /** False for a repeated clientId: nothing was stored and nothing will be emitted. */
  isNew: boolean;
  receiverUnread: number;
  receiverTotalUnread: number;
  isReceiverMuted: boolean;
  senderName: string;
  /** A group's message: its members (who hear `newMessage`); absent for a match. */
  groupMembers?: readonly string[];
  /** A group's members who blocked the sender: they hear `newMessage` without its text. */
  groupHiddenFrom?: readonly string[];
};

export type ReadOutcome = { messageIds: string[]; unreadCount: number; totalUnread: number };
