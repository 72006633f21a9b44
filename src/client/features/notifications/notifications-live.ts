/**
 * The notifications' live side: the unread count on sign-in (and for a restored session), the
 * `notification`, `notificationRemoved` and `unreadCountUpdated` socket events, the chime for new
 * unread ones, and the copy of the list and count kept in the user's IndexedDB store for an
 * offline start.
 */
import { currentDb, pendingOutboxPayloads } from '../../services/local-db.ts';
import { outbox } from '../../services/offline.ts';
import { onSignIn, onSignOut } from '../../services/session.ts';
import { connection } from '../../services/socket.ts';
import { tokenStorage } from '../../services/token-storage.ts';
import { playNotificationSound, trackFirstInteraction } from './notification-sound.ts';
import { notificationRequest, notificationsApi } from './notifications-api.ts';
import { notificationsCache } from './notifications-cache.ts';
import { createNotificationsStore, type NotificationAction } from './notifications-store.ts';

/** One scope for every notification action: they replay in the order they were done. */
const NOTIFICATIONS_SCOPE = 'notifications';

/** The app's notifications. */
export const notificationsStore = createNotificationsStore({
  api: notificationsApi,
  log: (message, error) => console.warn(`[notifications] ${message}`, error ?? ''),
  cache: notificationsCache,
  enqueue: (action, change) =>
    outbox.enqueue(
      {
        kind: 'notification',
        scope: NOTIFICATIONS_SCOPE,
        clientId: crypto.randomUUID(),
        payload: action,
        request: notificationRequest(action),
      },
      change,
    ),
  pending: async () => {
    const db = currentDb();
    return db ? ((await pendingOutboxPayloads(db, 'notification')) as NotificationAction[]) : [];
  },
});

/** The bell's count (spec 001 §2); components read it with `useSnapshot`. */
export const notificationsState = notificationsStore.state;

let isStarted = false;

/** Wires the store to the session and the socket once (app start-up, before the session is restored). */
export function startNotifications(): void {
  if (isStarted) return;
  isStarted = true;
  trackFirstInteraction();
  // Registered at start-up, so actions queued offline replay without the screen being open.
  outbox.register('notification', {
    deliver: (item) => notificationsStore.deliver(item.payload as NotificationAction),
    fail: async (db, item) => {
      await notificationsStore.refuse(item.payload as NotificationAction);
      // Undone and shown: the failed row has nothing left to offer (no "Reintentar" here).
      await db.outbox.delete(item.id as number);
    },
    after: () => notificationsStore.delivered(),
  });
  onSignIn(() => void notificationsStore.refreshCount());
  onSignOut(() => notificationsStore.reset());
  connection.on('notification', (notification) => {
    notificationsStore.receive(notification);
    if (!notification.isRead) playNotificationSound();
  });
  connection.on('notificationRemoved', (event) => {
    if (typeof event?._id === 'string') notificationsStore.drop(event._id);
  });
  connection.on('unreadCountUpdated', (event) => {
    if (event.kind === 'notifications') notificationsStore.setUnreadCount(event.count);
  });
  if (tokenStorage.readToken()) {
    // The last known count at once (an offline start), then the server's.
    void notificationsStore.restoreCount();
    void notificationsStore.refreshCount();
  }
}
