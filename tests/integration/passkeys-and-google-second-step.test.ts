import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GoogleConfig } from '../../src/server/features/google/google-config.ts';
import { type Api, createApi, uniqueEmail } from '../helpers/auth-api.ts';
import { type GoogleStandInServer, startGoogleStandIn } from '../helpers/google-stand-in.ts';
import { createSoftPasskey } from '../helpers/soft-passkey.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, HOUR, MINUTE } from '../helpers/test-clock.ts';
import { createTwoStepApi } from '../helpers/two-step-api.ts';

const googleConfigFor = (google: GoogleStandInServer): GoogleConfig => ({
  clientId: google.clientId,
  issuers: [google.issuer],
  jwksUrl: google.jwksUrl,
  scriptUrl: `${google.issuer}/gsi/client`,
  standIn: false,
});

describe('passkeys and Google with the second step (docs/decisions/0032)', () => {
  const clock = createTestClock();
  let google: GoogleStandInServer;
  let app: TestApp;
  let api: Api;
  let twoStep: ReturnType<typeof createTwoStepApi>;

  beforeAll(async () => {
    google = await startGoogleStandIn();
    app = await startTestApp({ google: googleConfigFor(google) }, { dependencies: { clock } });
    api = createApi(app);
    twoStep = createTwoStepApi(api, clock);
  });
  afterAll(async () => {
    await app?.close();
    await google?.close();
  });
  beforeEach(() => clock.advance(2 * HOUR));

  /** Registration options → the soft authenticator → POST /security/passkeys. */
  const addPasskey = async (token: string, name: string) => {
    const passkey = createSoftPasskey(app.config.publicOrigin);
    const options = await api.post('/security/passkeys/options', {}, token);
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    const creation = options.body.options as { challenge: string; rp: { id: string }; user: { id: string } };
    expect(creation.rp.id).toBe(new URL(app.config.publicOrigin).hostname);
    const added = await api.post(
      '/security/passkeys',
      { challengeId: options.body.challengeId, name, response: passkey.register(creation) },
      token,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    return { passkey, summary: added.body.passkey as { id: string; name: string } };
  };

  const signInWithPasskey = async (passkey: ReturnType<typeof createSoftPasskey>, origin?: string) => {
    const options = await api.post('/auth/passkey/options', {});
    expect(options.status).toBe(200);
    const request = options.body.options as { challenge: string; userVerification: string; allowCredentials?: [] };
    expect(request.userVerification).toBe('required');
    return api.post('/auth/passkey', {
      challengeId: options.body.challengeId,
      response: passkey.authenticate(request, { origin }),
      rememberMe: true,
    });
  };

  it('registers a named passkey, lists it with its dates, and signs in with it without a password', async () => {
    const account = await api.registerUser();
    const { token } = await api.login(account.email);
    const { passkey, summary } = await addPasskey(token, 'Móvil de Lucía');
    expect(summary).toMatchObject({ id: passkey.id, name: 'Móvil de Lucía' });

    const listed = await api.get('/security', token);
    expect(listed.body.passkeys).toEqual([
      { id: passkey.id, name: 'Móvil de Lucía', createdAt: clock.now().toISOString(), lastUsedAt: null },
    ]);

    clock.advance(MINUTE);
    const signedIn = await signInWithPasskey(passkey);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user).toMatchObject({ userId: account.userId });
    expect(signedIn.body.message).toBe('Sesión iniciada con tu llave de acceso.');
    const after = await api.get('/security', signedIn.body.token as string);
    expect((after.body.passkeys as Array<{ lastUsedAt: string }>)[0]?.lastUsedAt).toBe(clock.now().toISOString());
  });

  it('a passkey sign-in satisfies two-step verification', async () => {
    const account = await api.registerUser();
    const { token } = await api.login(account.email);
    const { passkey } = await addPasskey(token, 'Portátil');
    await twoStep.enable(token);
    await twoStep.pendingLogin(account.email, account.password);
    const signedIn = await signInWithPasskey(passkey);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.token).toEqual(expect.any(String));
    expect(signedIn.body.secondStepRequired).toBeUndefined();
  });

  it('refuses a reused challenge, another site’s answer, an unknown or removed passkey', async () => {
    const account = await api.registerUser();
    const { token } = await api.login(account.email);
    const { passkey } = await addPasskey(token, 'Llave USB');

    const options = await api.post('/auth/passkey/options', {});
    const answer = passkey.authenticate(options.body.options as { challenge: string });
    const first = await api.post('/auth/passkey', { challengeId: options.body.challengeId, response: answer });
    expect(first.status).toBe(200);
    const replay = await api.post('/auth/passkey', { challengeId: options.body.challengeId, response: answer });
    expect(replay.status).toBe(400);
    expect(replay.body.errorType).toBe('CHALLENGE_EXPIRED');

    const phished = await signInWithPasskey(passkey, 'https://entreno.example.evil');
    expect(phished.status).toBe(400);
    expect(phished.body.message).toBe('No hemos podido comprobar la llave de acceso. Vuelve a intentarlo.');

    const stranger = await signInWithPasskey(createSoftPasskey(app.config.publicOrigin));
    expect(stranger.status).toBe(400);
    expect(stranger.body.errorType).toBe('PASSKEY_UNKNOWN');

    // Only its owner removes it; then it no longer signs in.
    const other = await api.registerUser();
    const otherToken = (await api.login(other.email)).token;
    const notYours = await api.call('DELETE', `/security/passkeys/${encodeURIComponent(passkey.id)}`, {
      token: otherToken,
    });
    expect(notYours.status).toBe(404);
    const removed = await api.call('DELETE', `/security/passkeys/${encodeURIComponent(passkey.id)}`, { token });
    expect(removed.status).toBe(200);
    expect((await api.get('/security', token)).body.passkeys).toEqual([]);
    expect((await signInWithPasskey(passkey)).body.errorType).toBe('PASSKEY_UNKNOWN');
    // Removing a passkey leaves the session that did it alone.
    expect((await api.get('/auth/validate-session', token)).status).toBe(200);
  });

  it('refuses a registration answered for another challenge, a nameless passkey and callers without a session', async () => {
    const account = await api.registerUser();
    const { token } = await api.login(account.email);
    const passkey = createSoftPasskey(app.config.publicOrigin);
    const options = await api.post('/security/passkeys/options', {}, token);
    const forged = await api.post(
      '/security/passkeys',
      { challengeId: options.body.challengeId, name: 'Falsa', response: passkey.register({ challenge: 'AAAA' }) },
      token,
    );
    expect(forged.status).toBe(400);
    const nameless = await api.post(
      '/security/passkeys',
      { challengeId: options.body.challengeId, name: '   ', response: passkey.register({ challenge: 'AAAA' }) },
      token,
    );
    expect(nameless.status).toBe(400);
    expect(nameless.body.message).toBe('Ponle un nombre a la llave de acceso');
    expect((await api.post('/security/passkeys/options', {})).status).toBe(401);
    expect((await api.post('/auth/passkey', { challengeId: 'nope', response: {} })).status).toBe(400);
  });

  it('Google sign-in asks for the second step too when it is on', async () => {
    // A Gmail address registered with a password: Google links it at its first sign-in (decision 0004).
    const email = uniqueEmail('gmail').replace('@example.com', '@gmail.com');
    const account = await api.registerUser({ email });
    const { token } = await api.login(account.email);
    const { secret } = await twoStep.enable(token);
    clock.advance(30_000);
    const googleAccount = { email, givenName: 'Lucía', familyName: 'García' };
    const sub = google.standIn.claimsFor(googleAccount).sub;
    const signIn = async () =>
      api.post('/auth/google', {
        googleId: sub,
        email,
        name: 'Lucía',
        lastName: 'García',
        picture: 'https://lh3.googleusercontent.com/a/photo',
        credential: await google.signIdToken({ account: googleAccount }),
      });
    for (const _ of [1, 2]) {
      const first = await signIn();
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.secondStepRequired).toBe(true);
      expect(first.body.token).toBeUndefined();
      const done = await api.post('/auth/second-step', {
        pendingToken: first.body.pendingToken,
        method: 'totp',
        code: twoStep.code(secret),
      });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.user).toMatchObject({ userId: account.userId });
      clock.advance(30_000);
    }
  });
});
