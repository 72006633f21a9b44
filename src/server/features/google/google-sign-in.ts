import type { GoogleConfig } from './google-config.ts';
import { createGoogleStandIn, type GoogleStandIn, sharedStandInKey } from './google-stand-in.ts';
import { createGoogleVerifier, type GoogleVerifier } from './google-verifier.ts';

export type GoogleSignIn = {
  config: GoogleConfig;
  /** What the auth feature calls with the client's `credential`. */
  verifier: GoogleVerifier;
  /** The local issuer, present only in stand-in mode (never in production). */
  standIn: GoogleStandIn | undefined;
};

/**
 * Everything Google sign-in needs at run time. In stand-in mode the verifier reads the stand-in's
 * key set in process instead of fetching `jwksUrl`: the server cannot always reach its own
 * PUBLIC_ORIGIN (a random test port, a dev proxy), and the signature is verified either way.
 */
export async function createGoogleSignIn(
  config: GoogleConfig,
  options: { clock?: () => Date } = {},
): Promise<GoogleSignIn> {
  if (!config.standIn) {
    return {
      config,
      standIn: undefined,
      verifier: createGoogleVerifier({
        clientId: config.clientId,
        issuer: config.issuers,
        jwksUrl: config.jwksUrl,
        ...options,
      }),
    };
  }
  const [issuer] = config.issuers;
  if (!issuer) throw new TypeError('createGoogleSignIn: the stand-in needs an issuer');
  const standIn = await createGoogleStandIn({
    issuer,
    clientId: config.clientId,
    privateJwk: await sharedStandInKey(),
  });
  return {
    config,
    standIn,
    verifier: createGoogleVerifier({
      clientId: config.clientId,
      issuer: config.issuers,
      jwksUrl: config.jwksUrl,
      jwks: standIn.jwks(),
      ...options,
    }),
  };
}
