import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a verified token says (the claims sessions need). */
export type VerifiedClaims = { sub: string; sid: string; iat: number; exp: number };

const SEGMENT = /^[A-Za-z0-9_-]+$/;

const decodeJson = (segment: string): unknown => {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Verifies one of our own HS256 tokens (signed with jose's `SignJWT`) with node:crypto's HMAC,
 * synchronously: jose 6 verifies through WebCrypto, which took ~0.5 ms of the event loop per
 * request in the swipe profile (docs/decisions/0035), where this takes microseconds.
 *
 * The same checks as `jwtVerify(token, key, { algorithms: ['HS256'], issuer, requiredClaims:
 * ['sub', 'sid', 'iat', 'exp'] })`: three base64url segments, header `alg` HS256 and no `crit`,
 * the signature compared in constant time (and canonically encoded), the issuer, `exp` after now,
 * `nbf` (if any) not after now, and the claims present with their types. Anything else: undefined.
 */
export function verifyHs256(
  token: string,
  key: Uint8Array,
  options: { issuer: string; now: Date },
): VerifiedClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  if (!SEGMENT.test(header) || !SEGMENT.test(payload) || !SEGMENT.test(signature)) return undefined;
  const given = Buffer.from(signature, 'base64url');
  // One encoding per signature: no second spelling of the same bytes is accepted.
  if (given.toString('base64url') !== signature) return undefined;
  const expected = createHmac('sha256', key).update(`${header}.${payload}`).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const head = decodeJson(header);
  if (!isObject(head) || head.alg !== 'HS256' || 'crit' in head) return undefined;
  const claims = decodeJson(payload);
  if (!isObject(claims)) return undefined;
  const { sub, sid, iat, exp, iss, nbf } = claims;
  if (iss !== options.issuer) return undefined;
  if (typeof sub !== 'string' || typeof sid !== 'string') return undefined;
  if (typeof iat !== 'number' || typeof exp !== 'number' || !Number.isFinite(iat) || !Number.isFinite(exp)) {
    return undefined;
  }
  const nowSeconds = Math.floor(options.now.getTime() / 1000);
  if (exp <= nowSeconds) return undefined;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowSeconds)) return undefined;
  return { sub, sid, iat, exp };
}

/** Verified tokens a verifier keeps by default: one per signed-in device that calls, a few MB. */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * `verifyHs256` under one key and issuer, remembering the tokens it verified (up to `maxKept`,
 * the oldest forgotten first): a device sends the same token with every call, and the same text
 * verifies the same way under the same key, so a token seen again costs a map lookup and the time
 * check instead of the HMAC and two JSON parses (~0.1 ms of the event loop per request in the
 * swipe profile, session 20). Only verified tokens are kept, so nobody fills it without tokens we
 * signed. `exp` is checked at every use; `nbf` was not after now when the token was first
 * verified, so it is not after any later now. The session behind the token is checked by the
 * caller every time, as before (revocation, sign-out).
 */
export function createTokenVerifier(key: Uint8Array, options: { issuer: string; maxKept?: number }) {
  const maxKept = options.maxKept ?? VERIFIED_TOKENS_KEPT;
  const kept = new Map<string, VerifiedClaims>();
  return (token: string, now: Date): VerifiedClaims | undefined => {
    const known = kept.get(token);
    if (known) {
      if (known.exp > Math.floor(now.getTime() / 1000)) return { ...known };
      kept.delete(token);
      return undefined;
    }
    const claims = verifyHs256(token, key, { issuer: options.issuer, now });
    if (!claims) return undefined;
    if (kept.size >= maxKept) kept.delete(kept.keys().next().value as string);
    kept.set(token, claims);
    return { ...claims };
  };
}
