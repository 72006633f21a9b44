import { describe, expect, it, vi } from 'vitest';
import {
  dayNumber,
  isIsoDay,
  longSpanishDate,
  madridClock,
  madridDayKey,
  madridDaysBetween,
} from './madrid-calendar.ts';

describe('Madrid calendar', () => {
  it('reads the calendar day in Madrid, in winter (UTC+1) and summer (UTC+2)', () => {
    expect(madridDayKey('2025-01-15T22:59:00Z')).toBe('2025-01-15');
    expect(madridDayKey('2025-01-15T23:00:00Z')).toBe('2025-01-16');
    expect(madridDayKey('2025-07-15T21:59:00Z')).toBe('2025-07-15');
    expect(madridDayKey('2025-07-15T22:00:00Z')).toBe('2025-07-16');
  });

  it('counts calendar days, not 24-hour periods', () => {
    expect(madridDaysBetween('2025-11-20T22:50:00Z', '2025-11-20T23:30:00Z')).toBe(1);
    expect(madridDaysBetween('2025-11-20T00:00:00Z', '2025-11-20T21:00:00Z')).toBe(0);
    // Across the October clock change (a 25-hour day).
    expect(madridDaysBetween('2025-10-25T22:30:00Z', '2025-10-26T22:30:00Z')).toBe(0);
    expect(madridDaysBetween('2025-12-31T12:00:00Z', '2026-01-01T12:00:00Z')).toBe(1);
  });

  it('writes the time on a 24-hour clock and long dates in Spanish', () => {
    expect(madridClock('2025-11-21T23:05:00Z')).toBe('00:05');
    expect(madridClock('2025-07-01T07:09:00Z')).toBe('09:09');
    expect(longSpanishDate('2025-11-21T10:00:00Z', '2025-12-01T10:00:00Z')).toBe('21 de noviembre');
    expect(longSpanishDate('2024-11-21T10:00:00Z', '2025-12-01T10:00:00Z')).toBe('21 de noviembre de 2024');
  });

  it('recognises real ISO calendar days only', () => {
    expect(isIsoDay('2024-02-29')).toBe(true);
    expect(isIsoDay('2025-02-29')).toBe(false);
    expect(isIsoDay('2025-13-01')).toBe(false);
    expect(isIsoDay('2025-1-01')).toBe(false);
    expect(dayNumber('1970-01-02')).toBe(1);
  });
});

describe('Madrid calendar at load', () => {
  it('builds no date formatter until a date is formatted (the login page starts with none, issue 34)', async () => {
    vi.resetModules();
    const Original = Intl.DateTimeFormat;
    let built = 0;
    class Counted extends Original {
      constructor(...options: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        super(...options);
        built += 1;
      }
    }
    Intl.DateTimeFormat = Counted as typeof Intl.DateTimeFormat;
    try {
      const calendar = await import('./madrid-calendar.ts');
      expect(built).toBe(0);
      expect(calendar.madridClock('2025-01-15T08:05:00Z')).toBe('09:05');
      calendar.madridClock('2025-01-15T09:05:00Z');
      expect(built, 'built once, then reused').toBe(1);
    } finally {
      Intl.DateTimeFormat = Original;
    }
  });
});
