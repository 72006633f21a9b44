import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification, NotificationType } from '#shared/notifications/notification-schemas';
import { ApiRequestError } from '../../services/http.ts';
import { readMeta, readNotifications, SAVED_AT, selectLocalDb, wipeLocalDb } from '../../services/local-db.ts';
import type { NotificationsApi } from './notifications-api.ts';
import { notificationsCache } from './notifications-cache.ts';
import { createNotificationsStore, NOTIFICATIONS_LOAD_FAILED } from './notifications-store.ts';

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

const notify = { success: vi.fn(), error: vi.fn(), info: vi.fn() } as never;

function setup(all: Notification[]) {
  const api = fakeApi(all);
  const store = createNotificationsStore({ api, notify });
  return { api, store };
}

const refused = () => Promise.reject(new ApiRequestError('http', 'No', 500));

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

  it('toggles read and unread both ways, and undoes a refused change', async () => {
    const { api, store } = setup([notification('a')]);
    await store.load('all');
    store.setUnreadCount(1);
    await expect(store.toggleRead('a')).resolves.toBe(true);
    expect(api.markRead).toHaveBeenCalledWith('a');
    expect(store.state.items[0]?.isRead).toBe(true);
    expect(store.state.unreadCount).toBe(0);
    await expect(store.toggleRead('a')).resolves.toBe(true);
    expect(api.markUnread).toHaveBeenCalledWith('a');
    expect(store.state.items[0]?.isRead).toBe(false);
    api.markRead.mockImplementationOnce(refused);
    api.unreadCount.mockImplementation(async () => ({ success: true as const, count: 1 }));
    await expect(store.toggleRead('a')).resolves.toBe(false);
    expect(store.state.items[0]?.isRead).toBe(false);
    expect(store.state.unreadCount).toBe(1);
  });

  it('marks all as read and sets the count to 0', async () => {
    const { store } = setup([notification('a'), notification('b')]);
    await store.load('all');
    store.setUnreadCount(5);
    await expect(store.markAllRead()).resolves.toBe(true);
    expect(store.state.items.every((item) => item.isRead)).toBe(true);
    expect(store.state.unreadCount).toBe(0);
    expect(store.state.isMarkingAll).toBe(false);
  });

  it('deletes locally, and puts it back when the server refuses', async () => {
    const { api, store } = setup([notification('a'), notification('b')]);
    await store.load('all');
    store.setUnreadCount(2);
    await expect(store.remove('a')).resolves.toBe(true);
    expect(store.state.items.map((item) => item._id)).toEqual(['b']);
    expect(store.state.unreadCount).toBe(1);
    api.remove.mockImplementationOnce(refused);
    await expect(store.remove('b')).resolves.toBe(false);
    expect(store.state.items.map((item) => item._id)).toEqual(['b']);
    expect(store.state.unreadCount).toBe(1);
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
  const cachedStore = (api: NotificationsApi) => createNotificationsStore({ api, notify, cache: notificationsCache });
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
    const store = cachedStore(fakeApi(all));
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
});
