import { describe, expect, it } from 'vitest';
import { pairStreakWeeks, reliabilityOf, reliabilityText, sharedAvailabilityText } from './quedada-record.ts';
import { durationText, instantToMadridLocal, madridLocalToInstant, nextSlotTimes } from './quedada-time.ts';

const A = 'a';
const B = 'b';

describe('pair streak', () => {
  const now = new Date('2026-03-18T10:00:00Z'); // a Wednesday
  it('counts consecutive Madrid weeks back from this week, or from last week while this one has none', () => {
    expect(pairStreakWeeks([], now)).toBe(0);
    expect(pairStreakWeeks(['2026-03-16T18:00:00Z', '2026-03-10T18:00:00Z', '2026-03-03T18:00:00Z'], now)).toBe(3);
    expect(pairStreakWeeks(['2026-03-10T18:00:00Z', '2026-03-03T18:00:00Z'], now)).toBe(2);
    expect(pairStreakWeeks(['2026-03-03T18:00:00Z'], now)).toBe(0);
    // Two in one week count once; a gap ends it.
    expect(pairStreakWeeks(['2026-03-16T08:00:00Z', '2026-03-17T08:00:00Z', '2026-03-03T08:00:00Z'], now)).toBe(1);
  });
  it('uses Madrid weeks: Sunday 23:30 in Madrid is still that week', () => {
    // Sunday 2026-03-15 23:30 Madrid = 22:30 UTC; Monday 00:30 Madrid = Sunday 23:30 UTC.
    expect(pairStreakWeeks(['2026-03-15T22:30:00Z'], new Date('2026-03-16T09:00:00Z'))).toBe(1);
    expect(pairStreakWeeks(['2026-03-15T23:30:00Z'], new Date('2026-03-16T09:00:00Z'))).toBe(1);
  });
});

describe('reliability', () => {
  const done = {
    status: 'done' as const,
    cancelledBy: null,
    isLateCancel: false,
    confirmations: { [A]: true, [B]: true },
  };
  it('kept are the done ones; a late cancel counts against who cancelled; a "No" against the other', () => {
    const list = [
      done,
      done,
      {
        status: 'cancelled' as const,
        cancelledBy: A,
        isLateCancel: true,
        confirmations: {} as Record<string, boolean | null>,
      },
      {
        status: 'cancelled' as const,
        cancelledBy: B,
        isLateCancel: true,
        confirmations: {} as Record<string, boolean | null>,
      },
      {
        status: 'cancelled' as const,
        cancelledBy: A,
        isLateCancel: false,
        confirmations: {} as Record<string, boolean | null>,
      },
      { status: 'missed' as const, cancelledBy: null, isLateCancel: false, confirmations: { [A]: true, [B]: false } },
    ];
    expect(reliabilityOf(A, list)).toEqual({ kept: 2, counted: 4 });
    expect(reliabilityOf(B, list)).toEqual({ kept: 2, counted: 3 });
    expect(reliabilityText({ kept: 8, counted: 9 })).toBe('8 de 9 quedadas cumplidas');
    expect(reliabilityText({ kept: 1, counted: 1 })).toBe('1 de 1 quedada cumplida');
  });
});

describe('availability and times', () => {
  it('says which slots both share', () => {
    expect(sharedAvailabilityText(['Jueves tarde', 'Martes tarde'])).toBe(
      'Los dos podéis: martes y jueves por la tarde',
    );
    expect(sharedAvailabilityText(['Lunes mañana', 'Sábado tarde'])).toBe(
      'Los dos podéis: lunes por la mañana; sábado por la tarde',
    );
    expect(sharedAvailabilityText([])).toBeNull();
  });
  it('reads form times as Madrid wall-clock time, in winter and summer', () => {
    expect(madridLocalToInstant('2026-03-12', '18:30')?.toISOString()).toBe('2026-03-12T17:30:00.000Z');
    expect(madridLocalToInstant('2026-07-01', '09:00')?.toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(madridLocalToInstant('2026-13-01', '09:00')).toBeNull();
    expect(madridLocalToInstant('2026-07-01', '25:00')).toBeNull();
    expect(instantToMadridLocal('2026-07-01T07:00:00.000Z')).toEqual({ day: '2026-07-01', time: '09:00' });
  });
  it('suggests the next occurrences of shared slots', () => {
    const now = new Date('2026-03-10T09:00:00Z'); // Tuesday 10:00 in Madrid
    expect(nextSlotTimes(['Martes tarde', 'Jueves mañana'], now)).toEqual([
      { day: '2026-03-10', time: '18:30', slot: 'Martes tarde' },
      { day: '2026-03-12', time: '09:00', slot: 'Jueves mañana' },
      { day: '2026-03-17', time: '18:30', slot: 'Martes tarde' },
    ]);
    expect(durationText(90)).toBe('1 h 30 min');
    expect(durationText(45)).toBe('45 min');
    expect(durationText(120)).toBe('2 h');
  });
});
