import { describe, expect, it } from 'vitest';
import { choosePose, isVerificationPose, posePictureUrl, VERIFICATION_POSES } from './verification-poses.ts';

/** A random source that returns the given values in turn. */
const sequence = (...values: number[]) => {
  let index = 0;
  return () => values[index++ % values.length] as number;
};

describe('choosePose', () => {
  it('maps the whole [0, 1) range onto every pose', () => {
    const n = VERIFICATION_POSES.length;
    const chosen = VERIFICATION_POSES.map((_, index) => choosePose(() => (index + 0.5) / n));
    expect(chosen).toEqual([...VERIFICATION_POSES]);
    expect(choosePose(() => 0)).toBe(VERIFICATION_POSES[0]);
    expect(choosePose(() => 0.999_999)).toBe(VERIFICATION_POSES[n - 1]);
  });

  it('never repeats the previous pose, whatever the random source says', () => {
    for (const previous of VERIFICATION_POSES) {
      for (const value of [0, 0.2, 0.5, 0.8, 0.999_999]) {
        expect(choosePose(() => value, previous)).not.toBe(previous);
      }
    }
  });

  it('reaches every other pose after a previous one', () => {
    const previous = VERIFICATION_POSES[2];
    const random = sequence(0.05, 0.25, 0.45, 0.65, 0.85);
    const seen = new Set(Array.from({ length: 5 }, () => choosePose(random, previous)));
    expect(seen).toEqual(new Set(VERIFICATION_POSES.filter((pose) => pose !== previous)));
  });

  it('stays inside the list for out-of-range sources', () => {
    expect(isVerificationPose(choosePose(() => 1))).toBe(true);
    expect(isVerificationPose(choosePose(() => -0.5))).toBe(true);
  });
});

describe('poses', () => {
  it('each pose has a picture under /verification-poses', () => {
    for (const pose of VERIFICATION_POSES) expect(posePictureUrl(pose)).toBe(`/verification-poses/${pose}.svg`);
    expect(isVerificationPose('dab')).toBe(false);
    expect(isVerificationPose(undefined)).toBe(false);
  });
});
