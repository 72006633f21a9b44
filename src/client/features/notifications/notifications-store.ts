/**
 * The notifications (spec 001 §2 /notifications, §4 "Notifications"): the filtered, paged list and
 * the unread count that the bell shows. Calls go through an injected API so tests pass a fake.
 * Failures are logged and the optimistic change is undone (spec 001 §8: mutations return false).
 *
 * Offline-first (QUALITY 19): with a `cache` (the user's IndexedDB store in the app) the list shows
 * the last known notifications at once while page 1 is asked for, and keeps them when the network
 * fails; the bell starts from the last known count. Every answer and live event updates the cache.
 */
import { proxy } from 'valtio';
import type { Notification } from '#shared/notifications/notification-schemas';
import { toast } from '../../ui/toast-store.ts';
import {
  appendPage,
  matchesFilter,
  type NotificationFilter,
  unreadDelta,
  upsertNotification,
} from './notification-list.ts';
import type { NotificationsApi } from './notifications-api.ts';

export const NOTIFICATION_UPDATE_FAILED = 'No se pudo actualizar la notificación. Inténtalo de nuevo.';
export const NOTIFICATION_DELETE_FAILED = 'No se pudo eliminar la notificación. Inténtalo de nuevo.';
export const NOTIFICATIONS_LOAD_FAILED = 'No se pudieron cargar las notificaciones.';

export type NotificationListStatus =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready' }
  | { status: 'error'; message: string };

export type NotificationsState = {
  filter: NotificationFilter;
  items: Notification[];
  list: NotificationListStatus;
  /** The last page loaded and the server's page count. */
  page: number;
  pages: number;
  isLoadingMore: boolean;
  unreadCount: number;
  isMarkingAll: boolean;
};

const initialState = (): NotificationsState => ({
  filter: 'all',
  items: [],
  list: { status: 'idle' },
  page: 0,
  pages: 0,
  isLoadingMore: false,
  unreadCount: 0,
  isMarkingAll: false,
});

/** Where the last known notifications and count are kept between visits. */
export type NotificationsCache = {
  /** The saved notifications, newest first (null: never saved), and the saved unread count. */
  read(): Promise<{ items: Notification[] | null; unreadCount: number | null }>;
  /** Page 1 of a filter: replaces what was saved for that filter. */
  savePage(filter: NotificationFilter, items: readonly Notification[]): Promise<void>;
  put(items: readonly Notification[]): Promise<void>;
  remove(id: string): Promise<void>;
  markAllRead(): Promise<void>;
  saveCount(count: number): Promise<void>;
};

type Options = {
  api: NotificationsApi;
  log?: (message: string, error?: unknown) => void;
  notify?: typeof toast;
  cache?: NotificationsCache;
};

export type NotificationsStore = ReturnType<typeof createNotificationsStore>;

/** A store over an API; the app uses the `notificationsStore` instance below. */
export function createNotificationsStore({ api, log = () => {}, notify = toast, cache }: Options) {
  const state = proxy<NotificationsState>(initialState());
  /** Bumped by every first-page load and reset, so an older answer is dropped. */
  let generation = 0;
  /** Bumped by every count change, so a saved count read later does not replace a newer one. */
  let countGeneration = 0;

  /** Cache writes never fail an action: the screen is right, the next answer rewrites the copy. */
  const save = (what: string, write: ((target: NotificationsCache) => Promise<void>) | undefined) => {
    if (cache && write) void write(cache).catch((error) => log(`the notification cache (${what}) failed`, error));
  };

  const setCount = (count: number) => {
    countGeneration++;
    state.unreadCount = Math.max(0, Math.trunc(count) || 0);
    const saved = state.unreadCount;
    save('count', (target) => target.saveCount(saved));
  };

  const readCache = async () => {
    try {
      return (await cache?.read()) ?? null;
    } catch (error) {
      log('the notification cache could not be read', error);
      return null;
    }
  };

  const replaceItem = (id: string, patch: Partial<Notification>) => {
    const item = state.items.find((entry) => entry._id === id);
    if (item) Object.assign(item, patch);
  };

  const store = {
    state,

    /** Page 1 under a filter (spec 001 §7: page 1, limit 20, optional type). */
    async load(filter: NotificationFilter = state.filter): Promise<void> {
      const current = ++generation;
      state.filter = filter;
      state.items = [];
      state.page = 0;
      state.pages = 0;
      state.isLoadingMore = false;
      state.list = { status: 'loading' };
      const request = api.list(1, filter === 'all' ? undefined : filter);
      // Handled below; this only keeps an early failure from being reported as unhandled.
      request.catch(() => undefined);
      const saved = (await readCache())?.items;
      if (saved && current === generation && state.list.status === 'loading') {
        // The last known ones of this filter; no further pages until the server answers.
        state.items = saved.filter((item) => matchesFilter(item, filter));
        state.list = { status: 'ready' };
      }
      try {
        const answer = await request;
        if (current !== generation) return;
        state.items = appendPage([], answer.notifications);
        state.page = 1;
        state.pages = answer.pagination.pages;
        state.list = { status: 'ready' };
        save('page', (target) => target.savePage(filter, answer.notifications));
      } catch (error) {
        if (current !== generation) return;
        log('the notification list failed', error);
        if (state.list.status !== 'ready') state.list = { status: 'error', message: NOTIFICATIONS_LOAD_FAILED };
      }
    },

    get hasMore(): boolean {
      return state.list.status === 'ready' && state.page < state.pages;
    },

    /** The next page (infinite scroll); does nothing while loading or at the end. */
    async loadMore(): Promise<void> {
      if (!store.hasMore || state.isLoadingMore) return;
      const current = generation;
      const next = state.page + 1;
      state.isLoadingMore = true;
      try {
        const answer = await api.list(next, state.filter === 'all' ? undefined : state.filter);
        if (current !== generation) return;
        state.items = appendPage(state.items, answer.notifications);
        state.page = next;
        state.pages = answer.pagination.pages;
        save('page', (target) => target.put(answer.notifications));
      } catch (error) {
        if (current === generation) log('a further notification page failed', error);
      } finally {
        if (current === generation) state.isLoadingMore = false;
      }
    },

    /** A notification from the socket: at the top (in place of the same `_id`), raising the count if unread. */
    receive(notification: Notification): void {
      const previous = state.items.find((item) => item._id === notification._id);
      if (matchesFilter(notification, state.filter) && state.list.status === 'ready') {
        state.items = upsertNotification(state.items, notification).list;
      }
      setCount(state.unreadCount + unreadDelta(notification, previous));
      save('live', (target) => target.put([notification]));
    },

    setUnreadCount: setCount,

    /** The bell's last known count, until the server's (or a live event) says otherwise. */
    async restoreCount(): Promise<void> {
      const before = countGeneration;
      const saved = (await readCache())?.unreadCount;
      if (saved !== null && saved !== undefined && before === countGeneration) {
        state.unreadCount = Math.max(0, Math.trunc(saved) || 0);
      }
    },

    async refreshCount(): Promise<void> {
      try {
        setCount((await api.unreadCount()).count);
      } catch (error) {
        // Offline or refused: the badge keeps the last known count rather than a false zero.
        log('the unread count failed', error);
      }
    },

    /** "Marcar como leída" / "Marcar como no leída": at once, undone if the server refuses. */
    async toggleRead(id: string): Promise<boolean> {
      const item = state.items.find((entry) => entry._id === id);
      if (!item) return false;
      const isRead = !item.isRead;
      replaceItem(id, { isRead });
      setCount(state.unreadCount + (isRead ? -1 : 1));
      try {
        const answer = await (isRead ? api.markRead(id) : api.markUnread(id));
        replaceItem(id, answer.notification);
        save('read', (target) => target.put([answer.notification]));
        void store.refreshCount();
        return true;
      } catch (error) {
        log('marking a notification failed', error);
        replaceItem(id, { isRead: !isRead });
        setCount(state.unreadCount + (isRead ? 1 : -1));
        notify.error(NOTIFICATION_UPDATE_FAILED);
        return false;
      }
    },

    /** "Marcar todas como leídas": the count becomes 0 (spec 001 §4). */
    async markAllRead(): Promise<boolean> {
      if (state.isMarkingAll) return false;
      state.isMarkingAll = true;
      try {
        await api.markAllRead();
        for (const item of state.items) item.isRead = true;
        setCount(0);
        save('read all', (target) => target.markAllRead());
        return true;
      } catch (error) {
        log('marking every notification failed', error);
        notify.error(NOTIFICATION_UPDATE_FAILED);
        return false;
      } finally {
        state.isMarkingAll = false;
      }
    },

    /** "Eliminar": gone from the list at once, back in place if the server refuses. */
    async remove(id: string): Promise<boolean> {
      const index = state.items.findIndex((entry) => entry._id === id);
      if (index < 0) return false;
      const [removed] = state.items.splice(index, 1) as [Notification];
      if (!removed.isRead) setCount(state.unreadCount - 1);
      try {
        await api.remove(id);
        save('remove', (target) => target.remove(id));
        return true;
      } catch (error) {
        log('deleting a notification failed', error);
        state.items.splice(Math.min(index, state.items.length), 0, removed);
        if (!removed.isRead) setCount(state.unreadCount + 1);
        notify.error(NOTIFICATION_DELETE_FAILED);
        return false;
      }
    },

    /** Sign-out: nothing of the last user stays. */
    reset(): void {
      generation++;
      countGeneration++;
      Object.assign(state, initialState());
    },
  };
  return store;
}
