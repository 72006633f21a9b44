import { describe, expect, it } from 'vitest';
import type { Notification } from '#shared/notifications/notification-schemas';
import {
  appendPage,
  hasCountGrown,
  isBodyLong,
  matchesFilter,
  NOTIFICATION_FILTERS,
  notificationTarget,
  notificationTimeLine,
  previewBody,
  unreadDelta,
  upsertNotification,
} from './notification-list.ts';

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

describe('notification list rules (spec 001 §2, §4, §9)', () => {
  it('offers the filter chips in the spec order', () => {
    expect(NOTIFICATION_FILTERS.map((filter) => filter.label)).toEqual([
      'Todas',
      'Bienvenida',
      'Matches',
      'Mensajes',
      'Sistema',
      'Actividad',
      'Recordatorios',
    ]);
  });

  it('cuts bodies over 100 characters to 100 plus "..."', () => {
    const exact = 'a'.repeat(100);
    expect(isBodyLong(exact)).toBe(false);
    expect(previewBody(exact)).toBe(exact);
    const long = `${'b'.repeat(100)}cola`;
    expect(isBodyLong(long)).toBe(true);
    expect(previewBody(long)).toBe(`${'b'.repeat(100)}...`);
  });

  it('filters by type, "all" keeps everything', () => {
    expect(matchesFilter({ type: 'match' }, 'all')).toBe(true);
    expect(matchesFilter({ type: 'match' }, 'match')).toBe(true);
    expect(matchesFilter({ type: 'match' }, 'message')).toBe(false);
  });

  it('puts a new notification at the top and replaces one with the same _id', () => {
    const list = [notification('a'), notification('b')];
    const added = upsertNotification(list, notification('c'));
    expect(added.list.map((item) => item._id)).toEqual(['c', 'a', 'b']);
    expect(added.previous).toBeUndefined();
    const replaced = upsertNotification(added.list, notification('b', { body: '3 mensajes nuevos' }));
    expect(replaced.list.map((item) => item._id)).toEqual(['b', 'c', 'a']);
    expect(replaced.list[0]?.body).toBe('3 mensajes nuevos');
    expect(replaced.previous?.body).toBe('Texto');
  });

  it('appends a further page without duplicates', () => {
    expect(
      appendPage([notification('a'), notification('b')], [notification('b'), notification('c')]).map((n) => n._id),
    ).toEqual(['a', 'b', 'c']);
  });

  it('raises the count only for a new unread one', () => {
    expect(unreadDelta({ isRead: false })).toBe(1);
    expect(unreadDelta({ isRead: true })).toBe(0);
    expect(unreadDelta({ isRead: false }, { isRead: false })).toBe(0);
    expect(unreadDelta({ isRead: false }, { isRead: true })).toBe(1);
  });

  it('opens the conversation of a message notification', () => {
    expect(notificationTarget({ type: 'message', referenceId: 'c 1', referenceType: 'conversation' })).toBe(
      '/messages/c%201',
    );
    expect(notificationTarget({ type: 'message', referenceId: 'c1', referenceType: null })).toBe('/messages/c1');
    expect(notificationTarget({ type: 'match', referenceId: 'c2', referenceType: 'conversation' })).toBe(
      '/messages/c2',
    );
    expect(notificationTarget({ type: 'match', referenceId: null, referenceType: null })).toBe('/matches');
    expect(notificationTarget({ type: 'welcome', referenceId: null, referenceType: null })).toBeNull();
    // A quedada's reminder points at its conversation.
    expect(notificationTarget({ type: 'reminder', referenceId: 'c3', referenceType: 'conversation' })).toBe(
      '/messages/c3',
    );
    expect(notificationTarget({ type: 'reminder', referenceId: 'c3', referenceType: null })).toBeNull();
    expect(notificationTarget({ type: 'system', referenceId: null, referenceType: 'verification' })).toBe('/config');
    // An open session's notices open the session.
    expect(notificationTarget({ type: 'activity', referenceId: 's 1', referenceType: 'openSession' })).toBe(
      '/entrenos/abiertos/s%201',
    );
  });

  it('rings the bell only when the count grows', () => {
    expect(hasCountGrown(undefined, 4)).toBe(false);
    expect(hasCountGrown(3, 4)).toBe(true);
    expect(hasCountGrown(4, 4)).toBe(false);
    expect(hasCountGrown(4, 0)).toBe(false);
  });
});

describe('the time line of a card (spec 001 §2 date text, §9 notification relative time)', () => {
  const now = new Date('2026-03-10T12:00:00.000Z'); // 13:00 in Madrid

  it('says "Hace un momento" under a minute, beside the date text', () => {
    expect(notificationTimeLine('2026-03-10T11:59:30.000Z', now)).toBe('Hoy a las 12:59 · Hace un momento');
  });

  it('counts minutes, hours and days up to 6 beside the date text', () => {
    expect(notificationTimeLine('2026-03-10T11:55:00.000Z', now)).toBe('Hoy a las 12:55 · Hace 5 minutos');
    expect(notificationTimeLine('2026-03-09T20:00:00.000Z', now)).toBe('Ayer a las 21:00 · Hace 16 horas');
    expect(notificationTimeLine('2026-03-07T12:00:00.000Z', now)).toBe('7 de marzo · Hace 3 días');
  });

  it('writes the long date once after 6 days', () => {
    expect(notificationTimeLine('2026-02-20T12:00:00.000Z', now)).toBe('20 de febrero');
  });
});
