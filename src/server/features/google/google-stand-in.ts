import { createHash, randomUUID } from 'node:crypto';
import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JSONWebKeySet,
  type JWK,
  SignJWT,
} from 'jose';

/** A Google account as the stand-in's sign-in page offers it. */
export type GoogleStandInAccount = {
  email: string;
  givenName: string;
  familyName?: string | undefined;
  picture?: string | undefined;
  /** Google's account id; derived from the e-mail when absent, so one e-mail is always one account. */
  sub?: string | undefined;
};

/** The claims of an ID token issued by Identity Services, as Google names them. */
export type GoogleIdTokenClaims = {
  iss: string;
  azp: string;
  aud: string;
  sub: string;
  email: string;
  email_verified: boolean;
  nbf: number;
  name: string;
  picture?: string;
  given_name: string;
  family_name?: string;
  iat: number;
  exp: number;
  jti: string;
  nonce?: string;
};

export type SignIdTokenOptions = {
  /** Issue time; defaults to now. */
  now?: Date;
  nonce?: string | undefined;
  /** Merged over the standard claims; a key set to `undefined` is removed. For tests of bad tokens. */
  claims?: Record<string, unknown>;
  /** Merged over the protected header (`{ alg: 'RS256', kid, typ: 'JWT' }`), e.g. a foreign `kid`. */
  header?: { kid?: string; typ?: string };
};

export type GoogleStandIn = {
  readonly issuer: string;
  readonly clientId: string;
  /** The `kid` of the signing key, as published in the JWKS. */
  readonly kid: string;
  /** The public key, for tests that try to abuse it (HS256 with the public key as secret). */
  readonly publicKey: CryptoKey;
  /** The public JWKS, as Google serves it at https://www.googleapis.com/oauth2/v3/certs. */
  jwks(): JSONWebKeySet;
  /** The claims an ID token for this account would carry. */
  claimsFor(account: GoogleStandInAccount, options?: Pick<SignIdTokenOptions, 'now' | 'nonce'>): GoogleIdTokenClaims;
  /** A real RS256 ID token, signed with the stand-in's private key. */
  signIdToken(account: GoogleStandInAccount, options?: SignIdTokenOptions): Promise<string>;
  /** The private key as a JWK, for a caller that wants the same key after a restart. */
  exportPrivateJwk(): Promise<JWK>;
};

export const ID_TOKEN_LIFETIME_S = 60 * 60;
/** Google's Identity Services tokens carry an `nbf` five minutes before `iat`. */
const NOT_BEFORE_SKEW_S = 5 * 60;

/**
 * A local issuer that speaks Google's protocol: an RSA key pair, its public JWKS, and ID tokens
 * with Google's claims. For development and tests only; production verifies Google's real tokens.
 */
export async function createGoogleStandIn(options: {
  issuer: string;
  clientId: string;
  /** A private RSA JWK kept by the caller; a new 2048-bit key is generated when absent. */
  privateJwk?: JWK;
}): Promise<GoogleStandIn> {
  const { privateKey, publicKey } = options.privateJwk
    ? await importKeyPair(options.privateJwk)
    : await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const published: JWK = { kty: publicJwk.kty, n: publicJwk.n, e: publicJwk.e, alg: 'RS256', use: 'sig', kid };

  const claimsFor: GoogleStandIn['claimsFor'] = (account, claimOptions = {}) => {
    const iat = Math.floor((claimOptions.now ?? new Date()).getTime() / 1000);
    const familyName = account.familyName?.trim() || undefined;
    const givenName = account.givenName.trim();
    return {
      iss: options.issuer,
      azp: options.clientId,
      aud: options.clientId,
      sub: account.sub ?? googleSubFor(account.email),
      email: account.email,
      email_verified: true,
      nbf: iat - NOT_BEFORE_SKEW_S,
      name: familyName ? `${givenName} ${familyName}` : givenName,
      ...(account.picture ? { picture: account.picture } : {}),
      given_name: givenName,
      ...(familyName ? { family_name: familyName } : {}),
      iat,
      exp: iat + ID_TOKEN_LIFETIME_S,
      jti: randomUUID().replaceAll('-', ''),
      ...(claimOptions.nonce ? { nonce: claimOptions.nonce } : {}),
    };
  };

  return {
    issuer: options.issuer,
    clientId: options.clientId,
    kid,
    publicKey,
    jwks: () => ({ keys: [{ ...published }] }),
    claimsFor,
    async signIdToken(account, signOptions = {}) {
      const claims: Record<string, unknown> = { ...claimsFor(account, signOptions), ...signOptions.claims };
      for (const [key, value] of Object.entries(claims)) if (value === undefined) delete claims[key];
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT', ...signOptions.header })
        .sign(privateKey);
    },
    exportPrivateJwk: () => exportJWK(privateKey),
  };
}

/** The key `sharedStandInKey` made, once per process. */
let sharedKey: Promise<JWK> | undefined;

/**
 * A private RSA key made once per process, for the stand-in of every app the process builds: a
 * 2048-bit key costs about 0.18 s of CPU, and a test process builds an app per file (each one made
 * its own). One issuer, one key: what Google is to several nodes.
 */
export function sharedStandInKey(): Promise<JWK> {
  sharedKey ??= generateKeyPair('RS256', { modulusLength: 2048, extractable: true }).then(({ privateKey }) =>
    exportJWK(privateKey),
  );
  return sharedKey;
}

/**
 * A Google-looking account id (21 digits) derived from the e-mail: stable across restarts, so the
 * same demo account signs in to the same Entreno user every time.
 */
export function googleSubFor(email: string): string {
  const digest = createHash('sha256').update(`entreno-google-stand-in:${email.trim().toLowerCase()}`).digest('hex');
  return `1${(BigInt(`0x${digest}`) % 10n ** 20n).toString().padStart(20, '0')}`;
}

async function importKeyPair(privateJwk: JWK) {
  if (privateJwk.kty !== 'RSA' || !privateJwk.d)
    throw new TypeError('createGoogleStandIn: privateJwk must be a private RSA key');
  const privateKey = await importJWK(privateJwk, 'RS256', { extractable: true });
  const { kty, n, e } = privateJwk;
  const publicKey = await importJWK({ kty, n, e }, 'RS256', { extractable: true });
  if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) {
    throw new TypeError('createGoogleStandIn: privateJwk must be a private RSA key');
  }
  return { privateKey, publicKey };
}
