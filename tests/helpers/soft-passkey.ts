import { createHash, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | Buffer | string) => createHash('sha256').update(data).digest();

/**
 * A software authenticator for integration tests: one P-256 passkey answering WebAuthn
 * ceremonies as a platform authenticator would (attestation 'none', user present and verified).
 * The browser journey uses Chromium's virtual authenticator instead.
 */
export function createSoftPasskey(origin: string, options: { userHandle?: string } = {}) {
  const rpId = new URL(origin).hostname;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = randomBytes(16);
  let counter = 0;
  let userHandle = options.userHandle;

  const coseKey = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(Buffer.from(jwk.x as string, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y as string, 'base64url'))],
    ]),
  );

  const authenticatorData = (withCredential: boolean) => {
    const counterBytes = Buffer.alloc(4);
    counterBytes.writeUInt32BE(counter);
    // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
    const flags = Buffer.from([withCredential ? 0x45 : 0x05]);
    const parts = [sha256(rpId), flags, counterBytes];
    if (withCredential) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(credentialId.length);
      parts.push(Buffer.alloc(16), length, credentialId, Buffer.from(coseKey));
    }
    return Buffer.concat(parts);
  };

  const clientData = (type: 'webauthn.create' | 'webauthn.get', challenge: string, atOrigin = origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: atOrigin, crossOrigin: false }));

  return {
    id: b64url(credentialId),
    /** The answer to registration options (navigator.credentials.create). */
    register(creation: { challenge: string; user?: { id?: string } }) {
      userHandle = creation.user?.id ?? userHandle;
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', new Uint8Array(authenticatorData(true))],
        ]) as never,
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', creation.challenge)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    /** The answer to authentication options (navigator.credentials.get); `origin` to fake a phishing site. */
    authenticate(request: { challenge: string }, overrides: { origin?: string } = {}) {
      counter += 1;
      const data = authenticatorData(false);
      const client = clientData('webauthn.get', request.challenge, overrides.origin);
      const signature = createSign('SHA256')
        .update(Buffer.concat([data, sha256(client)]))
        .sign(privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          ...(userHandle ? { userHandle } : {}),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}
