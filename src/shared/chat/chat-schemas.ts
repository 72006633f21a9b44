/**
 * The chat's HTTP calls (spec 001 §7 "List conversations" … "Unread message count", plus unmatch
 * and sync: docs/decisions/0009, 0010). Requests are strict (an unknown key is a 400 with a
 * Spanish message); responses are exactly these shapes.
 */
import * as v from 'valibot';
import { CHAT_MESSAGES } from './chat-messages.ts';

/** Spec 001 §9: conversations page size 20 (the chat screen asks 100, the list screen 10). */
export const CONVERSATIONS_PAGE_SIZE = 20;
/** Spec 001 §9: messages page size 50. */
export const MESSAGES_PAGE_SIZE = 50;
export const CHAT_MAX_PAGE_SIZE = 100;
export const MESSAGE_MAX_LENGTH = 2000;
export const SYNC_PAGE_SIZE = 200;
export const SYNC_MAX_PAGE_SIZE = 500;
/** Sends per user and window (every node shares the count). */
export const MESSAGE_SEND_LIMIT = 30;
export const MESSAGE_SEND_WINDOW_MS = 10_000;

export const CONVERSATION_STATUSES = ['active', 'unmatched', 'blocked'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export const CHAT_SWIPE_TYPES = ['like', 'superlike'] as const;
export type ChatSwipeType = (typeof CHAT_SWIPE_TYPES)[number];
/** What the server stores; `sending` and `error` (spec 001 §3) exist only on the client. */
export type StoredMessageStatus = 'sent' | 'delivered' | 'read';
export type MessageStatus = 'sending' | StoredMessageStatus | 'error';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A conversation, message or user id: a UUID, lower-cased. */
export const idSchema = (message: string) =>
  v.pipe(
    v.string(message),
    v.maxLength(36, message),
    v.regex(UUID_PATTERN, message),
    v.transform((value) => value.toLowerCase()),
  );
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);

/** The outbox's idempotency key, as swipes take it. */
export const ClientIdSchema = v.pipe(
  v.string(CHAT_MESSAGES.invalidClientId),
  v.regex(/^[A-Za-z0-9_-]{1,64}$/, CHAT_MESSAGES.invalidClientId),
);

/** Trimmed, not blank, at most 2000 characters (spec 001 §5). */
export const MessageTextSchema = v.pipe(
  v.string(CHAT_MESSAGES.invalidMessage),
  v.trim(),
  v.nonEmpty(CHAT_MESSAGES.emptyMessage),
  v.maxLength(MESSAGE_MAX_LENGTH, CHAT_MESSAGES.messageTooLong),
);

const queryInteger = (message: string, min: number, max: number) =>
  v.pipe(
    v.string(message),
    v.regex(/^\d{1,9}$/, message),
    v.transform(Number),
    v.integer(message),
    v.minValue(min, message),
    v.maxValue(max, message),
  );
const queryBoolean = (message: string) =>
  v.pipe(
    v.picklist(['true', 'false'], message),
    v.transform((value) => value === 'true'),
  );

/** `GET /api/messages/conversations?page&limit&archived`. */
export const ConversationListQuerySchema = v.strictObject(
  {
    page: v.optional(queryInteger(CHAT_MESSAGES.invalidPage, 1, 100_000), '1'),
    limit: v.optional(queryInteger(CHAT_MESSAGES.invalidLimit, 1, CHAT_MAX_PAGE_SIZE), String(CONVERSATIONS_PAGE_SIZE)),
    archived: v.optional(queryBoolean(CHAT_MESSAGES.invalidArchivedFilter), 'false'),
  },
  CHAT_MESSAGES.invalidQuery,
);
export type ConversationListQuery = v.InferOutput<typeof ConversationListQuerySchema>;

/** `GET /api/messages/conversations/{id}/messages?page&limit&before`: page 1 is the newest. */
export const MessageListQuerySchema = v.strictObject(
  {
    page: v.optional(queryInteger(CHAT_MESSAGES.invalidPage, 1, 100_000), '1'),
    limit: v.optional(queryInteger(CHAT_MESSAGES.invalidLimit, 1, CHAT_MAX_PAGE_SIZE), String(MESSAGES_PAGE_SIZE)),
    /** Keyset: the messages before this seq (then `page` is ignored). */
    before: v.optional(queryInteger(CHAT_MESSAGES.invalidBefore, 1, 2_000_000_000)),
  },
  CHAT_MESSAGES.invalidQuery,
);
export type MessageListQuery = v.InferOutput<typeof MessageListQuerySchema>;

export const PinRequestSchema = v.strictObject(
  { isPinned: v.boolean(CHAT_MESSAGES.invalidPin) },
  CHAT_MESSAGES.invalidPin,
);
export const MuteRequestSchema = v.strictObject(
  { isMuted: v.boolean(CHAT_MESSAGES.invalidMute) },
  CHAT_MESSAGES.invalidMute,
);
/** The spec sends `{}` (archive); `{ archived: false }` brings it back. */
export const ArchiveRequestSchema = v.strictObject(
  { archived: v.optional(v.boolean(CHAT_MESSAGES.invalidArchive), true) },
  CHAT_MESSAGES.invalidArchive,
);
export const SwipeTypeRequestSchema = v.strictObject(
  { swipeType: v.picklist(CHAT_SWIPE_TYPES, CHAT_MESSAGES.invalidSwipeType) },
  CHAT_MESSAGES.invalidSwipeType,
);
/**
 * `PATCH …/read`: the spec sends no body (the whole conversation). The app sends the newest message
 * it showed, so a mark replayed late from the outbox never reads what arrived after (decision 0040).
 */
export const MarkReadRequestSchema = v.strictObject(
  { upToMessageId: v.optional(idSchema(CHAT_MESSAGES.invalidUpToMessage)) },
  CHAT_MESSAGES.invalidUpToMessage,
);
export type MarkReadRequest = v.InferOutput<typeof MarkReadRequestSchema>;
export type PinRequest = v.InferOutput<typeof PinRequestSchema>;
export type MuteRequest = v.InferOutput<typeof MuteRequestSchema>;
export type ArchiveRequest = v.InferOutput<typeof ArchiveRequestSchema>;
export type SwipeTypeRequest = v.InferOutput<typeof SwipeTypeRequestSchema>;

/** `POST /api/messages/messages`. */
export const SendMessageRequestSchema = v.strictObject(
  {
    conversationId: idSchema(CHAT_MESSAGES.invalidConversation),
    receiverId: idSchema(CHAT_MESSAGES.invalidReceiver),
    text: MessageTextSchema,
    clientId: v.optional(ClientIdSchema),
  },
  CHAT_MESSAGES.invalidMessage,
);
export type SendMessageRequest = v.InferOutput<typeof SendMessageRequestSchema>;
/** `POST /api/messages` to a group (docs/decisions/0056): no receiver; a match's still needs one. */
/**
 * `POST /api/groups/:id/leave`: no body, or the outbox's clientId (a replay of a leave the server
 * applied answers as the first did, docs/decisions/0056).
 */
export const GroupLeaveRequestSchema = v.optional(
  v.strictObject({ clientId: v.optional(ClientIdSchema) }, CHAT_MESSAGES.invalidLeave),
  {},
);

export const GroupSendMessageRequestSchema = v.strictObject(
  {
    conversationId: idSchema(CHAT_MESSAGES.invalidConversation),
    text: MessageTextSchema,
    clientId: v.optional(ClientIdSchema),
  },
  CHAT_MESSAGES.invalidMessage,
);

/**
 * `GET /api/sync?since&limit`: `since` is the cursor of the previous answer (absent: from the
 * start), opaque to the client: a transaction horizon, or `<from>.<to>.<offset>` while an answer
 * continues on more pages (docs/decisions/0041).
 */
export const SyncQuerySchema = v.strictObject(
  {
    since: v.optional(
      v.pipe(
        v.string(CHAT_MESSAGES.invalidCursor),
        v.regex(/^\d{1,20}(\.\d{1,20}\.\d{1,9})?$/, CHAT_MESSAGES.invalidCursor),
      ),
      '0',
    ),
    limit: v.optional(queryInteger(CHAT_MESSAGES.invalidLimit, 1, SYNC_MAX_PAGE_SIZE), String(SYNC_PAGE_SIZE)),
  },
  CHAT_MESSAGES.invalidQuery,
);
export type SyncQuery = v.InferOutput<typeof SyncQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Responses

export type ChatOtherUser = { userId: string; name: string; photo: string | null };
export type LastMessage = { text: string; timestamp: string; senderId: string; read: boolean };

/** Spec 001 §3 "Conversation", plus its `status` (docs/decisions/0009). */
export type ConversationSummary = {
  conversationId: string;
  otherUser: ChatOtherUser;
  lastMessage: LastMessage | null;
  updatedAt: string;
  isPinned: boolean;
  isMuted: boolean;
  archived: boolean;
  swipeType: ChatSwipeType;
  unreadCount: number;
  status: ConversationStatus;
  /**
   * The other member's read and delivered cursors (docs/decisions/0041): the caller's messages up
   * to these seqs are read / delivered. Optional: added to the spec's shape for the sync.
   */
  readSeq?: number;
  deliveredSeq?: number;
};

/** Spec 001 §3 "Message", plus the server's `seq` and the sender's `clientId`. */
export type ChatMessage = {
  _id: string;
  conversationId: string;
  sender_id: string;
  senderId: string;
  /** The other member; null in a group conversation (docs/decisions/0056), never in the spec's. */
  receiverId: string | null;
  text: string;
  timestamp: string;
  read: boolean;
  status: StoredMessageStatus;
  seq: number;
  clientId: string | null;
  senderName: string;
  senderPhoto: string | null;
  /** A group's message only: how many of the sender's fellow members read it («Leído por N»). */
  readBy?: number;
  /**
   * A group's message from someone the reader blocked: its text is left out (empty) and the
   * thread shows that a message is hidden (docs/decisions/0056, amendment of session 17).
   */
  isHidden?: true;
};

export type ChatPagination = { page: number; limit: number; total: number; hasMore: boolean };
export type ConversationListResponse = {
  success: true;
  conversations: ConversationSummary[];
  pagination: ChatPagination;
};
export type MessageListResponse = { success: true; messages: ChatMessage[]; hasMore: boolean };
export type ConversationResponse = { success: true; conversation: ConversationSummary };

/**
 * A group conversation's member (docs/decisions/0056): its read and delivered cursors tell the
 * others' clients «Leído por N» (a message is read by the members whose `readSeq` reaches its seq).
 */
export type GroupMember = { userId: string; name: string; photo: string | null; readSeq: number; deliveredSeq: number };

/** A group conversation as one member sees it (not in the spec's lists: docs/decisions/0056). */
export type GroupSummary = {
  conversationId: string;
  kind: 'group';
  title: string;
  ownerId: string | null;
  /** closed: read-only (its session ended or was cancelled). */
  status: 'active' | 'closed';
  isMuted: boolean;
  unreadCount: number;
  lastSeq: number;
  updatedAt: string;
  lastMessage: { text: string; timestamp: string; senderId: string } | null;
  members: GroupMember[];
};
export type GroupListResponse = { success: true; groups: GroupSummary[] };
/** `GET /api/groups/unread-count`: unread messages in the caller's groups, muted ones left out. */
export type GroupUnreadCountResponse = { success: true; unreadCount: number };
export type GroupResponse = { success: true; group: GroupSummary };
/** 201 for a new message, 200 for a repeat of the same clientId (the original message). */
export type SendMessageResponse = { success: true; data: ChatMessage };
export type MarkReadResponse = { success: true; unreadCount: number };
export type ChatUnreadCountResponse = { success: true; unreadCount: number };

/**
 * `GET /api/sync`: each entity that changed for the caller since `since`, at most once per page,
 * in its current state; `cursor` is the next `since`. More kinds join as features add them.
 */
export type SyncResponse = {
  success: true;
  cursor: string;
  hasMore: boolean;
  conversations: ConversationSummary[];
  /** Conversations the caller no longer lists (ended by the caller): drop them locally. */
  removedConversationIds: string[];
  /** The matches' messages and the groups' (decision 0056, session 17: a group's name no receiver). */
  messages: ChatMessage[];
  /** The caller's groups that changed (on an answer's first page). */
  groups: GroupSummary[];
  /** Groups the caller left or was removed from: drop them locally. */
  removedGroupIds: string[];
};
