import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  POSE_INSTRUCTIONS,
  posePictureUrl,
  VERIFICATION_POSES,
} from '../../src/shared/verification/verification-poses.ts';

const PUBLIC_DIR = path.resolve(import.meta.dirname, '../../public');

describe('verification pose pictures', () => {
  it('ships one SVG per pose, titled, with no script or remote reference', () => {
    for (const pose of VERIFICATION_POSES) {
      const svg = readFileSync(path.join(PUBLIC_DIR, posePictureUrl(pose)), 'utf8');
      expect(svg.startsWith('<svg'), pose).toBe(true);
      expect(svg).toMatch(/<title>[^<]+<\/title>/);
      expect(svg).not.toMatch(/<script|href=|url\(/i);
      expect(POSE_INSTRUCTIONS[pose].length).toBeGreaterThan(10);
    }
  });
});
