import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import * as v from 'valibot';

/** Who Google says signed in: read only from a verified ID token, never from the client's body. */
export type GoogleIdentity = {
  /** Google's stable account id (the spec's googleId). */
  sub: string;
  email: string;
  /** Always true: tokens without a verified e-mail are refused. */
  emailVerified: true;
  givenName: string | undefined;
  familyName: string | undefined;
  name: string | undefined;
  picture: string | undefined;
  /**
   * Google Workspace domain (`hd`), absent for consumer accounts. With it (or a gmail.com
   * address), Google is authoritative for the e-mail, not merely a past verifier of it.
   */
  hostedDomain: string | undefined;
};

export type GoogleTokenErrorCode =
  /** Not a compact JWS, broken base64 or JSON, too long, not a string. */
  | 'malformed'
  /** `alg` is not RS256 (`none`, HS256 with the public key as secret, RS512...). */
  | 'wrong_algorithm'
  /** No key in Google's JWKS has the token's `kid`. */
  | 'unknown_key'
  | 'invalid_signature'
  | 'wrong_audience'
  | 'wrong_issuer'
  | 'expired'
  /** `nbf` or `iat` lies in the future beyond the clock tolerance. */
  | 'not_yet_valid'
  | 'missing_claims'
  | 'email_not_verified'
  /** Google's keys could not be fetched: our problem or Google's, not the user's (retry later). */
  | 'jwks_unavailable';

/** Why a Google credential was refused. Only `jwks_unavailable` is not the credential's fault. */
export class GoogleTokenError extends Error {
  override name = 'GoogleTokenError';
  constructor(
    readonly code: GoogleTokenErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type GoogleVerifier = {
  /** Verifies a Google ID token (the `credential` of Identity Services); throws a GoogleTokenError. */
  verify(credential: unknown): Promise<GoogleIdentity>;
};

export type GoogleVerifierOptions = {
  clientId: string;
  /** Accepted `iss` values; Google uses both `https://accounts.google.com` and `accounts.google.com`. */
  issuer: string | readonly string[];
  /** Google's JWKS address; fetched, cached and refetched on an unknown `kid` by jose. */
  jwksUrl: string;
  /**
   * A key set to use instead of fetching `jwksUrl`: the in-process stand-in's keys, so a server
   * never has to reach itself through PUBLIC_ORIGIN. The signature is checked all the same.
   */
  jwks?: JSONWebKeySet;
  clock?: () => Date;
  /** Allowed clock skew between Google and us for exp, nbf and iat. */
  clockToleranceS?: number;
  /** How long the fetched JWKS may wait before a network call gives up. */
  jwksTimeoutMs?: number;
};

/** Google ID tokens are about 1 KB; anything far larger is not one and is not parsed at all. */
export const MAX_CREDENTIAL_LENGTH = 8 * 1024;
export const DEFAULT_CLOCK_TOLERANCE_S = 60;
/** Google's ID tokens live one hour; a token issued longer ago than this is refused even if `exp` says otherwise. */
const MAX_TOKEN_AGE_S = 2 * 60 * 60;

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** The claims we read, checked after the signature and the registered claims are verified. */
const IdentityClaimsSchema = v.object({
  sub: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  email: v.pipe(v.string(), v.maxLength(320), v.email()),
  given_name: v.optional(v.string()),
  family_name: v.optional(v.string()),
  name: v.optional(v.string()),
  picture: v.optional(v.string()),
  hd: v.optional(v.pipe(v.string(), v.maxLength(255))),
});

/**
 * Verifies Google ID tokens the way Google documents it: RS256 signature against Google's JWKS,
 * `aud` equal to our client id, `iss` one of Google's, `exp`/`nbf`/`iat` with a small tolerance,
 * and `email_verified === true`. Only the verified payload is ever read.
 */
export function createGoogleVerifier(options: GoogleVerifierOptions): GoogleVerifier {
  const issuers = typeof options.issuer === 'string' ? [options.issuer] : [...options.issuer];
  if (!options.clientId) throw new TypeError('createGoogleVerifier: clientId is required');
  if (issuers.length === 0 || issuers.some((issuer) => !issuer)) {
    throw new TypeError('createGoogleVerifier: at least one issuer is required');
  }
  const keySet = options.jwks
    ? createLocalJWKSet(options.jwks)
    : createRemoteJWKSet(new URL(options.jwksUrl), { timeoutDuration: options.jwksTimeoutMs ?? 5_000 });
  const getKey: JWTVerifyGetKey = async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      throw new GoogleTokenError('jwks_unavailable', 'Google signing keys could not be loaded', { cause: error });
    }
  };
  const clockTolerance = options.clockToleranceS ?? DEFAULT_CLOCK_TOLERANCE_S;

  return {
    async verify(credential) {
      if (
        typeof credential !== 'string' ||
        credential.length > MAX_CREDENTIAL_LENGTH ||
        !COMPACT_JWS.test(credential)
      ) {
        throw new GoogleTokenError('malformed', 'The credential is not a compact JWT');
      }
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(credential, getKey, {
          algorithms: ['RS256'],
          audience: options.clientId,
          issuer: issuers,
          clockTolerance,
          maxTokenAge: MAX_TOKEN_AGE_S,
          requiredClaims: ['exp', 'iat', 'sub', 'email'],
          ...(options.clock ? { currentDate: options.clock() } : {}),
        }));
      } catch (error) {
        throw toTokenError(error);
      }
      // Google sends a JSON boolean; anything else (missing, false, the string "true") is refused.
      if (payload.email_verified !== true) {
        throw new GoogleTokenError('email_not_verified', 'The Google account e-mail is not verified');
      }
      const claims = v.safeParse(IdentityClaimsSchema, payload);
      if (!claims.success) {
        throw new GoogleTokenError('missing_claims', 'The ID token lacks a usable sub or email');
      }
      return {
        sub: claims.output.sub,
        email: claims.output.email,
        emailVerified: true,
        givenName: claims.output.given_name,
        familyName: claims.output.family_name,
        name: claims.output.name,
        picture: claims.output.picture,
        hostedDomain: claims.output.hd || undefined,
      };
    },
  };
}

function toTokenError(error: unknown): GoogleTokenError {
  if (error instanceof GoogleTokenError) return error;
  if (error instanceof errors.JOSEAlgNotAllowed) return new GoogleTokenError('wrong_algorithm', error.message);
  if (error instanceof errors.JWKSNoMatchingKey) return new GoogleTokenError('unknown_key', error.message);
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new GoogleTokenError('invalid_signature', error.message);
  }
  // JWTExpired extends JWTClaimValidationFailed, so it is tested first.
  if (error instanceof errors.JWTExpired) return new GoogleTokenError('expired', error.message);
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === 'missing') return new GoogleTokenError('missing_claims', error.message);
    switch (error.claim) {
      case 'aud':
        return new GoogleTokenError('wrong_audience', error.message);
      case 'iss':
        return new GoogleTokenError('wrong_issuer', error.message);
      case 'nbf':
      case 'iat':
        return new GoogleTokenError('not_yet_valid', error.message);
      default:
        return new GoogleTokenError('malformed', error.message);
    }
  }
  // JWSInvalid, JWTInvalid, JOSENotSupported, a key of the wrong type, and anything unforeseen:
  // refused as malformed, never accepted.
  const message = error instanceof Error ? error.message : 'Invalid ID token';
  return new GoogleTokenError('malformed', message, { cause: error });
}
