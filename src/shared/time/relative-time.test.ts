import { describe, expect, it } from 'vitest';
import { listRelativeTime, notificationDateText, notificationRelativeTime } from './relative-time.ts';

// Friday 21 November 2025, 13:00 in Madrid (UTC+1).
const NOW = new Date('2025-11-21T12:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe('listRelativeTime (spec 001 §9, lists)', () => {
  it('says "Ahora" under a minute, and for clocks slightly ahead', () => {
    expect(listRelativeTime(ago(0), NOW)).toBe('Ahora');
    expect(listRelativeTime(ago(59_999), NOW)).toBe('Ahora');
    expect(listRelativeTime(ago(-5 * MINUTE), NOW)).toBe('Ahora');
  });

  it('counts minutes, then hours', () => {
    expect(listRelativeTime(ago(MINUTE), NOW)).toBe('Hace 1 min');
    expect(listRelativeTime(ago(59 * MINUTE), NOW)).toBe('Hace 59 min');
    expect(listRelativeTime(ago(HOUR), NOW)).toBe('Hace 1 h');
    // 23:00 last night: still hours, the more precise answer under a day.
    expect(listRelativeTime(new Date('2025-11-20T22:00:00Z'), NOW)).toBe('Hace 14 h');
  });

  it('says "Ayer" for yesterday, then days under a week', () => {
    expect(listRelativeTime(new Date('2025-11-20T08:00:00Z'), NOW)).toBe('Ayer');
    expect(listRelativeTime(new Date('2025-11-19T13:00:00Z'), NOW)).toBe('Hace 2 días');
    expect(listRelativeTime(ago(6 * DAY), NOW)).toBe('Hace 6 días');
  });

  it('counts weeks up to 30 days, then shows the date', () => {
    expect(listRelativeTime(ago(7 * DAY), NOW)).toBe('Hace 1 semana');
    expect(listRelativeTime(ago(14 * DAY), NOW)).toBe('Hace 2 semanas');
    expect(listRelativeTime(ago(30 * DAY), NOW)).toBe('Hace 4 semanas');
    expect(listRelativeTime(ago(31 * DAY), NOW)).toBe('21/10/2025');
    expect(listRelativeTime('2023-03-05T10:00:00Z', NOW)).toBe('05/03/2023');
  });

  it('reads "" for a date that does not parse', () => {
    expect(listRelativeTime('no es una fecha', NOW)).toBe('');
  });
});

describe('notificationRelativeTime (spec 001 §9, notifications)', () => {
  it('says "Hace un momento" under a minute', () => {
    expect(notificationRelativeTime(ago(0), NOW)).toBe('Hace un momento');
    expect(notificationRelativeTime(ago(59 * 1000), NOW)).toBe('Hace un momento');
  });

  it('counts minutes, hours and days up to 6, singular and plural', () => {
    expect(notificationRelativeTime(ago(MINUTE), NOW)).toBe('Hace 1 minuto');
    expect(notificationRelativeTime(ago(5 * MINUTE), NOW)).toBe('Hace 5 minutos');
    expect(notificationRelativeTime(ago(HOUR), NOW)).toBe('Hace 1 hora');
    expect(notificationRelativeTime(ago(23 * HOUR + 59 * MINUTE), NOW)).toBe('Hace 23 horas');
    expect(notificationRelativeTime(ago(DAY), NOW)).toBe('Hace 1 día');
    expect(notificationRelativeTime(ago(6 * DAY + 23 * HOUR), NOW)).toBe('Hace 6 días');
  });

  it('then writes a long Spanish date, with the year only when it is not this year', () => {
    expect(notificationRelativeTime(ago(7 * DAY), NOW)).toBe('14 de noviembre');
    expect(notificationRelativeTime('2024-11-21T10:00:00Z', NOW)).toBe('21 de noviembre de 2024');
  });

  it('reads "" for a date that does not parse', () => {
    expect(notificationRelativeTime(Number.NaN, NOW)).toBe('');
  });
});

describe('notificationDateText (spec 001 §2)', () => {
  it('says "Hoy a las HH:mm" for today in Madrid', () => {
    expect(notificationDateText('2025-11-21T07:05:00Z', NOW)).toBe('Hoy a las 08:05');
    expect(notificationDateText('2025-11-20T23:00:00Z', NOW)).toBe('Hoy a las 00:00');
  });

  it('says "Ayer a las HH:mm" for yesterday in Madrid, even minutes ago across midnight', () => {
    expect(notificationDateText('2025-11-20T22:40:00Z', NOW)).toBe('Ayer a las 23:40');
    const justAfterMidnight = new Date('2025-11-20T23:30:00Z');
    expect(notificationDateText('2025-11-20T22:50:00Z', justAfterMidnight)).toBe('Ayer a las 23:50');
    expect(notificationDateText('2025-12-31T10:00:00Z', '2026-01-01T10:00:00Z')).toBe('Ayer a las 11:00');
  });

  it('otherwise writes the long date, with the year only when it is not this year', () => {
    expect(notificationDateText('2025-11-10T10:00:00Z', NOW)).toBe('10 de noviembre');
    expect(notificationDateText('2024-12-31T10:00:00Z', NOW)).toBe('31 de diciembre de 2024');
    expect(notificationDateText('2025-11-22T10:00:00Z', NOW)).toBe('22 de noviembre');
    expect(notificationDateText('nunca', NOW)).toBe('');
  });
});
