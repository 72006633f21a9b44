// @setup embedded
import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../helpers/auth-api.ts';
import { createSoftPasskey } from '../helpers/soft-passkey.ts';
import { MINUTE } from '../helpers/test-clock.ts';
import { useTwoStepApp } from '../helpers/two-step-api.ts';

describe('passkeys and Google with the second step (docs/decisions/0032)', () => {
  const ctx = useTwoStepApp({ google: true });

  /** Registration options → the soft authenticator → POST /security/passkeys. */
  const addPasskey = async (token: string, name: string) => {
    const passkey = createSoftPasskey(ctx.app.config.publicOrigin);
    const options = await ctx.api.post('/security/passkeys/options', {}, token);
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    const creation = options.body.options as { challenge: string; rp: { id: string }; user: { id: string } };
    expect(creation.rp.id).toBe(new URL(ctx.app.config.publicOrigin).hostname);
    const added = await ctx.api.post(
      '/security/passkeys',
      { challengeId: options.body.challengeId, name, response: passkey.register(creation) },
      token,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    return { passkey, summary: added.body.passkey as { id: string; name: string } };
  };

  const signInWithPasskey = async (passkey: ReturnType<typeof createSoftPasskey>, origin?: string) => {
    const options = await ctx.api.post('/auth/passkey/options', {});
    expect(options.status).toBe(200);
    const request = options.body.options as { challenge: string; userVerification: string; allowCredentials?: [] };
    expect(request.userVerification).toBe('required');
    return ctx.api.post('/auth/passkey', {
      challengeId: options.body.challengeId,
      response: passkey.authenticate(request, { origin }),
      rememberMe: true,
    });
  };

  it('registers a named passkey, lists it with its dates, and signs in with it without a password', async () => {
    const account = await ctx.api.registerUser();
    const { token } = await ctx.api.login(account.email);
    const { passkey, summary } = await addPasskey(token, 'Móvil de Lucía');
    expect(summary).toMatchObject({ id: passkey.id, name: 'Móvil de Lucía' });

    const listed = await ctx.api.get('/security', token);
    expect(listed.body.passkeys).toEqual([
      { id: passkey.id, name: 'Móvil de Lucía', createdAt: ctx.clock.now().toISOString(), lastUsedAt: null },
    ]);

    ctx.clock.advance(MINUTE);
    const signedIn = await signInWithPasskey(passkey);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user).toMatchObject({ userId: account.userId });
    expect(signedIn.body.message).toBe('Sesión iniciada con tu llave de acceso.');
    const after = await ctx.api.get('/security', signedIn.body.token as string);
    expect((after.body.passkeys as Array<{ lastUsedAt: string }>)[0]?.lastUsedAt).toBe(ctx.clock.now().toISOString());
  });

  it('a passkey sign-in satisfies two-step verification', async () => {
    const account = await ctx.api.registerUser();
    const { token } = await ctx.api.login(account.email);
    const { passkey } = await addPasskey(token, 'Portátil');
    await ctx.twoStep.enable(token);
    await ctx.twoStep.pendingLogin(account.email, account.password);
    const signedIn = await signInWithPasskey(passkey);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.token).toEqual(expect.any(String));
    expect(signedIn.body.secondStepRequired).toBeUndefined();
  });

  it('refuses a reused challenge, another site’s answer, an unknown or removed passkey', async () => {
    const account = await ctx.api.registerUser();
    const { token } = await ctx.api.login(account.email);
    const { passkey } = await addPasskey(token, 'Llave USB');

    const options = await ctx.api.post('/auth/passkey/options', {});
    const answer = passkey.authenticate(options.body.options as { challenge: string });
    const first = await ctx.api.post('/auth/passkey', { challengeId: options.body.challengeId, response: answer });
    expect(first.status).toBe(200);
    const replay = await ctx.api.post('/auth/passkey', { challengeId: options.body.challengeId, response: answer });
    expect(replay.status).toBe(400);
    expect(replay.body.errorType).toBe('CHALLENGE_EXPIRED');

    const phished = await signInWithPasskey(passkey, 'https://entreno.example.evil');
    expect(phished.status).toBe(400);
    expect(phished.body.message).toBe('No hemos podido comprobar la llave de acceso. Vuelve a intentarlo.');

    const stranger = await signInWithPasskey(createSoftPasskey(ctx.app.config.publicOrigin));
    expect(stranger.status).toBe(400);
    expect(stranger.body.errorType).toBe('PASSKEY_UNKNOWN');

    // Only its owner removes it; then it no longer signs in.
    const other = await ctx.api.registerUser();
    const otherToken = (await ctx.api.login(other.email)).token;
    const notYours = await ctx.api.call('DELETE', `/security/passkeys/${encodeURIComponent(passkey.id)}`, {
      token: otherToken,
    });
    expect(notYours.status).toBe(404);
    const removed = await ctx.api.call('DELETE', `/security/passkeys/${encodeURIComponent(passkey.id)}`, { token });
    expect(removed.status).toBe(200);
    expect((await ctx.api.get('/security', token)).body.passkeys).toEqual([]);
    expect((await signInWithPasskey(passkey)).body.errorType).toBe('PASSKEY_UNKNOWN');
    // Removing a passkey leaves the session that did it alone.
    expect((await ctx.api.get('/auth/validate-session', token)).status).toBe(200);
  });

  it('refuses a registration answered for another challenge, a nameless passkey and callers without a session', async () => {
    const account = await ctx.api.registerUser();
    const { token } = await ctx.api.login(account.email);
    const passkey = createSoftPasskey(ctx.app.config.publicOrigin);
    const options = await ctx.api.post('/security/passkeys/options', {}, token);
    const forged = await ctx.api.post(
      '/security/passkeys',
      { challengeId: options.body.challengeId, name: 'Falsa', response: passkey.register({ challenge: 'AAAA' }) },
      token,
    );
    expect(forged.status).toBe(400);
    const nameless = await ctx.api.post(
      '/security/passkeys',
      { challengeId: options.body.challengeId, name: '   ', response: passkey.register({ challenge: 'AAAA' }) },
      token,
    );
    expect(nameless.status).toBe(400);
    expect(nameless.body.message).toBe('Ponle un nombre a la llave de acceso');
    expect((await ctx.api.post('/security/passkeys/options', {})).status).toBe(401);
    expect((await ctx.api.post('/auth/passkey', { challengeId: 'nope', response: {} })).status).toBe(400);
  });

  it('Google sign-in asks for the second step too when it is on', async () => {
    // A Gmail address registered with a password: Google links it at its first sign-in (decision 0004).
    const email = uniqueEmail('gmail').replace('@example.com', '@gmail.com');
    const account = await ctx.api.registerUser({ email });
    const { token } = await ctx.api.login(account.email);
    const { secret } = await ctx.twoStep.enable(token);
    ctx.clock.advance(30_000);
    const googleAccount = { email, givenName: 'Lucía', familyName: 'García' };
    const sub = ctx.google.standIn.claimsFor(googleAccount).sub;
    const signIn = async () =>
      ctx.api.post('/auth/google', {
        googleId: sub,
        email,
        name: 'Lucía',
        lastName: 'García',
        picture: 'https://lh3.googleusercontent.com/a/photo',
        credential: await ctx.google.signIdToken({ account: googleAccount }),
      });
    for (const _ of [1, 2]) {
      const first = await signIn();
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.secondStepRequired).toBe(true);
      expect(first.body.token).toBeUndefined();
      const done = await ctx.api.post('/auth/second-step', {
        pendingToken: first.body.pendingToken,
        method: 'totp',
        code: ctx.twoStep.code(secret),
      });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.user).toMatchObject({ userId: account.userId });
      ctx.clock.advance(30_000);
    }
  });
});
