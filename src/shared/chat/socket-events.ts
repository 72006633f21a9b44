/**
 * The real-time contract (spec 001 §7 "Real-time socket"), as Socket.IO event maps: the server
 * types its `Server<ClientToServerEvents, ServerToClientEvents>` with them and the client its
 * `Socket<ServerToClientEvents, ClientToServerEvents>`. Payloads that arrive from a client have a
 * valibot schema; the server drops (or acks an error for) anything that does not parse. Payload
 * objects are not strict: unknown keys are stripped, so an older or newer client still works.
 */
import * as v from 'valibot';
import type { TokenInvalidatedEvent } from '../auth/auth-schemas.ts';
import type { MatchEvent } from '../discovery/discovery-schemas.ts';
import type {
  Notification,
  NotificationRemovedEvent,
  UnreadCountUpdatedEvent as NotificationUnreadEvent,
} from '../notifications/notification-schemas.ts';
import type { OpenSessionUpdatedEvent } from '../open-sessions/open-session-schemas.ts';
import type { QuedadaUpdatedEvent } from '../quedadas/quedada-schemas.ts';
import { CHAT_MESSAGES } from './chat-messages.ts';
import {
  type ChatMessage,
  type ChatSwipeType,
  ClientIdSchema,
  type ConversationStatus,
  type ConversationSummary,
  type GroupSummary,
  idSchema,
  MessageTextSchema,
} from './chat-schemas.ts';

const conversationId = idSchema(CHAT_MESSAGES.invalidConversation);
/** A receipt names at most this many messages at once. */
export const RECEIPT_MAX_IDS = 500;
const messageIds = v.pipe(
  v.array(idSchema(CHAT_MESSAGES.invalidEvent), CHAT_MESSAGES.invalidEvent),
  v.maxLength(RECEIPT_MAX_IDS, CHAT_MESSAGES.invalidEvent),
);

// ---------------------------------------------------------------------------------------------
// Client → server

export const ConversationRefSchema = v.object({ conversationId }, CHAT_MESSAGES.invalidEvent);
export type ConversationRef = v.InferOutput<typeof ConversationRefSchema>;

/** `sendMessage`: the same rules as `POST /api/messages/messages`; `receiverId` may be left out. */
export const SendMessageEventSchema = v.object(
  {
    conversationId,
    text: MessageTextSchema,
    clientId: v.optional(ClientIdSchema),
    receiverId: v.optional(idSchema(CHAT_MESSAGES.invalidReceiver)),
  },
  CHAT_MESSAGES.invalidEvent,
);
export type SendMessageEvent = v.InferOutput<typeof SendMessageEventSchema>;

/** `messageReceived`: the recipient's client got one message. */
export const MessageReceivedEventSchema = v.object(
  { conversationId, messageId: idSchema(CHAT_MESSAGES.invalidEvent) },
  CHAT_MESSAGES.invalidEvent,
);
export type MessageReceivedEvent = v.InferOutput<typeof MessageReceivedEventSchema>;

/** `markAsDelivered`: every message to the caller in the conversation (or just `messageIds`). */
export const MarkAsDeliveredEventSchema = v.object(
  { conversationId, messageIds: v.optional(messageIds) },
  CHAT_MESSAGES.invalidEvent,
);
export type MarkAsDeliveredEvent = v.InferOutput<typeof MarkAsDeliveredEventSchema>;

/** `markMessagesRead`: some messages, or (`updateType: 'markRead'`) the whole conversation. */
export const MarkMessagesReadEventSchema = v.union(
  [
    v.object({ conversationId, messageIds }),
    v.object({
      conversationId,
      updateType: v.literal('markRead'),
      unreadCount: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    }),
  ],
  CHAT_MESSAGES.invalidEvent,
);
export type MarkMessagesReadEvent = v.InferOutput<typeof MarkMessagesReadEventSchema>;

/** `typing`: relayed to the other participant only, never stored. */
export const TypingEventSchema = v.object(
  { conversationId, isTyping: v.boolean(CHAT_MESSAGES.invalidEvent) },
  CHAT_MESSAGES.invalidEvent,
);
export type TypingInput = v.InferOutput<typeof TypingEventSchema>;

/** Every acknowledgement: `ok`, or a Spanish `message` (and the HTTP-like status it maps to). */
export type SocketAck<T extends object = object> =
  | ({ ok: true } & T)
  | { ok: false; message: string; status: number; errorType?: string };

export interface ClientToServerEvents {
  joinConversation: (payload: ConversationRef, ack?: (result: SocketAck) => void) => void;
  leaveConversation: (payload: ConversationRef, ack?: (result: SocketAck) => void) => void;
  /** The ack carries the stored message (id, seq) once it is committed; a repeated clientId acks the original. */
  sendMessage: (payload: SendMessageEvent, ack?: (result: SocketAck<{ data: ChatMessage }>) => void) => void;
  messageReceived: (payload: MessageReceivedEvent, ack?: (result: SocketAck<{ messageIds: string[] }>) => void) => void;
  markAsDelivered: (payload: MarkAsDeliveredEvent, ack?: (result: SocketAck<{ messageIds: string[] }>) => void) => void;
  markMessagesRead: (
    payload: MarkMessagesReadEvent,
    /** `unreadCount`: left in this conversation; `totalUnread`: in all of the reader's conversations. */
    ack?: (result: SocketAck<{ messageIds: string[]; unreadCount: number; totalUnread: number }>) => void,
  ) => void;
  typing: (payload: TypingInput) => void;
  /** The notifications feature's presence (docs/decisions/0007). */
  'presence:visible': (ack?: () => void) => void;
  'presence:hidden': (ack?: () => void) => void;
}

// ---------------------------------------------------------------------------------------------
// Server → client

export const CHAT_EVENTS = {
  newMessage: 'newMessage',
  conversationUpdated: 'conversationUpdated',
  unreadCountUpdated: 'unreadCountUpdated',
  messagesDelivered: 'messagesDelivered',
  messagesRead: 'messagesRead',
  userTyping: 'userTyping',
  groupReceipt: 'groupReceipt',
  groupUpdated: 'groupUpdated',
} as const;

/**
 * Spec 001 §7 names three received events twice: `newMessage` "also seen as `message`",
 * `userTyping` and `typing`, `conversationUpdated` and `conversationsUpdated`. Each pair is one
 * event under two names, with one payload (docs/decisions/0013): the server sends a socket
 * exactly one of the two, the canonical name unless the socket asked for the aliases at connect
 * (`SocketHandshakeAuth.eventAliases`), and a client treats both names alike.
 */
export const CHAT_EVENT_ALIASES = {
  message: 'newMessage',
  typing: 'userTyping',
  conversationsUpdated: 'conversationUpdated',
} as const satisfies Record<string, keyof typeof CHAT_EVENTS>;
export type ChatEventAlias = keyof typeof CHAT_EVENT_ALIASES;
export type AliasedChatEvent = (typeof CHAT_EVENT_ALIASES)[ChatEventAlias];

/** The alias of a canonical event name, if it has one. */
export function aliasOf(event: string): ChatEventAlias | undefined {
  for (const [alias, canonical] of Object.entries(CHAT_EVENT_ALIASES)) {
    if (canonical === event) return alias as ChatEventAlias;
  }
  return undefined;
}

/** The canonical name of a received event (itself when it is no alias). */
export function canonicalEventName(event: string): string {
  return Object.hasOwn(CHAT_EVENT_ALIASES, event) ? CHAT_EVENT_ALIASES[event as ChatEventAlias] : event;
}

/** What a client may put in the Socket.IO handshake's `auth`. */
export type SocketHandshakeAuth = {
  /** The session token (or the Authorization header). */
  token?: string;
  /** Whether the page is on screen (notifications presence, docs/decisions/0007). */
  visible?: boolean;
  /** True: this socket gets `message`, `typing` and `conversationsUpdated` instead of their canonical names. */
  eventAliases?: boolean;
};

/** Spec 001 §3 "Typing event". */
export type TypingEvent = { userId: string; conversationId: string; isTyping: boolean };
export type MessagesDeliveredEvent = { conversationId: string; messageIds: string[]; status: 'delivered' };
/** Spec 001 §3 "Read event": `unreadCount` is the reader's count left in the conversation. */
export type MessagesReadEvent = { conversationId: string; messageIds: string[]; unreadCount: number; status: 'read' };
/** The conversation fields that changed (all of them when `conversation` is a new one). */
export type ConversationUpdatedEvent = { conversationId: string; status?: ConversationStatus } & Partial<
  Omit<ConversationSummary, 'conversationId' | 'status'>
> & { swipeType?: ChatSwipeType };
/** The chat's count: the user's unread messages in all conversations (and in the one that changed). */
/**
 * The reader's unread message counts: `messages` for the matches' conversations (the spec's
 * total), `groups` for the groups they have not muted (decision 0056, amended in session 17).
 */
export type ChatUnreadCountUpdatedEvent = {
  kind: 'messages' | 'groups';
  unreadCount: number;
  conversationId?: string;
  conversationUnreadCount?: number;
};
export type UnreadCountUpdatedEvent = ChatUnreadCountUpdatedEvent | NotificationUnreadEvent;

export interface ServerToClientEvents {
  /** To every socket of the recipient and the sender's other sockets (the sending one gets the ack). */
  newMessage: (message: ChatMessage) => void;
  conversationUpdated: (event: ConversationUpdatedEvent) => void;
  unreadCountUpdated: (event: UnreadCountUpdatedEvent) => void;
  /** To the sender only. */
  messagesDelivered: (event: MessagesDeliveredEvent) => void;
  /** To the sender only. */
  messagesRead: (event: MessagesReadEvent) => void;
  /** Volatile: dropped rather than queued when the socket cannot take it at once. */
  userTyping: (event: TypingEvent) => void;
  /** The aliases (CHAT_EVENT_ALIASES), only to sockets that asked for them. */
  message: (message: ChatMessage) => void;
  typing: (event: TypingEvent) => void;
  conversationsUpdated: (event: ConversationUpdatedEvent) => void;
  /** The notifications feature. */
  notification: (notification: Notification) => void;
  notificationRemoved: (event: NotificationRemovedEvent) => void;
  /** The swipes feature: a new match ("entrenamiento"). */
  match: (event: MatchEvent) => void;
  /** The quedadas feature (issue #21): a quedada's new state, to both members. */
  quedadaUpdated: (event: QuedadaUpdatedEvent) => void;
  /** Open sessions (issue #35): a session the user hosts or joined changed; the client refetches it. */
  openSessionUpdated: (event: OpenSessionUpdatedEvent) => void;
  /** Auth: the session ended; the client signs out. */
  token_invalidated: (event: TokenInvalidatedEvent) => void;
  /** A group member read up to `readSeq` (to the group's other members): «Leído por N». */
  groupReceipt: (event: GroupReceiptEvent) => void;
  /** A group's members or state changed (to its members, and to the one who left or was removed). */
  groupUpdated: (event: GroupUpdatedEvent) => void;
}

export type GroupReceiptEvent = { conversationId: string; userId: string; readSeq: number };
export type GroupUpdatedEvent = {
  conversationId: string;
  change: 'member-added' | 'member-left' | 'member-removed' | 'closed';
  /** The member added, gone or removed. */
  userId?: string;
  /** The group after the change (absent for the one who is no longer a member). */
  group?: GroupSummary;
};
