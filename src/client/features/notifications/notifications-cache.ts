/**
 * The notifications' copy in the signed-in user's IndexedDB store (QUALITY 19): the last known
 * list and unread count, for an offline start. Nothing is kept while nobody is signed in.
 */
import {
  currentDb,
  deleteNotification,
  type LocalDb,
  markAllNotificationsRead,
  putNotifications,
  readMeta,
  readNotifications,
  SAVED_AT,
  saveNotificationPage,
  writeMeta,
} from '../../services/local-db.ts';
import type { NotificationsCache } from './notifications-store.ts';

/** The signed-in user's store (none while signed out: nothing is kept then). */
async function withDb(write: (db: LocalDb) => Promise<void>): Promise<void> {
  const db = currentDb();
  if (db) await write(db);
}

/** The last known notifications and count, in the user's IndexedDB store (QUALITY 19). */
export const notificationsCache: NotificationsCache = {
  async read() {
    const db = currentDb();
    if (!db) return { items: null, unreadCount: null };
    const [items, count] = await Promise.all([readNotifications(db), readMeta(db, SAVED_AT.notificationsUnread)]);
    return { items, unreadCount: count === undefined ? null : Number(count) };
  },
  savePage: (filter, items) => withDb((db) => saveNotificationPage(db, filter, items)),
  put: (items) => withDb((db) => putNotifications(db, items)),
  remove: (id) => withDb((db) => deleteNotification(db, id)),
  markAllRead: () => withDb((db) => markAllNotificationsRead(db)),
  saveCount: (count) => withDb((db) => writeMeta(db, SAVED_AT.notificationsUnread, String(count))),
};
