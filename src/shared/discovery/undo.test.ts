import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LastSwipe, UNDO_WINDOW_MS, undoAvailability } from './undo.ts';

const last = (overrides: Partial<LastSwipe> = {}): LastSwipe => ({
  targetUserId: 'u-1',
  action: 'like',
  clientId: 'c-1',
  at: 1_000_000,
  isMatch: false,
  ...overrides,
});

describe('the undo window (docs/decisions/0023)', () => {
  it('is ten seconds long', () => {
    expect(UNDO_WINDOW_MS).toBe(10_000);
  });

  it('offers the undo from the swipe until the window ends, counting down', () => {
    expect(undoAvailability(last(), 1_000_000)).toEqual({ status: 'available', remainingMs: 10_000 });
    expect(undoAvailability(last(), 1_004_000)).toEqual({ status: 'available', remainingMs: 6_000 });
    expect(undoAvailability(last(), 1_009_999)).toEqual({ status: 'available', remainingMs: 1 });
    expect(undoAvailability(last(), 1_010_000)).toEqual({ status: 'none' });
  });

  it('offers nothing without a swipe, or with a clock set back before it', () => {
    expect(undoAvailability(null, 5)).toEqual({ status: 'none' });
    expect(undoAvailability(last(), 999_999)).toEqual({ status: 'none' });
  });

  it('says a swipe that made a match cannot be undone, while the window lasts', () => {
    expect(undoAvailability(last({ isMatch: true }), 1_002_000)).toEqual({ status: 'matched' });
    expect(undoAvailability(last({ isMatch: true }), 1_010_000)).toEqual({ status: 'none' });
  });

  it('for any action and time: available exactly inside the window of an unmatched swipe', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('dislike', 'like', 'superlike' as const),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: -50_000, max: 50_000 }),
        fc.boolean(),
        (action, at, elapsed, isMatch) => {
          const state = undoAvailability(last({ action, at, isMatch }), at + elapsed);
          const isInside = elapsed >= 0 && elapsed < UNDO_WINDOW_MS;
          if (!isInside) return state.status === 'none';
          if (isMatch) return state.status === 'matched';
          return state.status === 'available' && state.remainingMs === UNDO_WINDOW_MS - elapsed;
        },
      ),
    );
  });
});
