import { describe, expect, it } from 'vitest';
import { checkSessionToken, decodeSessionTokenPayload, isSessionTokenValid } from './session-token.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Base64url without padding, UTF-8 first; this project's shared code has no Buffer or btoa. */
function base64Url(text: string): string {
  const bytes = encodeURIComponent(text)
    .replace(/%([0-9A-F]{2})|./gs, (match, hex: string | undefined) =>
      String.fromCharCode(hex ? Number.parseInt(hex, 16) : match.charCodeAt(0)),
    )
    .split('')
    .map((char) => char.charCodeAt(0));
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = i + 1 >= bytes.length ? 2 : i + 2 >= bytes.length ? 3 : 4;
    for (let c = 0; c < chars; c++) out += ALPHABET[(chunk >> (18 - 6 * c)) & 63];
  }
  return out;
}

function tokenWith(payload: unknown): string {
  return `${base64Url('{"alg":"HS256","typ":"JWT"}')}.${base64Url(JSON.stringify(payload))}.c2lnbmF0dXJl`;
}

const NOW_MS = Date.UTC(2026, 0, 15, 12, 0, 0);
const NOW_S = NOW_MS / 1000;

describe('checkSessionToken', () => {
  it('accepts a three-part token whose exp lies in the future', () => {
    const result = checkSessionToken(tokenWith({ sub: 'u1', sid: 's1', iat: NOW_S - 60, exp: NOW_S + 60 }), NOW_MS);
    expect(result).toEqual({
      status: 'valid',
      payload: { sub: 'u1', sid: 's1', iat: NOW_S - 60, exp: NOW_S + 60 },
    });
  });

  it('rejects empty and non-string values', () => {
    for (const value of ['', null, undefined, 42, {}]) {
      expect(checkSessionToken(value, NOW_MS)).toEqual({ status: 'invalid', reason: 'empty' });
    }
  });

  it('rejects tokens without exactly three parts of letters, digits, _ or -', () => {
    const good = tokenWith({ iat: NOW_S, exp: NOW_S + 60 });
    const [header, payload, signature] = good.split('.');
    for (const token of [
      `${header}.${payload}`,
      `${good}.extra`,
      `${header}..${signature}`,
      `${header}.${payload}.sig+nature`,
      `${header}.${payload}.sig/nature`,
      `${header}.${payload}=.${signature}`,
      ` ${good}`,
      'not a token',
    ]) {
      expect(checkSessionToken(token, NOW_MS)).toEqual({ status: 'invalid', reason: 'malformed' });
    }
  });

  it('rejects payloads that do not decode to an object with numeric exp and iat', () => {
    for (const payload of [
      { iat: NOW_S },
      { exp: NOW_S + 60 },
      { iat: String(NOW_S), exp: NOW_S + 60 },
      { iat: NOW_S, exp: `${NOW_S + 60}` },
      { iat: NOW_S, exp: null },
      [NOW_S, NOW_S + 60],
      'text',
      42,
    ]) {
      expect(checkSessionToken(tokenWith(payload), NOW_MS)).toEqual({ status: 'invalid', reason: 'undecodable' });
    }
    expect(checkSessionToken(`${base64Url('{}')}.${base64Url('{not json')}.sig`, NOW_MS)).toEqual({
      status: 'invalid',
      reason: 'undecodable',
    });
    // A single leftover character cannot be base64.
    expect(checkSessionToken('aaaa.abcde.sig', NOW_MS)).toEqual({ status: 'invalid', reason: 'undecodable' });
  });

  it('treats exp at or before now as expired', () => {
    expect(checkSessionToken(tokenWith({ iat: NOW_S - 120, exp: NOW_S }), NOW_MS)).toEqual({
      status: 'invalid',
      reason: 'expired',
    });
    expect(checkSessionToken(tokenWith({ iat: NOW_S - 120, exp: NOW_S - 1 }), NOW_MS)).toEqual({
      status: 'invalid',
      reason: 'expired',
    });
    expect(checkSessionToken(tokenWith({ iat: NOW_S - 120, exp: NOW_S + 1 }), NOW_MS).status).toBe('valid');
  });

  it('decodes UTF-8 claims', () => {
    const payload = decodeSessionTokenPayload(base64Url(JSON.stringify({ iat: 1, exp: 2, name: 'Íñigo 💪' })));
    expect(payload).toEqual({ iat: 1, exp: 2, name: 'Íñigo 💪' });
  });

  it('rejects bytes that are not UTF-8', () => {
    // 0xff 0xfe 0xfd is not a UTF-8 sequence.
    expect(decodeSessionTokenPayload('__79')).toBeNull();
  });
});

describe('isSessionTokenValid', () => {
  it('narrows to a usable token string', () => {
    expect(isSessionTokenValid(tokenWith({ iat: NOW_S, exp: NOW_S + 3600 }), NOW_MS)).toBe(true);
    expect(isSessionTokenValid(tokenWith({ iat: NOW_S, exp: NOW_S - 3600 }), NOW_MS)).toBe(false);
  });
});
