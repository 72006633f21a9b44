/**
 * The notifications (spec 001 §2 /notifications, §4 "Notifications"): the filtered, paged list and
 * the unread count that the bell shows. Calls go through an injected API so tests pass a fake.
 * Read, unread, read-all and delete are outbox items (decision 0011): shown at once, written to
 * the outbox with their cache change in one transaction (the injected `enqueue`), sent when the
 * network allows, undone with the error toast only when the server refuses them for good.
 *
 * Offline-first (QUALITY 19): with a `cache` (the user's IndexedDB store in the app) the list shows
 * the last known notifications at once while page 1 is asked for, and keeps them when the network
 * fails; the bell starts from the last known count. Every answer and live event updates the cache.
 */
import { proxy } from 'valtio';
import type { Notification } from '#shared/notifications/notification-schemas';
import { ApiRequestError } from '../../services/http.ts';
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

/** A notification action as queued in the outbox (kind `notification`, scope `notifications`). */
export type NotificationAction =
  | { action: 'read' | 'unread'; id: string }
  /** `ids`: the ones it marked read, `count`: the count before, so a refusal can undo it. */
  | { action: 'readAll'; ids: string[]; count: number }
  /** `removed` and `index`: where it was, so a refusal puts it back. */
  | { action: 'delete'; id: string; removed?: Notification; index?: number };

/**
 * Writes the action to the outbox; `change` (the cache's optimistic writes) runs in the same
 * transaction. Resolves false when nothing could be queued (nobody signed in).
 */
export type EnqueueNotificationAction = (action: NotificationAction, change: () => Promise<void>) => Promise<boolean>;

type Options = {
  api: NotificationsApi;
  enqueue: EnqueueNotificationAction;
  /** The queued actions not yet sent, oldest first: shown over every server answer. */
  pending?: () => Promise<NotificationAction[]>;
  log?: (message: string, error?: unknown) => void;
  notify?: typeof toast;
  cache?: NotificationsCache;
};

export type NotificationsStore = ReturnType<typeof createNotificationsStore>;

/** A store over an API; the app uses the `notificationsStore` instance below. */
export function createNotificationsStore({ api, enqueue, pending, log = () => {}, notify = toast, cache }: Options) {
  const state = proxy<NotificationsState>(initialState());
  /** Bumped by every first-page load and reset, so an older answer is dropped. */
  let generation = 0;
  /** Bumped by every count change, so a saved count read later does not replace a newer one. */
  let countGeneration = 0;
  /** Gone on the server (`drop`): an answer that left before the removal must not bring them back. */
  const removedOnServer = new Set<string>();

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

  /** The count on screen only: an action saves it with its own writes, in the outbox's transaction. */
  const setCountLocally = (count: number) => {
    countGeneration++;
    state.unreadCount = Math.max(0, Math.trunc(count) || 0);
  };

  /** Cards whose action is being written to the outbox (a second tap meanwhile does nothing). */
  const queuing = new Set<string>();

  /** Writes the action to the outbox with the cache's optimistic writes; false if that failed. */
  const queue = async (action: NotificationAction, change: (target: NotificationsCache) => Promise<void>) => {
    try {
      return await enqueue(action, async () => {
        if (cache) await change(cache);
      });
    } catch (error) {
      log('queuing a notification action failed', error);
      return false;
    }
  };

  const undoReadAll = (ids: readonly string[], previousCount: number) => {
    for (const item of state.items) if (ids.includes(item._id)) item.isRead = false;
    setCount(state.unreadCount + previousCount);
  };

  const undoRemove = (removed: Notification, index: number) => {
    if (state.items.some((entry) => entry._id === removed._id)) return;
    if (matchesFilter(removed, state.filter)) {
      state.items.splice(Math.min(index, state.items.length), 0, removed);
    }
    if (!removed.isRead) setCount(state.unreadCount + 1);
  };

  const readPending = async (): Promise<NotificationAction[]> => {
    try {
      return (await pending?.()) ?? [];
    } catch (error) {
      log('the queued notification actions could not be read', error);
      return [];
    }
  };

  /** A server answer with the actions still queued applied on top, in order (they win: they are newer). */
  const withPending = (items: readonly Notification[], actions: readonly NotificationAction[]) => {
    let list = items.filter((item) => !removedOnServer.has(item._id)).map((item) => ({ ...item }));
    for (const action of actions) {
      if (action.action === 'delete') list = list.filter((item) => item._id !== action.id);
      else if (action.action === 'readAll') for (const item of list) item.isRead = true;
      else for (const item of list) if (item._id === action.id) item.isRead = action.action === 'read';
    }
    return list;
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
      // Read before asking too: an action sent while the page travels is in one of the two reads.
      const queuedBefore = readPending();
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
        const queued = [...(await queuedBefore), ...(await readPending())];
        if (current !== generation) return;
        const shown = withPending(answer.notifications, queued);
        state.items = appendPage([], shown);
        state.page = 1;
        state.pages = answer.pagination.pages;
        state.list = { status: 'ready' };
        save('page', (target) => target.savePage(filter, shown));
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
        const shown = withPending(answer.notifications, await readPending());
        if (current !== generation) return;
        state.items = appendPage(state.items, shown);
        state.page = next;
        state.pages = answer.pagination.pages;
        save('page', (target) => target.put(shown));
      } catch (error) {
        if (current === generation) log('a further notification page failed', error);
      } finally {
        if (current === generation) state.isLoadingMore = false;
      }
    },

    /** A notification from the socket: at the top (in place of the same `_id`), raising the count if unread. */
    receive(notification: Notification): void {
      if (removedOnServer.has(notification._id)) return;
      const previous = state.items.find((item) => item._id === notification._id);
      if (matchesFilter(notification, state.filter) && state.list.status === 'ready') {
        state.items = upsertNotification(state.items, notification).list;
      }
      setCount(state.unreadCount + unreadDelta(notification, previous));
      save('live', (target) => target.put([notification]));
    },

    setUnreadCount: setCount,

    /**
     * `notificationRemoved`: gone on the server (deleted on another device, or taken back by an
     * undone superlike). Off the list and the saved copy at once; the count has its own event.
     */
    drop(id: string): void {
      removedOnServer.add(id);
      if (state.items.some((item) => item._id === id)) state.items = state.items.filter((item) => item._id !== id);
      save('removed', (target) => target.remove(id));
    },

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

    /**
     * "Marcar como leída" / "Marcar como no leída": queued, then shown — the screen changes once the
     * outbox holds the action (a few ms), so a reload right after the tap never loses it; undone
     * only if refused for good. A second tap on the same card while it is queued does nothing.
     */
    async toggleRead(id: string): Promise<boolean> {
      const item = state.items.find((entry) => entry._id === id);
      if (!item || queuing.has(id)) return false;
      const isRead = !item.isRead;
      const changed = { ...item, isRead };
      const count = Math.max(0, state.unreadCount + (isRead ? -1 : 1));
      queuing.add(id);
      try {
        const isQueued = await queue({ action: isRead ? 'read' : 'unread', id }, async (target) => {
          await target.put([changed]);
          await target.saveCount(count);
        });
        if (!isQueued) {
          notify.error(NOTIFICATION_UPDATE_FAILED);
          return false;
        }
        replaceItem(id, { isRead });
        setCountLocally(state.unreadCount + (isRead ? -1 : 1));
        return true;
      } finally {
        queuing.delete(id);
      }
    },

    /** "Marcar todas como leídas": the count becomes 0 (spec 001 §4), at once and queued. */
    async markAllRead(): Promise<boolean> {
      if (state.isMarkingAll) return false;
      state.isMarkingAll = true;
      try {
        const ids = state.items.filter((item) => !item.isRead).map((item) => item._id);
        const previousCount = state.unreadCount;
        const isQueued = await queue({ action: 'readAll', ids, count: previousCount }, async (target) => {
          await target.markAllRead();
          await target.saveCount(0);
        });
        if (!isQueued) {
          notify.error(NOTIFICATION_UPDATE_FAILED);
          return false;
        }
        // Shown once queued (see toggleRead).
        for (const item of state.items) item.isRead = true;
        setCountLocally(0);
        return true;
      } finally {
        state.isMarkingAll = false;
      }
    },

    /** "Eliminar": queued, then gone from the list (see toggleRead); back in place only if refused for good. */
    async remove(id: string): Promise<boolean> {
      const index = state.items.findIndex((entry) => entry._id === id);
      if (index < 0 || queuing.has(id)) return false;
      const plain = { ...(state.items[index] as Notification) };
      const count = Math.max(0, state.unreadCount - (plain.isRead ? 0 : 1));
      queuing.add(id);
      try {
        const isQueued = await queue({ action: 'delete', id, removed: plain, index }, async (target) => {
          await target.remove(id);
          await target.saveCount(count);
        });
        if (!isQueued) {
          notify.error(NOTIFICATION_DELETE_FAILED);
          return false;
        }
        const at = state.items.findIndex((entry) => entry._id === id);
        if (at >= 0) state.items.splice(at, 1);
        if (!plain.isRead) setCountLocally(state.unreadCount - 1);
        return true;
      } finally {
        queuing.delete(id);
      }
    },

    /**
     * Sends a queued action (the outbox's delivery). The calls are idempotent; a delete answered
     * 404 means the notification is already gone: done, not refused.
     */
    async deliver(action: NotificationAction): Promise<unknown> {
      switch (action.action) {
        case 'read':
          return api.markRead(action.id);
        case 'unread':
          return api.markUnread(action.id);
        case 'readAll':
          return api.markAllRead();
        case 'delete':
          try {
            return await api.remove(action.id);
          } catch (error) {
            if (error instanceof ApiRequestError && error.kind === 'http' && error.status === 404) return null;
            throw error;
          }
      }
    },

    /** A queued action reached the server: the badge takes the server's count. */
    delivered(): void {
      void store.refreshCount();
    },

    /**
     * A queued action refused for good (400/403/404…): its optimistic change is undone in the list
     * and the saved copy (awaited, so it joins the outbox's transaction) and the error shows.
     */
    async refuse(action: NotificationAction): Promise<void> {
      log(`a queued notification action (${action.action}) was refused`);
      try {
        if (action.action === 'read' || action.action === 'unread') {
          const isRead = action.action === 'unread';
          const item = state.items.find((entry) => entry._id === action.id);
          if (item && item.isRead !== isRead) {
            replaceItem(action.id, { isRead });
            setCountLocally(state.unreadCount + (isRead ? -1 : 1));
            await cache?.put([{ ...item }]);
            await cache?.saveCount(state.unreadCount);
          }
        } else if (action.action === 'readAll') {
          undoReadAll(action.ids, action.count);
          const items = state.items.filter((item) => action.ids.includes(item._id)).map((item) => ({ ...item }));
          await cache?.put(items);
          await cache?.saveCount(state.unreadCount);
        } else if (action.action === 'delete' && action.removed) {
          undoRemove(action.removed, action.index ?? 0);
          await cache?.put([action.removed]);
          await cache?.saveCount(state.unreadCount);
        }
      } finally {
        notify.error(action.action === 'delete' ? NOTIFICATION_DELETE_FAILED : NOTIFICATION_UPDATE_FAILED);
        void store.refreshCount();
      }
    },

    /** Sign-out: nothing of the last user stays. */
    reset(): void {
      generation++;
      countGeneration++;
      removedOnServer.clear();
      Object.assign(state, initialState());
    },
  };
  return store;
}
