/**
 * The client's check of a stored session token (spec 000 §5): a non-empty string of three parts
 * made of letters, digits, `_` or `-`, whose middle part decodes to a JSON payload carrying numeric
 * `exp` and `iat`, with `exp` still in the future. The signature is the server's business; this
 * check only spares a request (and a 401) when the token is obviously unusable.
 */

/** Claims the client reads; the server adds others (`sub`, `sid`) that the client may ignore. */
export type SessionTokenPayload = {
  readonly exp: number;
  readonly iat: number;
  readonly [claim: string]: unknown;
};

export type SessionTokenInvalidReason = 'empty' | 'malformed' | 'undecodable' | 'expired';

export type SessionTokenCheck =
  | { readonly status: 'valid'; readonly payload: SessionTokenPayload }
  | { readonly status: 'invalid'; readonly reason: SessionTokenInvalidReason };

const TOKEN_PART = /^[A-Za-z0-9_-]+$/;
const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Checks a token against the clock (`nowMs`, milliseconds since the epoch). */
export function checkSessionToken(token: unknown, nowMs: number): SessionTokenCheck {
  if (typeof token !== 'string' || token.length === 0) return { status: 'invalid', reason: 'empty' };
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => TOKEN_PART.test(part))) {
    return { status: 'invalid', reason: 'malformed' };
  }
  const payload = decodeSessionTokenPayload(parts[1] ?? '');
  if (!payload) return { status: 'invalid', reason: 'undecodable' };
  // `exp` is in seconds (JWT convention); the token is valid only while it lies in the future.
  if (payload.exp * 1000 <= nowMs) return { status: 'invalid', reason: 'expired' };
  return { status: 'valid', payload };
}

/** True when `checkSessionToken` accepts the token. */
export function isSessionTokenValid(token: unknown, nowMs: number): token is string {
  return checkSessionToken(token, nowMs).status === 'valid';
}

/** Decodes a token's middle part; null unless it is a JSON object with finite numeric exp and iat. */
export function decodeSessionTokenPayload(part: string): SessionTokenPayload | null {
  const json = decodeBase64UrlUtf8(part);
  if (json === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { exp, iat } = value as Record<string, unknown>;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return null;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return null;
  return value as SessionTokenPayload;
}

/**
 * Base64url to a UTF-8 string without `atob` or `TextDecoder`, which are not part of the ES
 * library this module is limited to (it also runs on the server and in the worker).
 */
function decodeBase64UrlUtf8(input: string): string | null {
  if (input.length % 4 === 1) return null;
  let bits = 0;
  let bitCount = 0;
  let escaped = '';
  for (const char of input) {
    const value = BASE64URL_ALPHABET.indexOf(char);
    if (value < 0) return null;
    bits = ((bits << 6) | value) & 0xffffff;
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      const byte = (bits >> bitCount) & 0xff;
      escaped += `%${byte.toString(16).padStart(2, '0')}`;
    }
  }
  try {
    return decodeURIComponent(escaped);
  } catch {
    // Bytes that are not valid UTF-8.
    return null;
  }
}
