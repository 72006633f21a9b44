import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportSPKI, importJWK, type JSONWebKeySet, SignJWT, UnsecuredJWT } from 'jose';
import {
  createGoogleStandIn,
  type GoogleStandIn,
  type GoogleStandInAccount,
} from '../../src/server/features/google/google-stand-in.ts';
import type { GoogleConfig } from '../../src/server/features/google/google-config.ts';

/** How a test token is signed: properly, or in one of the ways an attacker would try. */
export type TestTokenSigning =
  /** RS256 with the stand-in's published key: a good token. */
  | 'stand-in'
  /** RS256 with a key Google never published, under that key's own `kid`. */
  | 'unknown-key'
  /** RS256 with a foreign key that claims the published key's `kid`. */
  | 'foreign-key-same-kid'
  /** RS512 with the published key: right key, algorithm not pinned. */
  | 'rs512'
  /** `alg: none`, no signature. */
  | 'none'
  /** HS256 keyed with the published public key's PEM: the classic algorithm confusion. */
  | 'hs256-public-key';

export type TestTokenOverrides = {
  account?: Partial<GoogleStandInAccount>;
  /** Merged over Google's claims; `undefined` removes a claim (e.g. `{ email_verified: undefined }`). */
  claims?: Record<string, unknown>;
  signing?: TestTokenSigning;
  now?: Date;
};

export type GoogleStandInServer = {
  /** The issuer (`iss`) of good tokens: this server's origin, like `https://accounts.google.com`. */
  issuer: string;
  clientId: string;
  /** The JWKS address, served over real HTTP. */
  jwksUrl: string;
  /** How many times the JWKS was fetched. */
  readonly jwksRequests: number;
  standIn: GoogleStandIn;
  /** Mints an ID token: by default a good one for a verified account. */
  signIdToken(overrides?: TestTokenOverrides): Promise<string>;
  /** Makes the JWKS address answer 500 (Google unreachable) or serve the keys again. */
  setJwksAvailable(isAvailable: boolean): void;
  close(): Promise<void>;
};

export const TEST_GOOGLE_CLIENT_ID = 'entreno-test.apps.googleusercontent.com';

export const TEST_GOOGLE_ACCOUNT: GoogleStandInAccount = {
  email: 'ana.garcia@example.com',
  givenName: 'Ana',
  familyName: 'García López',
};

/**
 * A local Google issuer on its own free port for integration tests: the JWKS over HTTP at
 * `/oauth2/v3/certs` (Google's path) and tokens minted in process, good or bad.
 */
export async function startGoogleStandIn(options: { clientId?: string } = {}): Promise<GoogleStandInServer> {
  let jwks: JSONWebKeySet | undefined;
  let jwksRequests = 0;
  let isAvailable = true;
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/oauth2/v3/certs' && jwks) {
      jwksRequests += 1;
      if (!isAvailable) {
        response.writeHead(500, { 'content-type': 'text/plain' }).end('unavailable');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = options.clientId ?? TEST_GOOGLE_CLIENT_ID;
  const standIn = await createGoogleStandIn({ issuer, clientId });
  const foreign = await createGoogleStandIn({ issuer, clientId });
  jwks = standIn.jwks();

  return {
    issuer,
    clientId,
    jwksUrl: `${issuer}/oauth2/v3/certs`,
    get jwksRequests() {
      return jwksRequests;
    },
    standIn,
    async signIdToken(overrides = {}) {
      const account = { ...TEST_GOOGLE_ACCOUNT, ...overrides.account };
      const signOptions = { claims: overrides.claims, now: overrides.now };
      const signing = overrides.signing ?? 'stand-in';
      switch (signing) {
        case 'stand-in':
          return standIn.signIdToken(account, signOptions);
        case 'unknown-key':
          return foreign.signIdToken(account, signOptions);
        case 'foreign-key-same-kid':
          return foreign.signIdToken(account, { ...signOptions, header: { kid: standIn.kid } });
        case 'rs512':
        case 'none':
        case 'hs256-public-key': {
          const claims: Record<string, unknown> = { ...standIn.claimsFor(account, signOptions), ...overrides.claims };
          for (const [key, value] of Object.entries(claims)) if (value === undefined) delete claims[key];
          if (signing === 'none') return new UnsecuredJWT(claims).encode();
          if (signing === 'rs512') {
            // The published key pair, used with an algorithm the verifier does not allow.
            const key = await importJWK({ ...(await standIn.exportPrivateJwk()), alg: 'RS512' }, 'RS512');
            return new SignJWT(claims).setProtectedHeader({ alg: 'RS512', kid: standIn.kid, typ: 'JWT' }).sign(key);
          }
          const secret = new TextEncoder().encode(await exportSPKI(standIn.publicKey));
          return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: standIn.kid, typ: 'JWT' }).sign(secret);
        }
      }
    },
    setJwksAvailable(value) {
      isAvailable = value;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The app's Google settings pointing at a stand-in issuer on its own port (real HTTP JWKS). */
export const googleConfigFor = (google: GoogleStandInServer, jwksUrl = google.jwksUrl): GoogleConfig => ({
  clientId: google.clientId,
  issuers: [google.issuer],
  jwksUrl,
  scriptUrl: `${google.issuer}/gsi/client`,
  standIn: false,
});
