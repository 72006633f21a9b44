import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createGoogleStandIn, googleSubFor } from '../../src/server/features/google/google-stand-in.ts';

const ISSUER = 'http://localhost:3000/api/dev/google';
const CLIENT_ID = 'entreno-local.apps.googleusercontent.com';

describe('createGoogleStandIn', () => {
  it("signs ID tokens with Google's claims, valid for one hour", async () => {
    const standIn = await createGoogleStandIn({ issuer: ISSUER, clientId: CLIENT_ID });
    const now = new Date('2025-03-01T10:00:00Z');
    const credential = await standIn.signIdToken(
      { email: 'lucia.martin@example.com', givenName: ' Lucía ', familyName: 'Martín' },
      { now, nonce: 'abc' },
    );
    const { payload, protectedHeader } = await jwtVerify(credential, createLocalJWKSet(standIn.jwks()), {
      algorithms: ['RS256'],
      issuer: ISSUER,
      audience: CLIENT_ID,
      currentDate: new Date(now.getTime() + 59 * 60 * 1000),
    });
    expect(protectedHeader).toEqual({ alg: 'RS256', kid: standIn.kid, typ: 'JWT' });
    const iat = now.getTime() / 1000;
    expect(payload).toEqual({
      iss: ISSUER,
      azp: CLIENT_ID,
      aud: CLIENT_ID,
      sub: googleSubFor('lucia.martin@example.com'),
      email: 'lucia.martin@example.com',
      email_verified: true,
      nbf: iat - 300,
      name: 'Lucía Martín',
      given_name: 'Lucía',
      family_name: 'Martín',
      iat,
      exp: iat + 3600,
      jti: expect.stringMatching(/^[0-9a-f]{32}$/),
      nonce: 'abc',
    });
  });

  it('publishes only the public half of its key', async () => {
    const standIn = await createGoogleStandIn({ issuer: ISSUER, clientId: CLIENT_ID });
    const [key, ...others] = standIn.jwks().keys;
    expect(others).toEqual([]);
    expect(Object.keys(key ?? {}).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
  });

  it('keeps its key (and kid) when given back its exported private key', async () => {
    const first = await createGoogleStandIn({ issuer: ISSUER, clientId: CLIENT_ID });
    const again = await createGoogleStandIn({
      issuer: ISSUER,
      clientId: CLIENT_ID,
      privateJwk: await first.exportPrivateJwk(),
    });
    expect(again.kid).toBe(first.kid);
    const credential = await again.signIdToken({ email: 'a@example.com', givenName: 'A' });
    await expect(jwtVerify(credential, createLocalJWKSet(first.jwks()))).resolves.toBeTruthy();
    const other = await createGoogleStandIn({ issuer: ISSUER, clientId: CLIENT_ID });
    expect(other.kid).not.toBe(first.kid);
  });

  it('gives one e-mail one stable Google-looking account id, whatever its case', async () => {
    expect(googleSubFor('Ana@Example.com')).toBe(googleSubFor('ana@example.com'));
    expect(googleSubFor('ana@example.com')).toMatch(/^1\d{20}$/);
    expect(googleSubFor('ana@example.com')).not.toBe(googleSubFor('ana2@example.com'));
    const standIn = await createGoogleStandIn({ issuer: ISSUER, clientId: CLIENT_ID });
    const noFamily = decodeJwt(await standIn.signIdToken({ email: 'x@example.com', givenName: 'Xavi' }));
    expect(noFamily.name).toBe('Xavi');
    expect(noFamily).not.toHaveProperty('family_name');
    expect(noFamily).not.toHaveProperty('picture');
  });
});
