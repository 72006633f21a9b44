import { describe, expect, it } from 'vitest';
import { nextStreak, streakDay } from './streak.ts';

describe('login streak (spec 000 §4)', () => {
  it('leaves the streak unchanged when the last login was today', () => {
    expect(nextStreak({ streak: 4, lastLoginDate: '2026-03-10' }, '2026-03-10')).toEqual({
      streak: 4,
      lastLoginDate: '2026-03-10',
    });
  });

  it('adds one when the last login was yesterday, across months and years', () => {
    expect(nextStreak({ streak: 4, lastLoginDate: '2026-03-09' }, '2026-03-10').streak).toBe(5);
    expect(nextStreak({ streak: 1, lastLoginDate: '2026-02-28' }, '2026-03-01').streak).toBe(2);
    expect(nextStreak({ streak: 9, lastLoginDate: '2025-12-31' }, '2026-01-01').streak).toBe(10);
    expect(nextStreak({ streak: 2, lastLoginDate: '2028-02-28' }, '2028-02-29').streak).toBe(3);
  });

  it('starts again at 1 after a gap, a future date or no previous login', () => {
    expect(nextStreak({ streak: 4, lastLoginDate: '2026-03-08' }, '2026-03-10')).toEqual({
      streak: 1,
      lastLoginDate: '2026-03-10',
    });
    expect(nextStreak({ streak: 4, lastLoginDate: '2026-03-11' }, '2026-03-10').streak).toBe(1);
    expect(nextStreak({ streak: 0, lastLoginDate: null }, '2026-03-10').streak).toBe(1);
  });

  it('never reports 0 for a user who logged in today', () => {
    expect(nextStreak({ streak: 0, lastLoginDate: '2026-03-10' }, '2026-03-10').streak).toBe(1);
  });

  it('counts days in Madrid, including around midnight and summer time', () => {
    // 23:30 UTC on 9 March is 00:30 on 10 March in Madrid (CET, UTC+1).
    expect(streakDay(new Date('2026-03-09T23:30:00Z'))).toBe('2026-03-10');
    // 22:30 UTC on 1 July is 00:30 on 2 July in Madrid (CEST, UTC+2).
    expect(streakDay(new Date('2026-07-01T22:30:00Z'))).toBe('2026-07-02');
    expect(streakDay(new Date('2026-07-01T21:30:00Z'))).toBe('2026-07-01');
  });

  it('refuses a malformed day', () => {
    expect(() => nextStreak({ streak: 1, lastLoginDate: null }, '10/03/2026')).toThrow(RangeError);
    expect(nextStreak({ streak: 7, lastLoginDate: 'garbage' }, '2026-03-10').streak).toBe(1);
  });
});
