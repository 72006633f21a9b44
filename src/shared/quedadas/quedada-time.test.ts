import { describe, expect, it } from 'vitest';
import { busyReasonText, plannedDayText } from './quedada-time.ts';

// Saturday 28 November 2026, 10:00 in Madrid.
const NOW = new Date('2026-11-28T09:00:00Z');

describe('plannedDayText', () => {
  it('says hoy, mañana, the weekday within the week, the date beyond it (Madrid days)', () => {
    expect(plannedDayText('2026-11-28T18:00:00Z', NOW)).toBe('hoy');
    // 23:30 UTC on the 28th is already Sunday in Madrid.
    expect(plannedDayText('2026-11-28T23:30:00Z', NOW)).toBe('mañana');
    expect(plannedDayText('2026-11-30T08:00:00Z', NOW)).toBe('el lunes');
    expect(plannedDayText('2026-12-04T17:00:00Z', NOW)).toBe('el viernes');
    expect(plannedDayText('2026-12-07T17:00:00Z', NOW)).toBe('el 7 de diciembre');
  });
});

describe('busyReasonText', () => {
  it('names the planned day of an accepted quedada, and a proposal still being agreed', () => {
    expect(busyReasonText({ status: 'accepted', startsAt: '2026-11-30T08:00:00Z' }, NOW)).toBe(
      'Ya tenéis un entreno el lunes',
    );
    expect(busyReasonText({ status: 'countered', startsAt: '2026-11-29T17:00:00Z' }, NOW)).toBe(
      'Ya hay un entreno propuesto para mañana',
    );
  });
});
