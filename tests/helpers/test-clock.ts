import type { Clock } from '../../src/server/infra/clock.ts';

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export type TestClock = Clock & {
  advance(ms: number): void;
  set(instant: Date | string): void;
};

/** A clock that only moves when told to: the server reads it, tests move it (no sleeping). */
export function createTestClock(start: Date | string = '2026-03-10T09:00:00.000Z'): TestClock {
  let nowMs = new Date(start).getTime();
  return {
    now: () => new Date(nowMs),
    advance(ms) {
      nowMs += ms;
    },
    set(instant) {
      nowMs = new Date(instant).getTime();
    },
  };
}
