import * as v from 'valibot';
import { NOTIFICATION_MESSAGES } from './notification-messages.ts';

/*
 * The notification calls and socket events (spec 001 §3 "Notification", §7). Request objects are
 * strict: an unknown field or query parameter is a 400 with a Spanish message.
 */

export const NOTIFICATION_TYPES = ['welcome', 'match', 'message', 'system', 'activity', 'reminder'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_PRIORITIES = ['high', 'normal', 'low'] as const;
export type NotificationPriority = (typeof NOTIFICATION_PRIORITIES)[number];

/** Spec 001 §9: "Notifications page size 20". */
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const NOTIFICATIONS_MAX_PAGE_SIZE = 100;
export const NOTIFICATION_TITLE_MAX_LENGTH = 120;
export const NOTIFICATION_BODY_MAX_LENGTH = 1000;
export const NOTIFICATION_REFERENCE_MAX_LENGTH = 100;

/** Socket events (spec 001 §7, "Received"). */
export const NOTIFICATION_EVENT = 'notification';
export const UNREAD_COUNT_UPDATED_EVENT = 'unreadCountUpdated';
/** Not in the spec: a notification is gone on the server, so open lists drop it without a reload. */
export const NOTIFICATION_REMOVED_EVENT = 'notificationRemoved';

/** What the list, the socket event and every mutation return for one notification. */
export type Notification = {
  _id: string;
  type: NotificationType;
  priority: NotificationPriority;
  title: string;
  body: string;
  isRead: boolean;
  /** ISO 8601; a collapsed message notification moves forward with each new message. */
  createdAt: string;
  referenceId: string | null;
  referenceType: string | null;
};

/**
 * `notificationRemoved`, to the owner's sockets on every node: deleted on another device, or taken
 * back by the server (an undone superlike, docs/decisions/0023). The count follows in its own
 * `unreadCountUpdated` when an unread one went.
 */
export type NotificationRemovedEvent = { _id: string };

/** `unreadCountUpdated`: `kind` tells it apart from the chat's unread-message counts. */
export type UnreadCountUpdatedEvent = { kind: 'notifications'; count: number };

const positiveIntegerText = (message: string, min: number, max: number) =>
  v.pipe(
    v.string(message),
    v.regex(/^\d{1,6}$/, message),
    v.transform(Number),
    v.integer(message),
    v.minValue(min, message),
    v.maxValue(max, message),
  );

/** `GET /api/notifications?page&limit&type&isRead` (query strings arrive as text). */
export const NotificationListQuerySchema = v.strictObject(
  {
    page: v.optional(positiveIntegerText(NOTIFICATION_MESSAGES.invalidPage, 1, 100_000), '1'),
    limit: v.optional(
      positiveIntegerText(NOTIFICATION_MESSAGES.invalidLimit, 1, NOTIFICATIONS_MAX_PAGE_SIZE),
      String(NOTIFICATIONS_PAGE_SIZE),
    ),
    type: v.optional(v.picklist(NOTIFICATION_TYPES, NOTIFICATION_MESSAGES.invalidType)),
    isRead: v.optional(
      v.pipe(
        v.picklist(['true', 'false'], NOTIFICATION_MESSAGES.invalidReadFilter),
        v.transform((value) => value === 'true'),
      ),
    ),
  },
  NOTIFICATION_MESSAGES.invalidQuery,
);
export type NotificationListQuery = v.InferOutput<typeof NotificationListQuerySchema>;

export type Pagination = { page: number; limit: number; total: number; pages: number };

export type NotificationListResponse = { success: true; notifications: Notification[]; pagination: Pagination };
export type UnreadCountResponse = { success: true; count: number };
export type NotificationResponse = { success: true; notification: Notification };
export type ReadAllResponse = { success: true; updated: number };
export type DeleteNotificationResponse = { success: true };

/** `POST /api/dev/notifications` (outside production only): a notification to oneself, to try the screens and push. */
export const DevNotificationRequestSchema = v.strictObject(
  {
    type: v.optional(v.picklist(NOTIFICATION_TYPES, NOTIFICATION_MESSAGES.invalidType), 'system'),
    priority: v.optional(v.picklist(NOTIFICATION_PRIORITIES, NOTIFICATION_MESSAGES.invalidType), 'normal'),
    title: v.pipe(
      v.string(NOTIFICATION_MESSAGES.invalidTitle),
      v.trim(),
      v.nonEmpty(NOTIFICATION_MESSAGES.invalidTitle),
      v.maxLength(NOTIFICATION_TITLE_MAX_LENGTH, NOTIFICATION_MESSAGES.invalidTitle),
    ),
    body: v.pipe(
      v.string(NOTIFICATION_MESSAGES.invalidBody),
      v.maxLength(NOTIFICATION_BODY_MAX_LENGTH, NOTIFICATION_MESSAGES.invalidBody),
    ),
    referenceId: v.optional(
      v.pipe(v.string(NOTIFICATION_MESSAGES.invalidBody), v.maxLength(NOTIFICATION_REFERENCE_MAX_LENGTH)),
    ),
    referenceType: v.optional(
      v.pipe(v.string(NOTIFICATION_MESSAGES.invalidBody), v.maxLength(NOTIFICATION_REFERENCE_MAX_LENGTH)),
    ),
    collapseKey: v.optional(
      v.pipe(v.string(NOTIFICATION_MESSAGES.invalidBody), v.maxLength(NOTIFICATION_REFERENCE_MAX_LENGTH)),
    ),
  },
  NOTIFICATION_MESSAGES.invalidBody,
);
export type DevNotificationRequest = v.InferOutput<typeof DevNotificationRequestSchema>;
