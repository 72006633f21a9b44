import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  type AttendanceMark,
  AttendanceRequestSchema,
  addReliability,
  attendanceVerdicts,
  nextWeeklyStart,
  openSessionReliability,
} from './open-session-after.ts';

const mark = (markerId: string, subjectId: string, came: boolean): AttendanceMark => ({ markerId, subjectId, came });

describe('«¿Quién vino?» verdicts', () => {
  it('a strict majority of the others’ marks decides; a tie or no mark decides nothing', () => {
    const verdicts = attendanceVerdicts([
      mark('h', 'a', true),
      mark('b', 'a', true),
      mark('c', 'a', false),
      mark('h', 'b', true),
      mark('a', 'b', false),
      mark('a', 'c', true),
    ]);
    expect(verdicts.get('a')).toBe('came');
    expect(verdicts.has('b')).toBe(false);
    expect(verdicts.get('c')).toBe('came');
    expect(verdicts.has('h')).toBe(false);
  });

  it('ignores a mark about oneself', () => {
    expect(attendanceVerdicts([mark('a', 'a', true)]).size).toBe(0);
  });

  it('one spiteful no-show cannot count against the others: the marks of someone found missing do not count', () => {
    // c did not come (h and a say so) and says nobody else came either.
    const marks = [
      mark('h', 'c', false),
      mark('a', 'c', false),
      mark('c', 'h', false),
      mark('c', 'a', false),
      mark('h', 'a', true),
    ];
    const verdicts = attendanceVerdicts(marks);
    expect(verdicts.get('c')).toBe('missed');
    expect(verdicts.get('a')).toBe('came');
    expect(verdicts.has('h')).toBe(false);
  });

  it('two people who each say the other did not come: the word of one against the other counts for nobody', () => {
    expect(attendanceVerdicts([mark('h', 'a', false), mark('a', 'h', false)]).size).toBe(0);
    // One says the other missed it, the other says they came: the first is believed.
    const verdicts = attendanceVerdicts([mark('h', 'a', false), mark('a', 'h', true)]);
    expect(verdicts.get('a')).toBe('missed');
    expect(verdicts.has('h')).toBe(false);
  });
});

describe('open sessions in reliability', () => {
  it('adds one kept per session the person came to, one counted per session they missed', () => {
    const sessions = [
      [mark('h', 'a', true)],
      [mark('h', 'a', true), mark('b', 'a', true)],
      [mark('h', 'a', false), mark('b', 'a', false), mark('a', 'h', true)],
      [mark('h', 'a', true), mark('b', 'a', false)],
      [mark('h', 'b', true)],
    ];
    expect(openSessionReliability('a', sessions)).toEqual({ kept: 2, counted: 3 });
    expect(openSessionReliability('b', sessions)).toEqual({ kept: 1, counted: 1 });
    expect(openSessionReliability('z', sessions)).toEqual({ kept: 0, counted: 0 });
    expect(addReliability({ kept: 8, counted: 9 }, { kept: 2, counted: 3 })).toEqual({ kept: 10, counted: 12 });
    expect(addReliability({ kept: 1, counted: 1 }, null)).toEqual({ kept: 1, counted: 1 });
  });
});

describe('the marks’ request', () => {
  const user = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
  it('takes 1 to 7 marks of a user id and a yes or no, nothing else', () => {
    expect(
      v.safeParse(AttendanceRequestSchema, { clientId: 'c1', marks: [{ userId: user, came: true }] }).success,
    ).toBe(true);
    for (const marks of [
      [],
      [{ userId: 'nadie', came: true }],
      [{ userId: user, came: 'sí' }],
      [{ userId: user, came: true, extra: 1 }],
      Array.from({ length: 8 }, () => ({ userId: user, came: true })),
    ]) {
      expect(v.safeParse(AttendanceRequestSchema, { clientId: 'c1', marks }).success).toBe(false);
    }
  });
});

describe('«Repetir la próxima semana»', () => {
  it('keeps the Madrid weekday and time, a week later, across a clock change', () => {
    // Thursday 2026-03-26 19:00 in Madrid (UTC+1); the clocks move on Sunday the 29th.
    const start = new Date('2026-03-26T18:00:00Z');
    expect(nextWeeklyStart(start, new Date('2026-03-26T20:00:00Z')).toISOString()).toBe('2026-04-02T17:00:00.000Z');
  });
  it('skips to the first week still ahead when the session is older', () => {
    const start = new Date('2026-03-03T18:00:00Z'); // Tuesday 19:00
    expect(nextWeeklyStart(start, new Date('2026-03-18T09:00:00Z')).toISOString()).toBe('2026-03-24T18:00:00.000Z');
    // Exactly at a weekly start: that one is not ahead any more.
    expect(nextWeeklyStart(start, new Date('2026-03-10T18:00:00Z')).toISOString()).toBe('2026-03-17T18:00:00.000Z');
  });
});
