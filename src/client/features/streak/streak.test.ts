import { describe, expect, it } from 'vitest';
import { streakLabel } from './streak.ts';

describe('streak label (spec 001 §2)', () => {
  it('says "¡Primer día!" on day 1 and "Racha: N días" after', () => {
    expect(streakLabel(1)).toBe('¡Primer día!');
    expect(streakLabel(2)).toBe('Racha: 2 días');
    expect(streakLabel(30)).toBe('Racha: 30 días');
  });
  it('shows nothing without a streak', () => {
    expect(streakLabel(0)).toBeNull();
    expect(streakLabel(undefined)).toBeNull();
    expect(streakLabel(Number.NaN)).toBeNull();
  });
});
