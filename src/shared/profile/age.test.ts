import { describe, expect, it } from 'vitest';
import { ageFromBirthDate } from './age.ts';

describe('ageFromBirthDate', () => {
  it('counts whole years, turning older on the birthday itself', () => {
    expect(ageFromBirthDate('2007-06-15', '2025-06-14')).toBe(17);
    expect(ageFromBirthDate('2007-06-15', '2025-06-15')).toBe(18);
    expect(ageFromBirthDate('2007-06-15', '2025-12-31')).toBe(18);
    expect(ageFromBirthDate('1990-01-01', '2025-01-01')).toBe(35);
  });

  it('makes someone born on 29 February a year older on 1 March in common years', () => {
    expect(ageFromBirthDate('2004-02-29', '2022-02-28')).toBe(17);
    expect(ageFromBirthDate('2004-02-29', '2022-03-01')).toBe(18);
    expect(ageFromBirthDate('2004-02-29', '2024-02-29')).toBe(20);
  });

  it('reads a Date as its Madrid calendar day', () => {
    // 22:30 UTC on 14 June is already 00:30 on 15 June in Madrid (summer time, UTC+2).
    expect(ageFromBirthDate('2007-06-15', new Date('2025-06-14T22:30:00Z'))).toBe(18);
    expect(ageFromBirthDate('2007-06-15', new Date('2025-06-14T21:30:00Z'))).toBe(17);
  });

  it('is negative for a birth date in the future and NaN for anything that is not a date', () => {
    expect(ageFromBirthDate('2030-01-01', '2025-01-01')).toBeLessThan(0);
    expect(ageFromBirthDate('2001-02-30', '2025-01-01')).toBeNaN();
    expect(ageFromBirthDate('15/06/1990', '2025-01-01')).toBeNaN();
    expect(ageFromBirthDate('1990-06-15', 'mañana')).toBeNaN();
    expect(ageFromBirthDate('1990-06-15', new Date(Number.NaN))).toBeNaN();
  });
});
