import { describe, expect, it } from 'vitest';
import { DEMO_PROFILES } from './demo-profiles.ts';

describe('the login demo preview (spec 000 §2)', () => {
  it('cycles through 3 sample profiles, each with name, adult age, distance in km, Entreno %, activity and bio', () => {
    expect(DEMO_PROFILES).toHaveLength(3);
    expect(new Set(DEMO_PROFILES.map((profile) => profile.name)).size).toBe(3);
    for (const profile of DEMO_PROFILES) {
      expect(profile.name.trim(), profile.name).not.toBe('');
      expect(profile.age, profile.name).toBeGreaterThanOrEqual(18);
      expect(Number.isInteger(profile.distanceKm) && profile.distanceKm >= 1, profile.name).toBe(true);
      expect(profile.compatibility, profile.name).toBeGreaterThanOrEqual(0);
      expect(profile.compatibility, profile.name).toBeLessThanOrEqual(100);
      expect(profile.activity.trim(), profile.name).not.toBe('');
      expect(profile.bio.length, profile.name).toBeGreaterThanOrEqual(10);
    }
  });
});
