import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenVerifier, verifyHs256 } from './token-verify.ts';

const key = randomBytes(32);
const now = new Date('2026-11-25T12:00:00Z');
const nowSeconds = Math.floor(now.getTime() / 1000);
const sid = '3f0c0a9e-1b2c-4d5e-8f90-123456789abc';

const sign = (
  options: {
    key?: Uint8Array;
    alg?: string;
    header?: Record<string, unknown>;
    claims?: Record<string, unknown>;
    issuer?: string;
    exp?: number;
  } = {},
) => {
  const jwt = new SignJWT({ sid, ...options.claims })
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT', ...options.header })
    .setSubject('user-1')
    .setIssuer(options.issuer ?? 'entreno')
    .setIssuedAt(nowSeconds - 60)
    .setExpirationTime(options.exp ?? nowSeconds + 3600);
  return jwt.sign(options.key ?? key);
};
const verify = (token: string) => verifyHs256(token, key, { issuer: 'entreno', now });

describe('verifyHs256', () => {
  it('accepts a token jose signed, with its claims', async () => {
    expect(verify(await sign())).toEqual({ sub: 'user-1', sid, iat: nowSeconds - 60, exp: nowSeconds + 3600 });
  });

  it('refuses another key, another algorithm, another issuer, an expired token', async () => {
    expect(verify(await sign({ key: randomBytes(32) }))).toBeUndefined();
    expect(verify(await sign({ alg: 'HS512', key: randomBytes(64) }))).toBeUndefined();
    expect(verify(await sign({ issuer: 'someone-else' }))).toBeUndefined();
    expect(verify(await sign({ exp: nowSeconds }))).toBeUndefined();
    expect(verify(await sign({ exp: nowSeconds - 1 }))).toBeUndefined();
  });

  it('refuses a token used before its nbf, or with a crit header', async () => {
    expect(verify(await sign({ claims: { nbf: nowSeconds + 10 } }))).toBeUndefined();
    expect(verify(await sign({ claims: { nbf: nowSeconds } }))).toBeDefined();
    expect(verify(await sign({ header: { crit: ['b64'], b64: true } }))).toBeUndefined();
  });

  it('refuses a changed payload or signature, alg none, and malformed shapes', async () => {
    const token = await sign();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const other = Buffer.from(JSON.stringify({ sid, sub: 'user-2', iss: 'entreno', iat: 1, exp: nowSeconds + 99 }));
    expect(verify(`${header}.${other.toString('base64url')}.${signature}`)).toBeUndefined();
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    expect(verify(`${header}.${payload}.${flipped}`)).toBeUndefined();
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(verify(`${none}.${payload}.`)).toBeUndefined();
    expect(verify(`${none}.${payload}.${signature}`)).toBeUndefined();
    expect(verify(`${header}.${payload}`)).toBeUndefined();
    expect(verify(`${header}.${payload}.${signature}.x`)).toBeUndefined();
    expect(verify(`${header}.${payload}.${signature}=`)).toBeUndefined();
    expect(verify('')).toBeUndefined();
  });

  it('refuses a non-canonical spelling of the signature', async () => {
    const token = await sign();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    // 32 bytes are 43 base64url characters: the last one carries 2 unused bits.
    const last = signature.at(-1) as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1] as string;
    expect(
      Buffer.from(`${signature.slice(0, -1)}${sibling}`, 'base64url').equals(Buffer.from(signature, 'base64url')),
    ).toBe(true);
    expect(verify(`${header}.${payload}.${signature.slice(0, -1)}${sibling}`)).toBeUndefined();
  });

  it('refuses tokens missing a required claim or with the wrong types', async () => {
    const unsigned = async (claims: Record<string, unknown>) => {
      const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' });
      return jwt.sign(key);
    };
    const base = { sid, sub: 'user-1', iss: 'entreno', iat: nowSeconds, exp: nowSeconds + 60 };
    expect(verify(await unsigned(base))).toBeDefined();
    for (const missing of ['sid', 'sub', 'iat', 'exp'] as const) {
      const { [missing]: _gone, ...rest } = base;
      expect(verify(await unsigned(rest))).toBeUndefined();
    }
    expect(verify(await unsigned({ ...base, exp: String(base.exp) }))).toBeUndefined();
    expect(verify(await unsigned({ ...base, sid: 42 }))).toBeUndefined();
  });
});

describe('createTokenVerifier', () => {
  const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);

  it('answers a token it verified from memory, with the same claims, until it expires', async () => {
    const verifier = createTokenVerifier(key, { issuer: 'entreno' });
    const token = await sign({ exp: nowSeconds + 60 });
    const claims = { sub: 'user-1', sid, iat: nowSeconds - 60, exp: nowSeconds + 60 };
    expect(verifier(token, now)).toEqual(claims);
    expect(verifier(token, later(59))).toEqual(claims);
    expect(verifier(token, later(60))).toBeUndefined();
    expect(verifier(token, later(61))).toBeUndefined();
  });

  it('remembers only what verified, under its own key and issuer', async () => {
    const verifier = createTokenVerifier(key, { issuer: 'entreno' });
    const token = await sign();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect(verifier(token, now)).toBeDefined();
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    expect(verifier(`${header}.${payload}.${flipped}`, now)).toBeUndefined();
    expect(verifier(await sign({ key: randomBytes(32) }), now)).toBeUndefined();
    expect(verifier(await sign({ issuer: 'someone-else' }), now)).toBeUndefined();
    expect(verifier(await sign({ claims: { nbf: nowSeconds + 10 } }), now)).toBeUndefined();
  });

  it('keeps at most maxKept tokens, forgetting the oldest, and still verifies a forgotten one', async () => {
    const verifier = createTokenVerifier(key, { issuer: 'entreno', maxKept: 2 });
    const tokens = await Promise.all([1, 2, 3].map((n) => sign({ exp: nowSeconds + 60 * n })));
    for (const token of tokens) expect(verifier(token, now)).toBeDefined();
    // The first was forgotten: at a time past its exp it is verified again and refused, as the
    // third (kept) is still answered.
    expect(verifier(tokens[0] as string, later(90))).toBeUndefined();
    expect(verifier(tokens[2] as string, later(90))?.exp).toBe(nowSeconds + 180);
  });

  it('hands out copies: a caller changing its claims does not change what is kept', async () => {
    const verifier = createTokenVerifier(key, { issuer: 'entreno' });
    const token = await sign();
    const first = verifier(token, now) as { sub: string };
    first.sub = 'someone-else';
    expect(verifier(token, now)?.sub).toBe('user-1');
  });
});
