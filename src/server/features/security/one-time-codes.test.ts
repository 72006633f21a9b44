import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  generateRecoveryCodes,
  generateTotpSecret,
  keyedHash,
  matchTotpStep,
  normalizeRecoveryCode,
  openSecret,
  sealSecret,
  TOTP_PERIOD_S,
  totpCode,
  totpUri,
} from './one-time-codes.ts';

const STEP_MS = TOTP_PERIOD_S * 1000;
// The middle of a step, so ±1 step is unambiguous.
const NOW = new Date(Math.floor(Date.parse('2026-03-10T09:00:00Z') / STEP_MS) * STEP_MS + STEP_MS / 2);
const at = (steps: number) => new Date(NOW.getTime() + steps * STEP_MS);
const stepOf = (date: Date) => Math.floor(date.getTime() / STEP_MS);

describe('authenticator codes (TOTP, RFC 6238)', () => {
  const secret = generateTotpSecret();

  it('makes a 160-bit base32 secret and an otpauth address an app can read', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(totpUri(secret, 'ana@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Entreno');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
  });

  it('matches the RFC 6238 reference vector (SHA-1, 59 s → 94287082 truncated to 6 digits)', () => {
    // RFC 6238 appendix B: secret "12345678901234567890" in ASCII; 8-digit code 94287082.
    const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(totpCode(rfcSecret, new Date(59_000))).toBe('287082');
  });

  it('accepts the code of the current step and of one step either side, and says which step it was', () => {
    expect(matchTotpStep(secret, totpCode(secret, NOW), NOW)).toBe(stepOf(NOW));
    expect(matchTotpStep(secret, totpCode(secret, at(-1)), NOW)).toBe(stepOf(NOW) - 1);
    expect(matchTotpStep(secret, totpCode(secret, at(1)), NOW)).toBe(stepOf(NOW) + 1);
  });

  it('refuses codes two steps away, other secrets’ codes and malformed input', () => {
    // A fixed secret and instant: deterministic codes, none of them equal to one inside the window.
    const fixed = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    const inside = [-1, 0, 1].map((steps) => totpCode(fixed, at(steps)));
    for (const far of [totpCode(fixed, at(-2)), totpCode(fixed, at(2)), totpCode(fixed, at(-40))]) {
      expect(inside).not.toContain(far);
      expect(matchTotpStep(fixed, far, NOW)).toBeUndefined();
    }
    expect(matchTotpStep(fixed, '12345', NOW)).toBeUndefined();
    expect(matchTotpStep(fixed, 'abcdef', NOW)).toBeUndefined();
    expect(matchTotpStep(fixed, '', NOW)).toBeUndefined();
  });

  it('ignores spaces and dashes typed inside a code', () => {
    const code = totpCode(secret, NOW);
    expect(matchTotpStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, NOW)).toBe(stepOf(NOW));
    expect(matchTotpStep(secret, `${code.slice(0, 3)}-${code.slice(3)}`, NOW)).toBe(stepOf(NOW));
  });
});

describe('recovery codes', () => {
  it('makes ten distinct codes of ten unambiguous characters', () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
  });

  it('reads a code typed in capitals, with spaces or without its dash, as the same code', () => {
    const [code] = generateRecoveryCodes(1) as [string];
    const key = randomBytes(32);
    const hash = (typed: string) => keyedHash(key, 'recovery-code', 'user-1', normalizeRecoveryCode(typed));
    expect(hash(code.toUpperCase())).toBe(hash(code));
    expect(hash(code.replace('-', ' '))).toBe(hash(code));
    expect(hash(code.replace('-', ''))).toBe(hash(code));
    // Bound to its user: the same code hashes differently for someone else.
    expect(keyedHash(key, 'recovery-code', 'user-2', normalizeRecoveryCode(code))).not.toBe(hash(code));
  });
});

describe('sealed secrets', () => {
  it('round-trips under the same key and refuses another key or a tampered box', () => {
    const key = randomBytes(32);
    const sealed = sealSecret(key, 'JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(openSecret(key, sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(() => openSecret(randomBytes(32), sealed)).toThrow();
    const [iv, tag, data] = sealed.split('.') as [string, string, string];
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => openSecret(key, [iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
  });
});
