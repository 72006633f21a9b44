import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CHECK_IN_ANSWER_WINDOW_MS, CreateShareRequestSchema, checkInOf } from './share-schemas.ts';

describe('checkInOf', () => {
  const at = '2026-03-10T18:00:00.000Z';
  const later = (ms: number) => new Date(Date.parse(at) + ms);

  it('is null without a check-in time', () => {
    expect(checkInOf(null, null, null, later(0))).toBeNull();
  });

  it('stays pending until the answer window has passed, then says no answer came', () => {
    expect(checkInOf(at, null, null, later(-60_000))?.state).toBe('pending');
    expect(checkInOf(at, null, null, later(CHECK_IN_ANSWER_WINDOW_MS))?.state).toBe('pending');
    expect(checkInOf(at, null, null, later(CHECK_IN_ANSWER_WINDOW_MS + 1))?.state).toBe('missed');
  });

  it('an answer shows whenever it came, late ones too', () => {
    const late = later(2 * CHECK_IN_ANSWER_WINDOW_MS);
    expect(checkInOf(at, 'help', late.toISOString(), late)).toEqual({
      at,
      answer: 'help',
      answeredAt: late.toISOString(),
      state: 'answered',
    });
  });
});

describe('CreateShareRequestSchema', () => {
  const token = 'a'.repeat(43);
  it('takes a 43-character base64url token and refuses anything else', () => {
    expect(v.safeParse(CreateShareRequestSchema, { clientId: 'c1', token, checkInAt: null }).success).toBe(true);
    for (const bad of ['a'.repeat(42), 'a'.repeat(44), `${'a'.repeat(42)}=`, `${'a'.repeat(42)}/`]) {
      expect(v.safeParse(CreateShareRequestSchema, { clientId: 'c1', token: bad, checkInAt: null }).success).toBe(
        false,
      );
    }
  });
});
