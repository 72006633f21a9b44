// @setup embedded
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveGoogleConfig, STAND_IN_CLIENT_ID } from '../../src/server/features/google/google-config.ts';
import { createGoogleVerifier } from '../../src/server/features/google/google-verifier.ts';
import { loadConfig } from '../../src/server/config.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/** Posts `body` as JSON; a string is sent as it is (for JSON that JSON.stringify cannot produce). */
const postJson = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('Google stand-in routes (no GOOGLE_CLIENT_ID, not production)', () => {
  let app: TestApp;
  let base: string;

  beforeAll(async () => {
    app = await startTestApp();
    base = `${app.url}/api/dev/google`;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('tells the client to load the stand-in script with the stand-in client id', async () => {
    const response = await fetch(`${app.url}/api/auth/google/config`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ clientId: STAND_IN_CLIENT_ID, scriptUrl: '/api/dev/google/gsi/client' });
  });

  it('issues RS256 ID tokens with Google claims that verify against its JWKS over HTTP', async () => {
    const certs = await fetch(`${base}/certs`);
    expect(certs.status).toBe(200);
    const jwks = (await certs.json()) as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');

    const response = await postJson(`${base}/token`, {
      email: 'marta.sanz@example.com',
      givenName: 'Marta',
      familyName: 'Sanz',
      nonce: 'n-0S6_WzA2Mj',
    });
    expect(response.status).toBe(200);
    const { credential } = (await response.json()) as { credential: string };
    expect(decodeProtectedHeader(credential)).toMatchObject({ alg: 'RS256', kid: jwks.keys[0]?.kid, typ: 'JWT' });
    const issuer = `${app.config.publicOrigin}/api/dev/google`;
    const claims = decodeJwt(credential);
    expect(claims).toMatchObject({
      iss: issuer,
      aud: STAND_IN_CLIENT_ID,
      azp: STAND_IN_CLIENT_ID,
      email: 'marta.sanz@example.com',
      email_verified: true,
      given_name: 'Marta',
      family_name: 'Sanz',
      name: 'Marta Sanz',
      nonce: 'n-0S6_WzA2Mj',
    });
    expect(claims.sub).toMatch(/^1\d{20}$/);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);

    const verifier = createGoogleVerifier({ clientId: STAND_IN_CLIENT_ID, issuer, jwksUrl: `${base}/certs` });
    const identity = await verifier.verify(credential);
    expect(identity).toMatchObject({ email: 'marta.sanz@example.com', sub: claims.sub, givenName: 'Marta' });

    // The same e-mail is the same Google account on every sign-in.
    const again = await postJson(`${base}/token`, { email: 'marta.sanz@example.com', givenName: 'Marta' });
    expect(decodeJwt(((await again.json()) as { credential: string }).credential).sub).toBe(claims.sub);
  });

  it('answers a bad token request with a Spanish 400', async () => {
    const cases: Array<[unknown, string]> = [
      [{ email: 'no-es-un-correo', givenName: 'Ana' }, 'Por favor ingresa un Email válido'],
      [{ email: 'ana@example.com', givenName: '   ' }, 'El campo Nombre es obligatorio'],
      [{ givenName: 'Ana' }, 'Los datos enviados no son válidos'],
      [{ email: 'ana@example.com', givenName: 'Ana', sub: '123' }, 'Los datos enviados no son válidos'],
      [
        '{"email":"ana@example.com","givenName":"Ana","__proto__":{"x":1}}',
        'El cuerpo de la petición no es un JSON válido',
      ],
      [[], 'Los datos enviados no son válidos'],
      [{ email: 'a'.repeat(300_000), givenName: 'Ana' }, 'Por favor ingresa un Email válido'],
    ];
    for (const [body, message] of cases) {
      const response = await postJson(`${base}/token`, body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, message });
    }
  });

  it('serves the sign-in popup for the stand-in client only, without inline script or style', async () => {
    const response = await fetch(`${base}/signin?client_id=${STAND_IN_CLIENT_ID}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('Elige una cuenta');
    expect(html).toContain('lucia.martin@example.com');
    expect(html).toContain('<script src="/api/dev/google/signin.js" defer></script>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=|<style|\son[a-z]+=/i);

    const unknown = await fetch(`${base}/signin?client_id=%3Cscript%3Ealert(1)%3C/script%3E`);
    expect(unknown.status).toBe(401);
    const unknownHtml = await unknown.text();
    expect(unknownHtml).toContain('invalid_client');
    expect(unknownHtml).not.toContain('<script');
  });

  it('serves the Identity Services stand-in and the popup assets with the right types', async () => {
    const expectations: Array<[string, string, string]> = [
      ['/gsi/client', 'text/javascript', 'google.accounts.id'],
      ['/gsi/style', 'text/css', '.entreno-gsi-button'],
      ['/signin.js', 'text/javascript', 'entreno-gsi-credential'],
      ['/signin.css', 'text/css', '.account'],
    ];
    for (const [path, type, marker] of expectations) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toContain(type);
      expect(await response.text(), path).toContain(marker);
    }
  });
});

describe('Google sign-in with a real client id', () => {
  let app: TestApp;

  beforeAll(async () => {
    const publicOrigin = 'https://entreno.example';
    const google = resolveGoogleConfig(
      { NODE_ENV: 'production', GOOGLE_CLIENT_ID: '123-abc.apps.googleusercontent.com' },
      publicOrigin,
    );
    app = await startTestApp({ env: 'production', publicOrigin, google });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("points the client at Google's own script", async () => {
    const response = await fetch(`${app.url}/api/auth/google/config`);
    expect(await response.json()).toEqual({
      clientId: '123-abc.apps.googleusercontent.com',
      scriptUrl: 'https://accounts.google.com/gsi/client',
    });
  });

  it('mounts none of the stand-in routes', async () => {
    for (const path of ['/certs', '/gsi/client', `/signin?client_id=${STAND_IN_CLIENT_ID}`, '/signin.js']) {
      expect((await fetch(`${app.url}/api/dev/google${path}`)).status, path).toBe(404);
    }
    const token = await postJson(`${app.url}/api/dev/google/token`, { email: 'a@example.com', givenName: 'A' });
    expect(token.status).toBe(404);
  });
});

describe('production without a Google client id', () => {
  it('refuses to start', () => {
    // The GOOGLE_* variables are read with the rest of the configuration (config.ts).
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://entreno.example' })).toThrow(
      /GOOGLE_CLIENT_ID: required when NODE_ENV=production/,
    );
  });
});
