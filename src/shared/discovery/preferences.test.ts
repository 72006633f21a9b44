import { describe, expect, it } from 'vitest';
import type { GenderPreference } from '../profile/options.ts';
import { matchesPreferences } from './preferences.ts';

const viewer = (gender_preference: GenderPreference, min = 18, max = 99) => ({
  preferences: { gender_preference, age_range: { min, max } },
});

describe('matchesPreferences (one direction)', () => {
  it('"Ambos" accepts everyone: men, women, non-binary people and those who did not say', () => {
    for (const gender of ['male', 'female', 'non-binary', null, undefined] as const) {
      expect(matchesPreferences(viewer('both'), { gender, age: 30 })).toBe(true);
    }
  });

  it('"Hombres" and "Mujeres" accept only that gender', () => {
    expect(matchesPreferences(viewer('male'), { gender: 'male', age: 30 })).toBe(true);
    expect(matchesPreferences(viewer('male'), { gender: 'female', age: 30 })).toBe(false);
    expect(matchesPreferences(viewer('male'), { gender: 'non-binary', age: 30 })).toBe(false);
    expect(matchesPreferences(viewer('male'), { gender: null, age: 30 })).toBe(false);
    expect(matchesPreferences(viewer('female'), { gender: 'female', age: 30 })).toBe(true);
    expect(matchesPreferences(viewer('female'), { gender: 'male', age: 30 })).toBe(false);
    expect(matchesPreferences(viewer('female'), { gender: 'non-binary', age: 30 })).toBe(false);
  });

  it('accepts ages within the range, both ends included', () => {
    expect(matchesPreferences(viewer('both', 25, 35), { gender: 'male', age: 24 })).toBe(false);
    expect(matchesPreferences(viewer('both', 25, 35), { gender: 'male', age: 25 })).toBe(true);
    expect(matchesPreferences(viewer('both', 25, 35), { gender: 'male', age: 35 })).toBe(true);
    expect(matchesPreferences(viewer('both', 25, 35), { gender: 'male', age: 36 })).toBe(false);
    expect(matchesPreferences(viewer('both'), { gender: 'male', age: Number.NaN })).toBe(false);
  });

  it('uses the defaults (both genders, 18-99) when the viewer set no preferences', () => {
    expect(matchesPreferences({}, { gender: 'non-binary', age: 18 })).toBe(true);
    expect(matchesPreferences({ preferences: null }, { gender: 'female', age: 99 })).toBe(true);
    expect(matchesPreferences({ preferences: { age_range: { min: 40 } } }, { gender: 'female', age: 39 })).toBe(false);
    expect(matchesPreferences({}, { gender: 'male', age: 100 })).toBe(false);
  });

  it('is one-directional: the server must check both ways', () => {
    const ana = { ...viewer('female'), gender: 'female' as const, age: 30 };
    const luis = { ...viewer('female'), gender: 'male' as const, age: 32 };
    expect(matchesPreferences(luis, ana)).toBe(true);
    expect(matchesPreferences(ana, luis)).toBe(false);
  });
});
