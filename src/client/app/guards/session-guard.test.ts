import { describe, expect, it } from 'vitest';
import { resolveSessionAccess } from './session-guard.ts';

const encode = (value: unknown) =>
  btoa(JSON.stringify(value)).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
const token = (exp: number) => `${encode({ alg: 'HS256' })}.${encode({ iat: exp - 3600, exp })}.sig`;
const NOW_MS = 1_800_000_000_000;

describe('resolveSessionAccess', () => {
  it('is anonymous without a token', () => {
    expect(resolveSessionAccess(null, NOW_MS)).toBe('anonymous');
  });

  it('is authenticated with a token that passes the client check', () => {
    expect(resolveSessionAccess(token(NOW_MS / 1000 + 60), NOW_MS)).toBe('authenticated');
  });

  it('is invalid with an expired, malformed or empty token', () => {
    expect(resolveSessionAccess(token(NOW_MS / 1000 - 60), NOW_MS)).toBe('invalid');
    expect(resolveSessionAccess('garbage', NOW_MS)).toBe('invalid');
    expect(resolveSessionAccess('', NOW_MS)).toBe('invalid');
  });
});
