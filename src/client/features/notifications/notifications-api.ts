/** The notification calls (spec 001 §7), typed with the shared response shapes. */
import type {
  DeleteNotificationResponse,
  NotificationListResponse,
  NotificationResponse,
  NotificationType,
  ReadAllResponse,
  UnreadCountResponse,
} from '#shared/notifications/notification-schemas';
import { NOTIFICATIONS_PAGE_SIZE } from '#shared/notifications/notification-schemas';
import { requestJson } from '../../services/http.ts';

const notificationPath = (id: string) => `notifications/${encodeURIComponent(id)}`;

export const notificationsApi = {
  list: (page: number, type?: NotificationType) =>
    requestJson<NotificationListResponse>('notifications', {
      searchParams: { page, limit: NOTIFICATIONS_PAGE_SIZE, ...(type ? { type } : {}) },
    }),
  unreadCount: () => requestJson<UnreadCountResponse>('notifications/unread-count'),
  markRead: (id: string) => requestJson<NotificationResponse>(`${notificationPath(id)}/read`, { method: 'patch' }),
  markUnread: (id: string) => requestJson<NotificationResponse>(`${notificationPath(id)}/unread`, { method: 'patch' }),
  markAllRead: () => requestJson<ReadAllResponse>('notifications/read-all', { method: 'patch' }),
  remove: (id: string) => requestJson<DeleteNotificationResponse>(notificationPath(id), { method: 'delete' }),
};

export type NotificationsApi = typeof notificationsApi;

/** The HTTP call a queued action stands for: what the service worker replays with no page open. */
export function notificationRequest(
  action: { action: 'read' | 'unread'; id: string } | { action: 'readAll' } | { action: 'delete'; id: string },
): { method: 'PATCH' | 'DELETE'; path: string } {
  switch (action.action) {
    case 'read':
      return { method: 'PATCH', path: `${notificationPath(action.id)}/read` };
    case 'unread':
      return { method: 'PATCH', path: `${notificationPath(action.id)}/unread` };
    case 'readAll':
      return { method: 'PATCH', path: 'notifications/read-all' };
    case 'delete':
      return { method: 'DELETE', path: notificationPath(action.id) };
  }
}
