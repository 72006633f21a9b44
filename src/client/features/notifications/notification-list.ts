/** Pure rules of the notification list (spec 001 §2, §4, §9), kept apart from the store for tests. */
import type { Notification, NotificationType } from '#shared/notifications/notification-schemas';
import { notificationDateText, notificationRelativeTime } from '#shared/time/relative-time';

/** Spec 001 §9: "bodies truncated at 100 characters". */
export const NOTIFICATION_BODY_PREVIEW_LENGTH = 100;

export type NotificationFilter = 'all' | NotificationType;

/** The filter chips of spec 001 §2, in order. */
export const NOTIFICATION_FILTERS: ReadonlyArray<{ value: NotificationFilter; label: string }> = [
  { value: 'all', label: 'Todas' },
  { value: 'welcome', label: 'Bienvenida' },
  { value: 'match', label: 'Matches' },
  { value: 'message', label: 'Mensajes' },
  { value: 'system', label: 'Sistema' },
  { value: 'activity', label: 'Actividad' },
  { value: 'reminder', label: 'Recordatorios' },
];

/**
 * The time line of a card: the date text of spec 001 §2 ("Hoy a las 09:05") and the notification
 * relative time of §9 ("Hace un momento", "Hace 5 minutos"…), once when both say the same (a long
 * date after 6 days).
 */
export function notificationTimeLine(createdAt: string, now: Date): string {
  const date = notificationDateText(createdAt, now);
  const relative = notificationRelativeTime(createdAt, now);
  return relative === '' || relative === date ? date : `${date} · ${relative}`;
}

/** Whether a body needs "Ver más": longer than the preview. */
export function isBodyLong(body: string): boolean {
  return body.length > NOTIFICATION_BODY_PREVIEW_LENGTH;
}

/** The body as the card shows it when collapsed: the first 100 characters plus "...". */
export function previewBody(body: string): string {
  return isBodyLong(body) ? `${body.slice(0, NOTIFICATION_BODY_PREVIEW_LENGTH)}...` : body;
}

/** Whether a notification belongs in the list under the active filter. */
export function matchesFilter(notification: Pick<Notification, 'type'>, filter: NotificationFilter): boolean {
  return filter === 'all' || notification.type === filter;
}

/**
 * Puts a live notification in the list (spec 001 §4): at the top, or in place of the one with the
 * same `_id` (a collapsed message notification is re-sent with its id), which then moves to the
 * top because it is newer. Returns the new list and whether it was already there.
 */
export function upsertNotification(
  list: readonly Notification[],
  incoming: Notification,
): { list: Notification[]; previous: Notification | undefined } {
  const previous = list.find((item) => item._id === incoming._id);
  return { list: [incoming, ...list.filter((item) => item._id !== incoming._id)], previous };
}

/**
 * Appends a further page, skipping notifications already shown (a live one may have shifted the
 * server's pages by one).
 */
export function appendPage(list: readonly Notification[], page: readonly Notification[]): Notification[] {
  const known = new Set(list.map((item) => item._id));
  return [...list, ...page.filter((item) => !known.has(item._id))];
}

/** How an unread count moves when a live notification arrives, given the one it replaces. */
export function unreadDelta(incoming: Pick<Notification, 'isRead'>, previous?: Pick<Notification, 'isRead'>): number {
  const before = previous && !previous.isRead ? 1 : 0;
  const after = incoming.isRead ? 0 : 1;
  return after - before;
}

/**
 * Where a click on a notification leads, as its push does (server notificationUrl): a message
 * opens its conversation (spec 001 §2, QUALITY 22), a match its chat or else /matches; the rest
 * stay on the list.
 */
export function notificationTarget(
  notification: Pick<Notification, 'type' | 'referenceId' | 'referenceType'>,
): string | null {
  const { referenceId, referenceType, type } = notification;
  const conversation = referenceId ? `/messages/${encodeURIComponent(referenceId)}` : null;
  if (type === 'message') return conversation;
  if (type === 'match') return referenceType === 'conversation' && conversation ? conversation : '/matches';
  // A quedada's reminder, question or proposal (issue #21) opens its conversation, like its push.
  if (referenceType === 'conversation' && conversation) return conversation;
  // A verification review's answer (docs/decisions/0034) opens Configuración, where the dialog is.
  if (referenceType === 'verification') return '/config';
  // An open session's request, answer, change or reminder (issue #35) opens the session, like its push.
  if (referenceType === 'openSession' && referenceId) return `/entrenos/abiertos/${encodeURIComponent(referenceId)}`;
  return null;
}

/** True when the count went up: the bell rings (spec 001 §2 "animates for 1 second when the count grows"). */
export function hasCountGrown(previous: number | undefined, next: number): boolean {
  return previous !== undefined && next > previous;
}
