// @setup embedded
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGoogleVerifier,
  type GoogleTokenErrorCode,
  type GoogleVerifier,
  GoogleTokenError,
} from '../../src/server/features/google/google-verifier.ts';
import { type GoogleStandInServer, startGoogleStandIn, TEST_GOOGLE_ACCOUNT } from '../helpers/google-stand-in.ts';

/** Resolves to the refusal's code, or fails the test if the credential was accepted. */
async function refusal(verifier: GoogleVerifier, credential: unknown): Promise<GoogleTokenErrorCode> {
  try {
    const identity = await verifier.verify(credential);
    throw new Error(`accepted: ${JSON.stringify(identity)}`);
  } catch (error) {
    if (!(error instanceof GoogleTokenError)) throw error;
    return error.code;
  }
}

describe('Google ID-token verifier against a stand-in issuer over HTTP', () => {
  let google: GoogleStandInServer;
  let verifier: GoogleVerifier;

  beforeAll(async () => {
    google = await startGoogleStandIn();
    verifier = createGoogleVerifier({ clientId: google.clientId, issuer: google.issuer, jwksUrl: google.jwksUrl });
  });
  afterAll(async () => {
    await google?.close();
  });

  it('accepts a good token and returns only what the verified payload says', async () => {
    const credential = await google.signIdToken({ claims: { role: 'admin' } });
    const identity = await verifier.verify(credential);
    expect(identity).toEqual({
      sub: google.standIn.claimsFor(TEST_GOOGLE_ACCOUNT).sub,
      email: 'ana.garcia@example.com',
      emailVerified: true,
      givenName: 'Ana',
      familyName: 'García López',
      name: 'Ana García López',
      picture: undefined,
    });
    expect(identity.sub).toMatch(/^1\d{20}$/);
    // The keys came over HTTP, as Google's do.
    expect(google.jwksRequests).toBeGreaterThanOrEqual(1);
  });

  it('accepts any issuer of the configured list (Google uses two spellings)', async () => {
    const twoIssuers = createGoogleVerifier({
      clientId: google.clientId,
      issuer: ['https://accounts.google.com', google.issuer],
      jwksUrl: google.jwksUrl,
    });
    expect((await twoIssuers.verify(await google.signIdToken())).email).toBe('ana.garcia@example.com');
    const other = await google.signIdToken({ claims: { iss: 'https://accounts.google.com' } });
    expect((await twoIssuers.verify(other)).email).toBe('ana.garcia@example.com');
  });

  it('refuses a token for another audience', async () => {
    const credential = await google.signIdToken({ claims: { aud: 'someone-else.apps.googleusercontent.com' } });
    expect(await refusal(verifier, credential)).toBe('wrong_audience');
  });

  it('refuses a token with no audience', async () => {
    expect(await refusal(verifier, await google.signIdToken({ claims: { aud: undefined } }))).toBe('missing_claims');
  });

  it('refuses a token from another issuer', async () => {
    const credential = await google.signIdToken({ claims: { iss: 'https://evil.example.com' } });
    expect(await refusal(verifier, credential)).toBe('wrong_issuer');
  });

  it('refuses an expired token, but tolerates a small clock skew', async () => {
    const issuedAt = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const expired = await google.signIdToken({ now: issuedAt });
    expect(await refusal(verifier, expired)).toBe('expired');

    const nowS = Math.floor(Date.now() / 1000);
    const justExpired = await google.signIdToken({ claims: { iat: nowS - 3600, exp: nowS - 20 } });
    expect((await verifier.verify(justExpired)).email).toBe('ana.garcia@example.com');
    const longExpired = await google.signIdToken({ claims: { iat: nowS - 3600, exp: nowS - 120 } });
    expect(await refusal(verifier, longExpired)).toBe('expired');
  });

  it('judges time by the injected clock', async () => {
    const credential = await google.signIdToken();
    const inTwoHours = createGoogleVerifier({
      clientId: google.clientId,
      issuer: google.issuer,
      jwksUrl: google.jwksUrl,
      clock: () => new Date(Date.now() + 2 * 60 * 60 * 1000),
    });
    expect(await refusal(inTwoHours, credential)).toBe('expired');
  });

  it('refuses a token that is not valid yet (nbf or iat in the future)', async () => {
    const nowS = Math.floor(Date.now() / 1000);
    const notBefore = await google.signIdToken({ claims: { nbf: nowS + 600 } });
    expect(await refusal(verifier, notBefore)).toBe('not_yet_valid');
    const future = await google.signIdToken({ now: new Date(Date.now() + 10 * 60 * 1000), claims: { nbf: undefined } });
    expect(await refusal(verifier, future)).toBe('not_yet_valid');
  });

  it('refuses an unsigned token (alg none)', async () => {
    const credential = await google.signIdToken({ signing: 'none' });
    expect(credential.endsWith('.')).toBe(true);
    expect(await refusal(verifier, credential)).toBe('wrong_algorithm');
  });

  it('refuses a token signed by a key Google never published', async () => {
    expect(await refusal(verifier, await google.signIdToken({ signing: 'unknown-key' }))).toBe('unknown_key');
  });

  it('refuses a token signed by a foreign key that borrows the published kid', async () => {
    expect(await refusal(verifier, await google.signIdToken({ signing: 'foreign-key-same-kid' }))).toBe(
      'invalid_signature',
    );
  });

  it('refuses HS256 keyed with the public key (algorithm confusion)', async () => {
    expect(await refusal(verifier, await google.signIdToken({ signing: 'hs256-public-key' }))).toBe('wrong_algorithm');
  });

  it('refuses another RSA algorithm even with the right key (RS256 is pinned)', async () => {
    expect(await refusal(verifier, await google.signIdToken({ signing: 'rs512' }))).toBe('wrong_algorithm');
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const [header, payload, signature] = (await google.signIdToken()).split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const forged = Buffer.from(JSON.stringify({ ...claims, email: 'victim@example.com' })).toString('base64url');
    expect(await refusal(verifier, `${header}.${forged}.${signature}`)).toBe('invalid_signature');
  });

  it('refuses a token without email_verified, or with anything but the boolean true', async () => {
    for (const value of [undefined, false, 'true', 1]) {
      const credential = await google.signIdToken({ claims: { email_verified: value } });
      expect(await refusal(verifier, credential), String(value)).toBe('email_not_verified');
    }
  });

  it('refuses a token without an e-mail or a subject', async () => {
    expect(await refusal(verifier, await google.signIdToken({ claims: { email: undefined } }))).toBe('missing_claims');
    expect(await refusal(verifier, await google.signIdToken({ claims: { sub: undefined } }))).toBe('missing_claims');
    expect(await refusal(verifier, await google.signIdToken({ claims: { email: 'not an email' } }))).toBe(
      'missing_claims',
    );
  });

  it('refuses things that are not tokens at all', async () => {
    const good = await google.signIdToken();
    for (const credential of [undefined, null, 42, {}, '', 'abc', 'a.b', 'a.b.c.d', `${good}x==`, 'x'.repeat(20_000)]) {
      expect(await refusal(verifier, credential), String(credential).slice(0, 20)).toBe('malformed');
    }
    expect(await refusal(verifier, `e30.${good.split('.')[1]}.${good.split('.')[2]}`)).toBe('malformed');
  });

  it('reports Google unreachable as jwks_unavailable, not as a bad credential', async () => {
    const credential = await google.signIdToken();
    const unreachable = createGoogleVerifier({
      clientId: google.clientId,
      issuer: google.issuer,
      jwksUrl: 'http://127.0.0.1:9/certs',
      jwksTimeoutMs: 2_000,
    });
    expect(await refusal(unreachable, credential)).toBe('jwks_unavailable');

    google.setJwksAvailable(false);
    try {
      const fresh = createGoogleVerifier({ clientId: google.clientId, issuer: google.issuer, jwksUrl: google.jwksUrl });
      expect(await refusal(fresh, credential)).toBe('jwks_unavailable');
    } finally {
      google.setJwksAvailable(true);
    }
  });
});
