// Long on purpose: the store's offline life (cache, outbox, refusals, filters) told against one fake IndexedDB.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification, NotificationType } from '#shared/notifications/notification-schemas';
import { ApiRequestError } from '../../services/http.ts';
import {
  currentDb,
  readMeta,
  readNotifications,
  SAVED_AT,
  selectLocalDb,
  wipeLocalDb,
} from '../../services/local-db.ts';
import { OutboxService } from '../../services/outbox.ts';
import { type NotificationsApi, notificationRequest } from './notifications-api.ts';
import { notificationsCache } from './notifications-cache.ts';
import {
  createNotificationsStore,
  type EnqueueNotificationAction,
  NOTIFICATION_DELETE_FAILED,
  NOTIFICATION_UPDATE_FAILED,
  NOTIFICATIONS_LOAD_FAILED,
  type NotificationAction,
  type NotificationsStore,
} from './notifications-store.ts';

function notification(id: string, patch: Partial<Notification> = {}): Notification {
  return {
    _id: id,
    type: 'system',
    priority: 'normal',
    title: `Aviso ${id}`,
    body: 'Texto',
    isRead: false,
    createdAt: '2026-11-21T09:00:00.000Z',
    referenceId: null,
    referenceType: null,
    ...patch,
  };
}

function fakeApi(all: Notification[], pageSize = 2) {
  const api = {
    list: vi.fn(async (page: number, type?: NotificationType) => {
      const matching = all.filter((item) => !type || item.type === type);
      return {
        success: true as const,
        notifications: matching.slice((page - 1) * pageSize, page * pageSize),
        pagination: { page, limit: pageSize, total: matching.length, pages: Math.ceil(matching.length / pageSize) },
      };
    }),
    unreadCount: vi.fn(async () => ({ success: true as const, count: all.filter((item) => !item.isRead).length })),
    markRead: vi.fn(async (id: string) => ({
      success: true as const,
      notification: { ...(all.find((item) => item._id === id) as Notification), isRead: true },
    })),
    markUnread: vi.fn(async (id: string) => ({
      success: true as const,
      notification: { ...(all.find((item) => item._id === id) as Notification), isRead: false },
    })),
    markAllRead: vi.fn(async () => ({ success: true as const, updated: 1 })),
    remove: vi.fn(async () => ({ success: true as const })),
  } satisfies NotificationsApi;
  return api;
}

const notify = { success: vi.fn(), error: vi.fn(), info: vi.fn() };

/**
 * An in-memory outbox: `enqueue` runs the change and keeps the action; `drain` delivers them in
 * order the way services/outbox.ts does (a permanent refusal → `refuse`, anything else waits).
 */
function fakeQueue() {
  const queued: NotificationAction[] = [];
  const enqueue: EnqueueNotificationAction = async (action, change) => {
    await change();
    queued.push(action);
    return true;
  };
  const drain = async (store: NotificationsStore) => {
    while (queued.length > 0) {
      const action = queued[0] as NotificationAction;
      try {
        await store.deliver(action);
        store.delivered();
      } catch (error) {
        if (!(error instanceof ApiRequestError && error.kind === 'http' && (error.status ?? 0) < 500)) return;
        await store.refuse(action);
      }
      queued.shift();
    }
  };
  return { queued, enqueue, drain };
}

function setup(all: Notification[]) {
  const api = fakeApi(all);
  const queue = fakeQueue();
  const store = createNotificationsStore({
    api,
    notify: notify as never,
    enqueue: queue.enqueue,
    pending: async () => [...queue.queued],
  });
  return { api, store, queue, drain: () => queue.drain(store) };
}

const refused = () => Promise.reject(new ApiRequestError('http', 'No', 403));
const notFound = () => Promise.reject(new ApiRequestError('http', 'No existe', 404));
const serverDown = () => Promise.reject(new ApiRequestError('http', 'Caído', 503));

describe('notifications store (spec 001 §4)', () => {
  it('loads page 1, then further pages until the last', async () => {
    const { api, store } = setup([notification('a'), notification('b'), notification('c')]);
    await store.load('all');
    expect(store.state.items.map((item) => item._id)).toEqual(['a', 'b']);
    expect(store.hasMore).toBe(true);
    await store.loadMore();
    expect(store.state.items.map((item) => item._id)).toEqual(['a', 'b', 'c']);
    expect(store.hasMore).toBe(false);
    await store.loadMore();
    expect(api.list).toHaveBeenCalledTimes(2);
  });

  it('asks the server for the filtered type', async () => {
    const { api, store } = setup([notification('a', { type: 'match' }), notification('b', { type: 'welcome' })]);
    await store.load('welcome');
    expect(api.list).toHaveBeenLastCalledWith(1, 'welcome');
    expect(store.state.items.map((item) => item._id)).toEqual(['b']);
    await store.load('all');
    expect(api.list).toHaveBeenLastCalledWith(1, undefined);
  });

  it('drops an older answer when the filter changed meanwhile', async () => {
    const { api, store } = setup([notification('a', { type: 'match' }), notification('b', { type: 'welcome' })]);
    let release: () => void = () => {};
    api.list.mockImplementationOnce(
      (page, type) =>
        new Promise((resolve) => {
          release = () => resolve(fakeApi([notification('slow')]).list(page, type));
        }),
    );
    const first = store.load('match');
    await store.load('welcome');
    release();
    await first;
    expect(store.state.filter).toBe('welcome');
    expect(store.state.items.map((item) => item._id)).toEqual(['b']);
  });

  it('adds a live notification at the top, replaces by _id, and counts unread ones', async () => {
    const { store } = setup([notification('a', { isRead: true })]);
    await store.load('all');
    store.setUnreadCount(0);
    store.receive(notification('b'));
    expect(store.state.items.map((item) => item._id)).toEqual(['b', 'a']);
    expect(store.state.unreadCount).toBe(1);
    // A collapsed message notification comes again with the same id: no second count.
    store.receive(notification('b', { body: '2 mensajes nuevos' }));
    expect(store.state.items.map((item) => item._id)).toEqual(['b', 'a']);
    expect(store.state.items[0]?.body).toBe('2 mensajes nuevos');
    expect(store.state.unreadCount).toBe(1);
  });

  it('keeps a live notification of another type out of a filtered list, but counts it', async () => {
    const { store } = setup([notification('a', { type: 'match', isRead: true })]);
    await store.load('match');
    store.receive(notification('m', { type: 'message' }));
    expect(store.state.items.map((item) => item._id)).toEqual(['a']);
    expect(store.state.unreadCount).toBe(1);
  });

  it('toggles read and unread at once, queued in order, sent when drained', async () => {
    const { api, store, queue, drain } = setup([notification('a')]);
    await store.load('all');
    store.setUnreadCount(1);
    await expect(store.toggleRead('a')).resolves.toBe(true);
    expect(store.state.items[0]?.isRead).toBe(true);
    expect(store.state.unreadCount).toBe(0);
    expect(api.markRead).not.toHaveBeenCalled();
    await expect(store.toggleRead('a')).resolves.toBe(true);
    expect(store.state.items[0]?.isRead).toBe(false);
    expect(queue.queued).toEqual([
      { action: 'read', id: 'a' },
      { action: 'unread', id: 'a' },
    ]);
    await drain();
    expect(api.markRead).toHaveBeenCalledWith('a');
    expect(api.markUnread).toHaveBeenCalledWith('a');
    expect(api.markRead.mock.invocationCallOrder[0]).toBeLessThan(api.markUnread.mock.invocationCallOrder[0] ?? 0);
    expect(queue.queued).toEqual([]);
  });

  it('keeps a change that failed for now, and undoes it only when refused for good', async () => {
    const { api, store, queue, drain } = setup([notification('a')]);
    await store.load('all');
    store.setUnreadCount(1);
    notify.error.mockClear();
    await store.toggleRead('a');
    api.markRead.mockImplementationOnce(serverDown);
    await drain();
    expect(store.state.items[0]?.isRead).toBe(true);
    expect(queue.queued).toHaveLength(1);
    expect(notify.error).not.toHaveBeenCalled();
    api.markRead.mockImplementationOnce(refused);
    api.unreadCount.mockImplementation(async () => ({ success: true as const, count: 1 }));
    await drain();
    expect(store.state.items[0]?.isRead).toBe(false);
    expect(store.state.unreadCount).toBe(1);
    expect(notify.error).toHaveBeenCalledWith(NOTIFICATION_UPDATE_FAILED);
  });

  it('shows a change once the outbox holds it (a reload right after the tap keeps it); a second tap meanwhile does nothing', async () => {
    const api = fakeApi([notification('a'), notification('b')]);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const enqueue = vi.fn<EnqueueNotificationAction>(async (_action, change) => {
      await held;
      await change();
      return true;
    });
    const store = createNotificationsStore({ api, notify: notify as never, enqueue });
    await store.load('all');
    store.setUnreadCount(2);
    const removing = store.remove('a');
    const reading = store.toggleRead('b');
    await expect(store.remove('a')).resolves.toBe(false);
    await expect(store.toggleRead('b')).resolves.toBe(false);
    expect(store.state.items.map((item) => [item._id, item.isRead])).toEqual([
      ['a', false],
      ['b', false],
    ]);
    expect(store.state.unreadCount).toBe(2);
    release();
    await expect(removing).resolves.toBe(true);
    await expect(reading).resolves.toBe(true);
    expect(store.state.items.map((item) => [item._id, item.isRead])).toEqual([['b', true]]);
    expect(store.state.unreadCount).toBe(0);
    expect(enqueue).toHaveBeenCalledTimes(2);
  });

  it('undoes the change and says so when nothing could be queued', async () => {
    const api = fakeApi([notification('a')]);
    const store = createNotificationsStore({ api, notify: notify as never, enqueue: async () => false });
    await store.load('all');
    store.setUnreadCount(1);
    notify.error.mockClear();
    await expect(store.toggleRead('a')).resolves.toBe(false);
    expect(store.state.items[0]?.isRead).toBe(false);
    expect(store.state.unreadCount).toBe(1);
    expect(notify.error).toHaveBeenCalledWith(NOTIFICATION_UPDATE_FAILED);
  });

  it('marks all as read at once and sets the count to 0; a refusal undoes it', async () => {
    const { api, store, queue, drain } = setup([notification('a'), notification('b', { isRead: true })]);
    await store.load('all');
    store.setUnreadCount(1);
    await expect(store.markAllRead()).resolves.toBe(true);
    expect(store.state.items.every((item) => item.isRead)).toBe(true);
    expect(store.state.unreadCount).toBe(0);
    expect(store.state.isMarkingAll).toBe(false);
    expect(queue.queued).toEqual([{ action: 'readAll', ids: ['a'], count: 1 }]);
    api.markAllRead.mockImplementationOnce(refused);
    api.unreadCount.mockImplementation(async () => ({ success: true as const, count: 1 }));
    notify.error.mockClear();
    await drain();
    expect(store.state.items.map((item) => [item._id, item.isRead])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect(store.state.unreadCount).toBe(1);
    expect(notify.error).toHaveBeenCalledWith(NOTIFICATION_UPDATE_FAILED);
  });

  it('deletes at once; a delete answered 404 is done, another refusal puts it back', async () => {
    const { api, store, drain } = setup([notification('a'), notification('b'), notification('c')]);
    await store.load('all');
    await store.loadMore();
    store.setUnreadCount(3);
    notify.error.mockClear();
    await expect(store.remove('a')).resolves.toBe(true);
    expect(store.state.items.map((item) => item._id)).toEqual(['b', 'c']);
    expect(store.state.unreadCount).toBe(2);
    api.remove.mockImplementationOnce(notFound);
    await drain();
    expect(store.state.items.map((item) => item._id)).toEqual(['b', 'c']);
    expect(notify.error).not.toHaveBeenCalled();

    api.unreadCount.mockImplementation(async () => ({ success: true as const, count: 1 }));
    await store.remove('b');
    expect(store.state.items.map((item) => item._id)).toEqual(['c']);
    api.remove.mockImplementationOnce(refused);
    await drain();
    expect(store.state.items.map((item) => item._id)).toEqual(['b', 'c']);
    expect(notify.error).toHaveBeenCalledWith(NOTIFICATION_DELETE_FAILED);
    expect(api.remove).toHaveBeenCalledTimes(2);
  });

  it('shows the actions still queued over a server answer that does not have them yet', async () => {
    const { store, drain } = setup([notification('a'), notification('b'), notification('c')]);
    await store.load('all');
    await store.toggleRead('a');
    await store.remove('b');
    // A reload before the queue was sent: the server still has the old state.
    await store.load('all');
    expect(store.state.items.map((item) => [item._id, item.isRead])).toEqual([['a', true]]);
    await store.loadMore();
    expect(store.state.items.map((item) => [item._id, item.isRead])).toEqual([
      ['a', true],
      ['c', false],
    ]);
    await store.markAllRead();
    await store.load('all');
    expect(store.state.items.map((item) => [item._id, item.isRead])).toEqual([['a', true]]);
    await drain();
  });

  it('keeps the last count when the count call fails, and resets on sign-out', async () => {
    const { api, store } = setup([notification('a')]);
    await store.refreshCount();
    expect(store.state.unreadCount).toBe(1);
    api.unreadCount.mockImplementationOnce(refused);
    await store.refreshCount();
    expect(store.state.unreadCount).toBe(1);
    store.reset();
    expect(store.state.unreadCount).toBe(0);
    expect(store.state.list).toEqual({ status: 'idle' });
  });
});

describe('notifications offline-first (QUALITY 19)', () => {
  afterEach(() => wipeLocalDb());

  const offline = () => Promise.reject(new ApiRequestError('network', ''));
  /** The store over the real outbox and cache (fake-indexeddb), wired as notifications-live.ts does. */
  function outboxStore(api: NotificationsApi, connection = { isOnline: true }) {
    const outbox = new OutboxService({
      db: currentDb,
      isOnline: () => connection.isOnline,
      canDrain: () => true,
      classify: (error) => {
        if (error instanceof ApiRequestError && error.kind === 'http' && (error.status ?? 0) < 500) return 'permanent';
        return connection.isOnline ? 'transient' : 'offline';
      },
      send: async () => {
        throw new Error('notifications deliver through the store');
      },
      setTimer: () => undefined,
      clearTimer: () => undefined,
    });
    const store = createNotificationsStore({
      api,
      notify: notify as never,
      cache: notificationsCache,
      enqueue: (action, change) =>
        outbox.enqueue(
          {
            kind: 'notification',
            scope: 'notifications',
            clientId: crypto.randomUUID(),
            payload: action,
            request: notificationRequest(action),
          },
          change,
        ),
    });
    outbox.register('notification', {
      deliver: (item) => store.deliver(item.payload as NotificationAction),
      fail: async (db, item) => {
        await store.refuse(item.payload as NotificationAction);
        await db.outbox.delete(item.id as number);
      },
      after: () => store.delivered(),
    });
    return { store, outbox };
  }
  const cachedStore = (api: NotificationsApi) => outboxStore(api).store;
  const shown = (store: ReturnType<typeof cachedStore>) => store.state.items.map((item) => item._id);

  it('saves page 1 and the count, and an offline start shows them', async () => {
    const db = selectLocalDb('notif-1');
    const all = [
      notification('b', { createdAt: '2026-11-21T10:00:00.000Z', type: 'match' }),
      notification('a', { createdAt: '2026-11-21T09:00:00.000Z', isRead: true }),
    ];
    const online = cachedStore(fakeApi(all));
    await online.load('all');
    await online.refreshCount();
    await expect.poll(async () => (await readNotifications(db))?.map((item) => item._id)).toEqual(['b', 'a']);
    await expect.poll(() => readMeta(db, SAVED_AT.notificationsUnread)).toBe('1');

    const api = fakeApi([]);
    api.list.mockImplementation(offline);
    api.unreadCount.mockImplementation(offline);
    const next = cachedStore(api);
    await next.restoreCount();
    await next.refreshCount();
    expect(next.state.unreadCount).toBe(1);
    await next.load('all');
    expect(next.state.list).toEqual({ status: 'ready' });
    expect(shown(next)).toEqual(['b', 'a']);
    expect(next.hasMore).toBe(false);
    // A filter shows the saved ones of its type.
    await next.load('match');
    expect(shown(next)).toEqual(['b']);
  });

  it('keeps the saved copy in step with live ones, read marks and deletions', async () => {
    const db = selectLocalDb('notif-2');
    const all = [notification('a', { createdAt: '2026-11-21T09:00:00.000Z' })];
    const api = fakeApi(all);
    // The server's count once the queued actions reached it (every delivery asks for it).
    api.unreadCount.mockImplementation(async () => ({ success: true as const, count: 0 }));
    const store = cachedStore(api);
    await store.load('all');
    store.receive(notification('live', { createdAt: '2026-11-22T09:00:00.000Z' }));
    await store.toggleRead('a');
    await expect
      .poll(async () => (await readNotifications(db))?.map((item) => [item._id, item.isRead]))
      .toEqual([
        ['live', false],
        ['a', true],
      ]);
    await store.remove('live');
    await store.markAllRead();
    await expect
      .poll(async () => (await readNotifications(db))?.map((item) => [item._id, item.isRead]))
      .toEqual([['a', true]]);
    await expect.poll(() => readMeta(db, SAVED_AT.notificationsUnread)).toBe('0');
  });

  it('drops a notification gone on the server from the list and the saved copy; a late answer does not bring it back', async () => {
    const db = selectLocalDb('notif-drop');
    const all = [
      notification('a', { createdAt: '2026-11-21T10:00:00.000Z' }),
      notification('b', { createdAt: '2026-11-21T09:00:00.000Z' }),
    ];
    const store = cachedStore(fakeApi(all));
    await store.load('all');
    await expect.poll(async () => (await readNotifications(db))?.map((item) => item._id)).toEqual(['a', 'b']);
    store.setUnreadCount(2);

    store.drop('a');
    expect(shown(store)).toEqual(['b']);
    await expect.poll(async () => (await readNotifications(db))?.map((item) => item._id)).toEqual(['b']);
    // The count is the server's to say (its own unreadCountUpdated follows).
    expect(store.state.unreadCount).toBe(2);
    // An answer computed before the removal, and the live event replayed: still gone.
    await store.load('all');
    expect(shown(store)).toEqual(['b']);
    store.receive(notification('a'));
    expect(shown(store)).toEqual(['b']);
    // Dropping one that is not listed (another filter) only forgets it in the saved copy.
    store.drop('z');
    expect(shown(store)).toEqual(['b']);
  });

  it('is an error offline when nothing was saved; the server answer wins over the saved count', async () => {
    const db = selectLocalDb('notif-3');
    const api = fakeApi([notification('a'), notification('b')]);
    api.list.mockImplementationOnce(offline);
    const store = cachedStore(api);
    await store.load('all');
    expect(store.state.list).toEqual({ status: 'error', message: NOTIFICATIONS_LOAD_FAILED });
    store.setUnreadCount(7);
    await expect.poll(() => readMeta(db, SAVED_AT.notificationsUnread)).toBe('7');
    // The saved count is read while a newer one arrives: the newer one stays.
    const restoring = store.restoreCount();
    store.setUnreadCount(2);
    await restoring;
    expect(store.state.unreadCount).toBe(2);
  });

  it('offline: the change is saved with its outbox item at once and sent when the network returns', async () => {
    const db = selectLocalDb('notif-4');
    const all = [
      notification('b', { createdAt: '2026-11-21T10:00:00.000Z' }),
      notification('a', { createdAt: '2026-11-21T09:00:00.000Z' }),
    ];
    const api = fakeApi(all);
    api.unreadCount.mockImplementation(async () => ({ success: true as const, count: 0 }));
    const connection = { isOnline: true };
    const { store, outbox } = outboxStore(api, connection);
    await store.load('all');
    connection.isOnline = false;
    api.markRead.mockImplementation(offline);
    api.remove.mockImplementation(offline);
    store.setUnreadCount(2);
    await store.toggleRead('a');
    await store.remove('b');
    expect(shown(store)).toEqual(['a']);
    // Saved with the item, in the same transaction: a reload shows them.
    expect((await readNotifications(db))?.map((item) => [item._id, item.isRead])).toEqual([['a', true]]);
    expect(await readMeta(db, SAVED_AT.notificationsUnread)).toBe('0');
    const rows = await db.outbox.orderBy('id').toArray();
    expect(rows.map((row) => [row.kind, row.scope, row.status, row.request.method, row.request.path])).toEqual([
      ['notification', 'notifications', 'pending', 'PATCH', 'notifications/a/read'],
      ['notification', 'notifications', 'pending', 'DELETE', 'notifications/b'],
    ]);

    api.markRead.mockReset().mockImplementation(async (id: string) => ({
      success: true as const,
      notification: { ...(all.find((item) => item._id === id) as Notification), isRead: true },
    }));
    api.remove.mockReset().mockImplementation(notFound);
    connection.isOnline = true;
    outbox.kick({ isFresh: true });
    await expect.poll(() => db.outbox.count()).toBe(0);
    expect(api.markRead).toHaveBeenCalledWith('a');
    expect(api.remove).toHaveBeenCalledWith('b');
    expect(shown(store)).toEqual(['a']);
  });

  it('a permanent refusal undoes the change in the list and the saved copy, with the error', async () => {
    const db = selectLocalDb('notif-5');
    const api = fakeApi([notification('a')]);
    api.unreadCount.mockImplementation(async () => ({ success: true as const, count: 1 }));
    api.remove.mockImplementation(refused);
    const { store } = outboxStore(api);
    await store.load('all');
    store.setUnreadCount(1);
    notify.error.mockClear();
    await store.remove('a');
    await expect.poll(() => notify.error.mock.calls.length).toBe(1);
    expect(notify.error).toHaveBeenCalledWith(NOTIFICATION_DELETE_FAILED);
    expect(shown(store)).toEqual(['a']);
    expect(store.state.unreadCount).toBe(1);
    await expect.poll(async () => (await readNotifications(db))?.map((item) => item._id)).toEqual(['a']);
    await expect.poll(() => db.outbox.count()).toBe(0);
  });
});
