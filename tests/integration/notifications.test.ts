// @setup embedded
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Notification,
  NotificationRemovedEvent,
  UnreadCountUpdatedEvent,
} from '#shared/notifications/notification-schemas';
import { type Api, createApi } from '../helpers/auth-api.ts';
import { connectSocket, nextEvent } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, DAY, HOUR, MINUTE } from '../helpers/test-clock.ts';

type ListBody = {
  success: true;
  notifications: Notification[];
  pagination: { page: number; limit: number; total: number; pages: number };
};

/** Collects every event of a name on a socket. */
function collect<T>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (payload: T) => seen.push(payload));
  return seen;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('notifications (spec 001 §3, §4, §7)', () => {
  // 09:00 UTC is 10:00 in Madrid: before the streak-reminder hour.
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const signIn = async (name = 'Lucía') => {
    const account = await api.registerUser({ name });
    // "Recuérdame": the streak test moves the clock past a short session's 12 hours.
    const { token } = await api.login(account.email, undefined, { rememberMe: true });
    return { ...account, token };
  };
  const notify = (userId: string, input: Parameters<TestApp['notifications']['notifications']['notify']>[1]) => {
    clock.advance(MINUTE);
    return app.notifications.notifications.notify(userId, input);
  };
  const list = async (token: string, query = '') => {
    const response = await api.get(`/notifications${query}`, token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as unknown as ListBody;
  };
  const unreadCount = async (token: string) => (await api.get('/notifications/unread-count', token)).body.count;

  it('welcomes a new account with a notification', async () => {
    const user = await signIn('Marta');
    const body = await list(user.token);
    expect(body.notifications).toHaveLength(1);
    expect(body.notifications[0]).toMatchObject({
      type: 'welcome',
      priority: 'normal',
      title: '¡Bienvenido a Entreno!',
      isRead: false,
      referenceId: null,
      referenceType: null,
    });
    expect(body.notifications[0]?.body).toContain('Marta');
    expect(body.notifications[0]?._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1 });
    expect(await unreadCount(user.token)).toBe(1);
  });

  it('lists newest first, pages, and filters by type and read state', async () => {
    const user = await signIn();
    const types = ['match', 'message', 'system', 'activity', 'reminder'] as const;
    for (let index = 0; index < 24; index += 1) {
      await notify(user.userId, {
        type: types[index % types.length] ?? 'system',
        title: `N${index}`,
        body: `Cuerpo ${index}`,
      });
    }
    const first = await list(user.token);
    expect(first.pagination).toEqual({ page: 1, limit: 20, total: 25, pages: 2 });
    expect(first.notifications.map((n) => n.title).slice(0, 3)).toEqual(['N23', 'N22', 'N21']);
    const dates = first.notifications.map((n) => Date.parse(n.createdAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));

    const second = await list(user.token, '?page=2');
    expect(second.notifications.map((n) => n.title)).toEqual(['N3', 'N2', 'N1', 'N0', '¡Bienvenido a Entreno!']);
    const small = await list(user.token, '?page=3&limit=10');
    expect(small.pagination).toEqual({ page: 3, limit: 10, total: 25, pages: 3 });
    expect(small.notifications).toHaveLength(5);
    expect((await list(user.token, '?page=9')).notifications).toEqual([]);

    const matches = await list(user.token, '?type=match');
    expect(matches.pagination.total).toBe(5);
    expect(matches.notifications.every((n) => n.type === 'match')).toBe(true);
    expect((await list(user.token, '?type=welcome')).pagination.total).toBe(1);

    const target = first.notifications[0] as Notification;
    const read = await api.call('PATCH', `/notifications/${target._id}/read`, { token: user.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ success: true, notification: { _id: target._id, isRead: true } });
    const onlyRead = await list(user.token, '?isRead=true');
    expect(onlyRead.notifications.map((n) => n._id)).toEqual([target._id]);
    expect((await list(user.token, '?isRead=false')).pagination.total).toBe(24);
    expect((await list(user.token, '?isRead=false&type=match')).pagination.total).toBe(5);
  });

  it('refuses bad queries with a Spanish 400', async () => {
    const user = await signIn();
    for (const query of [
      '?page=0',
      '?page=-1',
      '?page=abc',
      '?limit=0',
      '?limit=101',
      '?type=spam',
      '?isRead=yes',
      '?other=1',
    ]) {
      const response = await api.get(`/notifications${query}`, user.token);
      expect(response.status, query).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.message, query).toMatch(/[áéíóúñ]|no son válidos|debe/);
    }
    expect((await api.get('/notifications')).status).toBe(401);
    expect((await api.get('/notifications/unread-count')).status).toBe(401);
    expect((await api.call('PATCH', '/notifications/read-all')).status).toBe(401);
  });

  it('marks read and unread, marks all read, and deletes, with the unread count following', async () => {
    const user = await signIn();
    const a = await notify(user.userId, { type: 'system', title: 'A', body: 'a' });
    const b = await notify(user.userId, { type: 'activity', title: 'B', body: 'b' });
    expect(await unreadCount(user.token)).toBe(3);

    await api.call('PATCH', `/notifications/${a._id}/read`, { token: user.token });
    expect(await unreadCount(user.token)).toBe(2);
    // Reading twice is fine.
    expect((await api.call('PATCH', `/notifications/${a._id}/read`, { token: user.token })).status).toBe(200);
    const unread = await api.call('PATCH', `/notifications/${a._id}/unread`, { token: user.token });
    expect(unread.body).toMatchObject({ success: true, notification: { _id: a._id, isRead: false } });
    expect(await unreadCount(user.token)).toBe(3);

    const all = await api.call('PATCH', '/notifications/read-all', { token: user.token });
    expect(all.body).toEqual({ success: true, updated: 3 });
    expect(await unreadCount(user.token)).toBe(0);

    const removed = await api.call('DELETE', `/notifications/${b._id}`, { token: user.token });
    expect(removed.body).toEqual({ success: true });
    expect((await list(user.token)).notifications.map((n) => n._id)).not.toContain(b._id);
    expect((await api.call('DELETE', `/notifications/${b._id}`, { token: user.token })).status).toBe(404);
  });

  it('lets only the owner see or touch a notification (404 for anyone else)', async () => {
    const owner = await signIn();
    const stranger = await signIn();
    const mine = await notify(owner.userId, { type: 'match', title: 'Solo mía', body: 'x' });
    expect((await list(stranger.token)).notifications.map((n) => n._id)).not.toContain(mine._id);
    for (const [method, path] of [
      ['PATCH', `/notifications/${mine._id}/read`],
      ['PATCH', `/notifications/${mine._id}/unread`],
      ['DELETE', `/notifications/${mine._id}`],
    ] as const) {
      const response = await api.call(method, path, { token: stranger.token });
      expect(response.status, path).toBe(404);
      expect(response.body).toEqual({ success: false, message: 'Notificación no encontrada' });
    }
    // Same answer as for an id that does not exist or is not an id at all.
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '1%20or%201=1']) {
      expect((await api.call('PATCH', `/notifications/${id}/read`, { token: stranger.token })).status).toBe(404);
    }
    await api.call('PATCH', '/notifications/read-all', { token: stranger.token });
    const still = (await list(owner.token)).notifications.find((n) => n._id === mine._id);
    expect(still?.isRead).toBe(false);
  });

  it('emits notification and unreadCountUpdated to the owner only', async () => {
    const owner = await signIn();
    const other = await signIn();
    const ownerSocket = await connectSocket(app, { token: owner.token });
    const secondOwnerSocket = await connectSocket(app, { token: owner.token });
    const otherSocket = await connectSocket(app, { token: other.token });
    try {
      const otherNotifications = collect(otherSocket, 'notification');
      const otherCounts = collect(otherSocket, 'unreadCountUpdated');
      const arriving = nextEvent<Notification>(ownerSocket, 'notification');
      const arrivingOnSecond = nextEvent<Notification>(secondOwnerSocket, 'notification');
      const counted = nextEvent<UnreadCountUpdatedEvent>(ownerSocket, 'unreadCountUpdated');
      const created = await notify(owner.userId, {
        type: 'match',
        priority: 'high',
        title: '¡Nuevo Entrenamiento!',
        body: '¡Has conectado con Ana!',
        referenceId: 'c-1',
        referenceType: 'conversation',
      });
      expect(await arriving).toEqual(created);
      expect((await arrivingOnSecond)._id).toBe(created._id);
      expect(await counted).toEqual({ kind: 'notifications', count: 2 });

      const otherRemovals = collect(otherSocket, 'notificationRemoved');
      const removedOnSecond = nextEvent<NotificationRemovedEvent>(secondOwnerSocket, 'notificationRemoved');
      for (const [method, path, count] of [
        ['PATCH', `/notifications/${created._id}/read`, 1],
        ['PATCH', `/notifications/${created._id}/unread`, 2],
        ['PATCH', '/notifications/read-all', 0],
        ['DELETE', `/notifications/${created._id}`, 0],
      ] as const) {
        const next = nextEvent<UnreadCountUpdatedEvent>(ownerSocket, 'unreadCountUpdated');
        expect((await api.call(method, path, { token: owner.token })).status).toBe(200);
        expect(await next, path).toEqual({ kind: 'notifications', count });
      }
      // Deleted on one device: the owner's other devices drop it from their open lists.
      expect(await removedOnSecond).toEqual({ _id: created._id });
      // A stranger's attempt changes nothing and tells the owner nothing.
      await settle();
      expect(otherNotifications).toEqual([]);
      expect(otherCounts).toEqual([]);
      expect(otherRemovals).toEqual([]);
    } finally {
      for (const socket of [ownerSocket, secondOwnerSocket, otherSocket]) socket.close();
    }
  });

  it('keeps one unread message notification per conversation', async () => {
    const user = await signIn();
    const socket = await connectSocket(app, { token: user.token });
    try {
      const events = collect<Notification>(socket, 'notification');
      const service = app.notifications.notifications;
      const first = await service.notifyMessage(user.userId, {
        conversationId: 'conv-1',
        senderName: 'Ana',
        preview: '¿Vamos al gimnasio?',
      });
      expect(first).toMatchObject({
        type: 'message',
        title: 'Nuevo mensaje de Ana',
        body: '¿Vamos al gimnasio?',
        referenceId: 'conv-1',
        referenceType: 'conversation',
      });
      clock.advance(MINUTE);
      const second = await service.notifyMessage(user.userId, {
        conversationId: 'conv-1',
        senderName: 'Ana',
        preview: 'Hola',
      });
      clock.advance(MINUTE);
      const third = await service.notifyMessage(user.userId, {
        conversationId: 'conv-1',
        senderName: 'Ana',
        preview: '¿?',
      });
      expect(second._id).toBe(first._id);
      expect(third).toMatchObject({ _id: first._id, body: '3 mensajes nuevos de Ana', isRead: false });
      expect(Date.parse(third.createdAt)).toBeGreaterThan(Date.parse(first.createdAt));
      clock.advance(MINUTE);
      const other = await service.notifyMessage(user.userId, {
        conversationId: 'conv-2',
        senderName: 'Luis',
        preview: 'Hey',
      });
      expect(other._id).not.toBe(first._id);

      const messages = await list(user.token, '?type=message');
      expect(messages.notifications.map((n) => n._id)).toEqual([other._id, first._id]);
      expect(await unreadCount(user.token)).toBe(3);

      // Once read, the next message starts a fresh notification; the old one can go back to unread.
      await api.call('PATCH', `/notifications/${first._id}/read`, { token: user.token });
      const fresh = await service.notifyMessage(user.userId, {
        conversationId: 'conv-1',
        senderName: 'Ana',
        preview: 'Nuevo',
      });
      expect(fresh._id).not.toBe(first._id);
      expect(fresh.body).toBe('Nuevo');
      expect((await api.call('PATCH', `/notifications/${first._id}/unread`, { token: user.token })).status).toBe(200);
      const again = await service.notifyMessage(user.userId, {
        conversationId: 'conv-1',
        senderName: 'Ana',
        preview: 'Otro',
      });
      expect(again._id).toBe(fresh._id);
      await settle();
      expect(events.filter((n) => n._id === first._id)).toHaveLength(3);
    } finally {
      socket.close();
    }
  });

  it('collapses concurrent messages of one conversation into one notification', async () => {
    const user = await signIn();
    const service = app.notifications.notifications;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        service.notifyMessage(user.userId, { conversationId: 'busy', senderName: 'Eva', preview: `m${index}` }),
      ),
    );
    expect(new Set(results.map((n) => n._id)).size).toBe(1);
    const stored = (await list(user.token, '?type=message')).notifications;
    expect(stored).toHaveLength(1);
    expect(stored[0]?.body).toBe('8 mensajes nuevos de Eva');
  });

  it('sends the streak reminder once a day, from 18:00 in Madrid, to streaks about to end', async () => {
    const keeper = await signIn();
    const idle = await signIn();
    const optedOut = await signIn();
    for (const user of [keeper, idle, optedOut]) {
      expect((await api.post('/auth/update-streak', { userId: user.userId }, user.token)).status).toBe(200);
    }
    const settings = await api.call('PUT', '/settings', {
      token: optedOut.token,
      body: { notifications: { trainingReminders: false } },
    });
    expect(settings.status).toBe(200);
    // The next day: idle does not come back; keeper logs in again before the evening.
    clock.advance(DAY);
    expect((await api.post('/auth/update-streak', { userId: keeper.userId }, keeper.token)).status).toBe(200);
    const service = app.notifications.notifications;
    expect(await service.sendStreakReminders()).toBe(0); // 10:00 in Madrid: too early
    clock.advance(8 * HOUR); // 18:00 in Madrid
    await service.sendStreakReminders();
    const reminders = async (token: string) => (await list(token, '?type=reminder')).notifications;
    const idleReminders = await reminders(idle.token);
    expect(idleReminders).toHaveLength(1);
    expect(idleReminders[0]).toMatchObject({ title: '¡No pierdas tu racha!', body: expect.stringContaining('1 día') });
    expect(await reminders(keeper.token)).toHaveLength(0);
    expect(await reminders(optedOut.token)).toHaveLength(0);

    // Again the same evening, even from several nodes at once: nothing more.
    clock.advance(HOUR);
    await Promise.all([service.sendStreakReminders(), service.sendStreakReminders()]);
    expect(await reminders(idle.token)).toHaveLength(1);
  });
});
