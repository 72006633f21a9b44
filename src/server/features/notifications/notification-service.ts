// Long on purpose: notify and its shorthands share the store-emit-push path; the streak reminders ride on it.
import {
  NOTIFICATION_EVENT,
  type Notification,
  type NotificationListQuery,
  type NotificationListResponse,
  type NotificationPriority,
  NOTIFICATION_REMOVED_EVENT,
  type NotificationRemovedEvent,
  type NotificationType,
  UNREAD_COUNT_UPDATED_EVENT,
  type UnreadCountUpdatedEvent,
} from '#shared/notifications/notification-schemas';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { NOTIFICATION_MESSAGES } from '#shared/notifications/notification-messages';
import { isAppPath, type PushPayload, pushPreview } from '#shared/notifications/push-schemas';
import type { NotificationSwitch } from '#shared/settings/settings-schema';
import { madridDayKey } from '#shared/time/madrid-calendar';
import type { Clock } from '../../infra/clock.ts';
import { notFound } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type {
  NotificationGuard,
  NotificationRecord,
  NotificationRepository,
  StoredNotification,
} from './notification-repository.ts';

/** Where notification events go: the owner's sockets only (`user:<id>`), on every node. */
export type NotificationRealtime = {
  emitToUser(userId: string, event: string, payload: unknown): void;
};

/** A push for one user, handed to the push feature, which sends it off the request path. */
export type PushMessage = {
  payload: PushPayload;
  urgency: 'high' | 'normal' | 'low';
  ttlSeconds: number;
  /** The settings switch that must be on for this push; null: always pushed. */
  setting: NotificationSwitch | null;
  /**
   * False when the statement that stored the notification saw no push subscription of the user:
   * the push is dropped without reading anything. Undefined: not known, the push feature looks.
   */
  hasSubscription?: boolean;
};

/** A stored chat message whose notification is owed (the chat's delivery drain). */
export type OwedMessageNotice = {
  recipientId: string;
  messageId: string;
  conversationId: string;
  senderName: string;
  preview: string;
};

/** The push feature as notifications see it: fire and forget, never throws, never waits. */
export type PushPort = { deliver(userId: string, message: PushMessage): void };

export type NotifyInput = {
  type: NotificationType;
  priority?: NotificationPriority;
  title: string;
  body: string;
  referenceId?: string | null;
  referenceType?: string | null;
  /**
   * One unread notification per key and user (a conversation's messages): a new one updates it
   * instead of adding another. It also becomes the push `tag`, so pushes collapse alike.
   */
  collapseKey?: string;
  /** The body once N ≥ 2 notifications were collapsed; by default the latest body. */
  collapsedBody?: (count: number) => string;
  /** Where a click on the push goes (a path of the app); by default derived from type and reference. */
  url?: string;
  /** The settings switch that decides the push; by default derived from the type. */
  setting?: NotificationSwitch | null;
};

export type NotificationServiceDeps = {
  notifications: NotificationRepository;
  realtime: NotificationRealtime;
  push: PushPort;
  /** Reads the per-type switches (only the streak reminder needs them here). */
  settings: { get(userId: string): Promise<{ notifications: Record<NotificationSwitch, boolean> }> };
  clock: Clock;
  logger: Logger;
};

export type NotificationService = ReturnType<typeof createNotificationService>;

const HOUR_S = 3600;
/** Pushes stay queued at the push service this long when the device is offline. */
const PUSH_TTL_S: Record<NotificationType, number> = {
  message: 24 * HOUR_S,
  match: 72 * HOUR_S,
  reminder: 6 * HOUR_S,
  welcome: 24 * HOUR_S,
  system: 24 * HOUR_S,
  activity: 24 * HOUR_S,
};
const DEFAULT_SWITCH: Record<NotificationType, NotificationSwitch | null> = {
  message: 'messages',
  match: 'matches',
  reminder: 'trainingReminders',
  activity: 'achievements',
  welcome: null,
  system: null,
};

/** The streak reminder goes out from this Madrid hour on, to those whose streak ends at midnight. */
export const STREAK_REMINDER_HOUR = 18;
const STREAK_REMINDER_BATCH = 500;
/** Announcements of one batch between two turns of the event loop (`notifyMessagesOnce`). */
const ANNOUNCE_SLICE = 16;
const madridHour = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Madrid', hour: '2-digit', hourCycle: 'h23' });

export function toNotification(record: NotificationRecord): Notification {
  return {
    _id: record.id,
    type: record.type as NotificationType,
    priority: record.priority as NotificationPriority,
    title: record.title,
    body: record.body,
    isRead: record.isRead,
    createdAt: record.createdAt.toISOString(),
    referenceId: record.referenceId,
    referenceType: record.referenceType,
  };
}

/** Where a click on a notification's push goes (spec 001 §2: a message opens its conversation). */
export function notificationUrl(input: Pick<NotifyInput, 'type' | 'referenceId' | 'referenceType' | 'url'>): string {
  if (input.url && isAppPath(input.url)) return input.url;
  const isConversation = input.referenceType === 'conversation' && !!input.referenceId;
  if ((input.type === 'message' || input.type === 'match') && isConversation) {
    return `/messages/${encodeURIComponent(input.referenceId as string)}`;
  }
  if (input.type === 'match') return '/matches';
  return '/notifications';
}

/**
 * Stores notifications, tells the owner's sockets (`notification`, `unreadCountUpdated`) and
 * hands a push to the push feature. Other features call `notify` (or one of its shorthands).
 */
export function createNotificationService(deps: NotificationServiceDeps) {
  const { notifications, realtime, clock, logger } = deps;

  /** `known`: the count a write already read, so it is not read again. */
  const emitUnreadCount = async (userId: string, known?: number): Promise<number> => {
    const count = known ?? (await notifications.unreadCount(userId));
    const event: UnreadCountUpdatedEvent = { kind: 'notifications', count };
    realtime.emitToUser(userId, UNREAD_COUNT_UPDATED_EVENT, event);
    return count;
  };

  /** Gone on the server: the owner's open lists drop them (every node), then the count when it moved. */
  const announceRemoved = async (userId: string, ids: readonly string[], hasUnread: boolean): Promise<void> => {
    for (const id of ids) {
      realtime.emitToUser(userId, NOTIFICATION_REMOVED_EVENT, { _id: id } satisfies NotificationRemovedEvent);
    }
    if (hasUnread) await emitUnreadCount(userId);
  };

  const rowOf = (userId: string, input: NotifyInput) => ({
    userId,
    type: input.type,
    priority: input.priority ?? 'normal',
    title: input.title,
    body: input.body,
    referenceId: input.referenceId ?? null,
    referenceType: input.referenceType ?? null,
    collapseKey: input.collapseKey ?? null,
    createdAt: clock.now(),
  });
  const collapsedBodyOf = (input: NotifyInput) => (count: number) =>
    count >= 2 && input.collapsedBody ? input.collapsedBody(count) : input.body;

  /** After the write: the owner's sockets, the unread count, the push. */
  const announce = async (
    userId: string,
    input: NotifyInput,
    stored: Pick<StoredNotification, 'record'> & Partial<Omit<StoredNotification, 'record'>>,
    options: { isCountSent?: boolean } = {},
  ): Promise<Notification> => {
    const notification = toNotification(stored.record);
    realtime.emitToUser(userId, NOTIFICATION_EVENT, notification);
    // A batch's later notifications of one owner: the count (the batch's final one) went with the first.
    const unread =
      options.isCountSent && stored.unreadCount !== undefined
        ? stored.unreadCount
        : await emitUnreadCount(userId, stored.unreadCount);
    deps.push.deliver(userId, {
      payload: {
        type: input.type,
        title: pushPreview(notification.title, 80),
        body: pushPreview(notification.body),
        url: notificationUrl(input),
        tag: input.collapseKey ?? `notification:${notification._id}`,
        notificationId: notification._id,
        badgeCount: unread,
      },
      urgency: input.type === 'message' || input.type === 'match' ? 'high' : 'normal',
      ttlSeconds: PUSH_TTL_S[input.type],
      setting: input.setting === undefined ? DEFAULT_SWITCH[input.type] : input.setting,
      ...(stored.hasPushSubscription === undefined ? {} : { hasSubscription: stored.hasPushSubscription }),
    });
    return notification;
  };

  const notify = async (userId: string, input: NotifyInput): Promise<Notification> => {
    const row = rowOf(userId, input);
    const stored = input.collapseKey
      ? await notifications.upsertCollapsed({ ...row, collapseKey: input.collapseKey }, collapsedBodyOf(input))
      : await notifications.insert(row);
    if (!stored) throw new Error('notifications: a collapsing notification was not stored');
    return announce(userId, input, stored);
  };

  /** A new chat message's notification: one unread notification per conversation. */
  const messageInput = (message: { conversationId: string; senderName: string; preview: string }) =>
    ({
      type: 'message',
      priority: 'normal',
      title: NOTIFICATION_MESSAGES.messageTitle(message.senderName),
      body: pushPreview(message.preview),
      referenceId: message.conversationId,
      referenceType: 'conversation',
      collapseKey: `conversation:${message.conversationId}`,
      collapsedBody: (count) => NOTIFICATION_MESSAGES.messagesCollapsed(count, message.senderName),
    }) satisfies NotifyInput;

  const found = (record: NotificationRecord | undefined): NotificationRecord => {
    if (!record) throw notFound(NOTIFICATION_MESSAGES.notificationNotFound);
    return record;
  };

  return {
    notify,

    /** The welcome notification of a new account (the auth feature's `onUserRegistered` hook). */
    welcome(user: { userId: string; name: string }): Promise<Notification> {
      return notify(user.userId, {
        type: 'welcome',
        priority: 'normal',
        title: NOTIFICATION_MESSAGES.welcomeTitle,
        body: NOTIFICATION_MESSAGES.welcomeBody(user.name),
        url: '/home',
      });
    },

    /** A new chat message for its recipient: one unread notification per conversation. */
    notifyMessage(
      recipientId: string,
      message: { conversationId: string; senderName: string; preview: string },
    ): Promise<Notification> {
      return notify(recipientId, messageInput(message));
    },

    /**
     * New chat messages' notifications, exactly once per durable record (docs/decisions/0035, 0039),
     * a batch in one statement: one notification per recipient and conversation, counting up by
     * the messages still owed. `owed` is a data-modifying statement over the message ids that
     * returns those still owed (the chat moves its members' `notified_seq` past them); it runs inside the
     * notifications' own statement, so a record goes if and only if its count is stored. Then, per
     * notification stored, the owner's sockets get it and a push goes out; each owner's sockets get
     * the unread count once. Messages no longer owed (another drain, or a process before a crash,
     * did them) are neither counted nor announced. Within a conversation the batch is in message order.
     */
    async notifyMessagesOnce(
      messages: ReadonlyArray<{
        recipientId: string;
        messageId: string;
        conversationId: string;
        senderName: string;
        preview: string;
      }>,
      owed: NotificationGuard,
    ): Promise<Notification[]> {
      const groups = new Map<
        string,
        { input: NotifyInput & { collapseKey: string }; recipientId: string; keys: string[] }
      >();
      for (const message of messages) {
        const input = messageInput(message);
        const key = `${message.recipientId}:${input.collapseKey}`;
        const group = groups.get(key);
        // The latest message's texts win, as one notification per message in order would leave them.
        if (group) {
          group.input = input;
          group.keys.push(message.messageId);
        } else groups.set(key, { input, recipientId: message.recipientId, keys: [message.messageId] });
      }
      const list = [...groups.values()];
      const stored = await notifications.upsertOwed(
        list.map((group) => ({
          ...rowOf(group.recipientId, group.input),
          collapseKey: group.input.collapseKey,
          bodyFor: collapsedBodyOf(group.input),
          keys: group.keys,
        })),
        owed,
      );
      const inputOf = new Map(list.map((group) => [`${group.recipientId}:${group.input.collapseKey}`, group.input]));
      const announced: Notification[] = [];
      const counted = new Set<string>();
      for (const [index, one] of stored.entries()) {
        const userId = one.record.userId;
        const input = inputOf.get(`${userId}:${one.record.collapseKey}`);
        if (!input) continue;
        announced.push(await announce(userId, input, one, { isCountSent: counted.has(userId) }));
        counted.add(userId);
        // A large batch (a group's message is one per member) lets the sends waiting meanwhile go
        // first every few announcements, rather than holding the event loop until its last one.
        if (index % ANNOUNCE_SLICE === ANNOUNCE_SLICE - 1) await yieldToEventLoop();
      }
      return announced;
    },

    /** A new match ("entrenamiento"); a superlike match is gated by the `superlikes` switch. */
    notifyMatch(
      userId: string,
      match: { conversationId: string; otherName: string; isSuperlike?: boolean },
    ): Promise<Notification> {
      return notify(userId, {
        type: 'match',
        priority: 'high',
        title: NOTIFICATION_MESSAGES.matchTitle,
        body: NOTIFICATION_MESSAGES.matchBody(match.otherName),
        referenceId: match.conversationId,
        referenceType: 'conversation',
        setting: match.isSuperlike ? 'superlikes' : 'matches',
      });
    },

    /**
     * Someone gave the user a superlike that did not make a match (a match says it itself). It
     * names nobody: the swipe's id is the reference, so "Deshacer" can take it back (0023).
     */
    notifySuperlike(userId: string, superlike: { swipeId: string; referenceType: string }): Promise<Notification> {
      return notify(userId, {
        type: 'activity',
        priority: 'normal',
        title: NOTIFICATION_MESSAGES.superlikeTitle,
        body: NOTIFICATION_MESSAGES.superlikeBody,
        referenceId: superlike.swipeId,
        referenceType: superlike.referenceType,
        url: '/home',
        setting: 'superlikes',
      });
    },

    /**
     * Another feature deleted notifications of the user's (an undone superlike takes its
     * notification back): the user's sockets drop them from open lists, and get the new unread
     * count when unread ones went.
     */
    removed(userId: string, removed: { ids: readonly string[]; unread: number }): Promise<void> {
      return announceRemoved(userId, removed.ids, removed.unread > 0);
    },

    /** A notice from the product (maintenance, terms): always pushed. */
    notifySystem(
      userId: string,
      notice: { title: string; body: string; priority?: NotificationPriority; url?: string },
    ): Promise<Notification> {
      return notify(userId, { type: 'system', priority: notice.priority ?? 'normal', ...notice });
    },

    /** Something the user achieved or that happened around them; pushed under `achievements`. */
    notifyActivity(
      userId: string,
      notice: {
        title: string;
        body: string;
        priority?: NotificationPriority;
        referenceId?: string;
        referenceType?: string;
        url?: string;
      },
    ): Promise<Notification> {
      return notify(userId, { type: 'activity', priority: notice.priority ?? 'low', ...notice });
    },

    async list(userId: string, query: NotificationListQuery): Promise<NotificationListResponse> {
      const { page, limit } = query;
      const { rows, total } = await notifications.list(
        userId,
        { type: query.type, isRead: query.isRead },
        { offset: (page - 1) * limit, limit },
      );
      return {
        success: true,
        notifications: rows.map(toNotification),
        pagination: { page, limit, total, pages: Math.ceil(total / limit) },
      };
    },

    unreadCount: (userId: string) => notifications.unreadCount(userId),

    async setRead(userId: string, id: string, isRead: boolean): Promise<Notification> {
      const record = found(await notifications.setRead(userId, id, isRead));
      await emitUnreadCount(userId);
      return toNotification(record);
    },

    async markAllRead(userId: string): Promise<number> {
      const updated = await notifications.markAllRead(userId);
      await emitUnreadCount(userId);
      return updated;
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await notifications.remove(userId, id))) throw notFound(NOTIFICATION_MESSAGES.notificationNotFound);
      // The user's other devices drop it too.
      await announceRemoved(userId, [id], true);
    },

    /**
     * The daily streak reminder, called by the scheduler on every node: from STREAK_REMINDER_HOUR
     * (Madrid), each user whose last login was yesterday gets one "¡No pierdas tu racha!" a day.
     * The claim is per user and day in the database, so nodes never send it twice. Returns how
     * many were sent.
     */
    async sendStreakReminders(): Promise<number> {
      const now = clock.now();
      if (Number(madridHour.format(now)) < STREAK_REMINDER_HOUR) return 0;
      const today = madridDayKey(now);
      // From 18:00 on, 24 hours earlier is always yesterday evening in Madrid, DST or not.
      const yesterday = madridDayKey(now.getTime() - 24 * HOUR_S * 1000);
      let sent = 0;
      for (;;) {
        const candidates = await notifications.streakReminderCandidates(today, yesterday, STREAK_REMINDER_BATCH);
        for (const candidate of candidates) {
          if (!(await notifications.claimStreakReminder(candidate.userId, today))) continue;
          try {
            // A user who turned reminders off gets none at all: they exist only to nudge.
            const settings = await deps.settings.get(candidate.userId);
            if (!settings.notifications.trainingReminders) continue;
            await notify(candidate.userId, {
              type: 'reminder',
              priority: 'normal',
              title: NOTIFICATION_MESSAGES.streakReminderTitle,
              body: NOTIFICATION_MESSAGES.streakReminderBody(candidate.streak),
              collapseKey: 'streak-reminder',
              url: '/home',
            });
            sent += 1;
          } catch (error) {
            logger.warn({ err: error, userId: candidate.userId }, 'notifications: streak reminder failed');
          }
        }
        if (candidates.length < STREAK_REMINDER_BATCH) return sent;
      }
    },
  };
}
