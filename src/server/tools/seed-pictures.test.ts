import { describe, expect, it } from 'vitest';
import { portraitSvg } from './seed-pictures.ts';

/** The long hair's outline in the portrait (seed-pictures.ts). */
const LONG_HAIR = 'M150 250 Q150 120';

describe('portraitSvg', () => {
  it('draws the name’s gender: long hair for a woman, never for a man (issue #34)', () => {
    let state = 7;
    const random = () => {
      state = (state * 9301 + 49297) % 233280;
      return state / 233280;
    };
    for (let index = 0; index < 40; index += 1) {
      expect(portraitSvg('LG', 'female', random)).toContain(LONG_HAIR);
      expect(portraitSvg('MR', 'male', random)).not.toContain(LONG_HAIR);
    }
  });
});
