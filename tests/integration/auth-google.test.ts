// @setup embedded
// Long on purpose: every Google path of spec 000 §4 against the stand-in issuer it sets up once.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthUser } from '#shared/auth/auth-schemas';
import { type Api, createApi, decodeToken, GOOD_PASSWORD, uniqueEmail, uniquePhone } from '../helpers/auth-api.ts';
import {
  type GoogleStandInServer,
  googleConfigFor,
  startGoogleStandIn,
  type TestTokenOverrides,
} from '../helpers/google-stand-in.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, DAY, HOUR, MINUTE } from '../helpers/test-clock.ts';

const USER_NOT_FOUND = { success: false, message: 'Usuario no encontrado', errorType: 'USER_NOT_FOUND' };
const BAD_CREDENTIAL = {
  success: false,
  message: 'Credencial de Google no válida',
  errorType: 'INVALID_GOOGLE_CREDENTIAL',
};
const GOOGLE_ACCOUNT_EXISTS =
  'Se ha encontrado una cuenta asociada a este correo de Google. Por favor, inicia sesión o usa otro correo.';
const PHONE_BLOCKED =
  'Este número de teléfono ha sido temporalmente bloqueado por motivos de seguridad. Por favor, utiliza un número de teléfono diferente.';
const INVALID_PHONE = 'El número de teléfono no es válido o no está en el formato correcto.';

/** A wrong code for a right one: same length, different digits. */
const wrong = (code: string) => code.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));

describe('Google sign-in and registration (spec 000 §4, §7; QUALITY 6)', () => {
  const clock = createTestClock();
  const registered: AuthUser[] = [];
  const blockedNumber = uniquePhone();
  let google: GoogleStandInServer;
  let app: TestApp;
  let api: Api;

  /** A fresh Google account (its own e-mail and subject) and a good credential for it. */
  const newGoogleAccount = async (overrides: { email?: string; givenName?: string; familyName?: string } = {}) => {
    const email = overrides.email ?? uniqueEmail('google');
    const account = { email, givenName: overrides.givenName ?? 'Ana', familyName: overrides.familyName ?? 'García' };
    const sub = google.standIn.claimsFor(account).sub;
    return {
      ...account,
      sub,
      credential: (extra: TestTokenOverrides = {}) => google.signIdToken({ ...extra, account }),
    };
  };
  type GoogleAccount = Awaited<ReturnType<typeof newGoogleAccount>>;

  /** The spec's bodies (000 §7), each with the credential. */
  const loginBody = (account: GoogleAccount, credential: string | undefined) => ({
    googleId: account.sub,
    email: account.email,
    name: account.givenName,
    lastName: account.familyName,
    picture: 'https://lh3.googleusercontent.com/a/photo',
    credential,
  });

  /** send-code → the code from the dev outbox → verify-code: what verify-code answered. */
  const registerWithGoogle = async (account: GoogleAccount, phone = uniquePhone()) => {
    const credential = await account.credential();
    const sent = await api.post('/auth/google/send-code', { phone, email: account.email, credential });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const code = await api.latestCode(phone);
    return api.post('/auth/google/verify-code', {
      phone,
      code,
      googleId: account.sub,
      email: account.email,
      firstName: account.givenName,
      lastName: account.familyName,
      credential,
    });
  };

  beforeAll(async () => {
    google = await startGoogleStandIn();
    app = await startTestApp(
      { google: googleConfigFor(google), smsBlockedNumbers: [blockedNumber] },
      { dependencies: { clock, authHooks: { onUserRegistered: (user) => void registered.push(user) } } },
    );
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
    await google?.close();
  });
  // Each test in a fresh set of rate-limit windows and SMS cooldowns.
  beforeEach(() => clock.advance(2 * HOUR));

  it('sends a new Google user to registration, registers them by SMS code and signs them in again', async () => {
    const account = await newGoogleAccount({ givenName: 'Ana', familyName: 'García López' });
    const phone = uniquePhone();

    const first = await api.post('/auth/google', loginBody(account, await account.credential()));
    expect(first.status).toBe(404);
    expect(first.body).toEqual(USER_NOT_FOUND);

    const credential = await account.credential();
    const sent = await api.post('/auth/google/send-code', { phone, email: account.email, credential });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ success: true, message: 'Código enviado correctamente' });
    const code = await api.latestCode(phone);

    const verified = await api.post('/auth/google/verify-code', {
      phone,
      code,
      googleId: account.sub,
      email: account.email,
      firstName: account.givenName,
      lastName: account.familyName,
      credential,
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const body = verified.body as { success: boolean; token: string; user: AuthUser };
    expect(body.success).toBe(true);
    expect(body.user).toEqual({
      userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: account.email,
      name: 'Ana',
      lastName: 'García López',
      phone,
      createdAt: clock.now().toISOString(),
      completeProfile: false,
      streak: 0,
      lastLoginDate: null,
    });
    // A 30-day session: the client keeps Google's token in local storage.
    const claims = decodeToken(body.token);
    expect(Number(claims.exp) - Number(claims.iat)).toBe((30 * DAY) / 1000);
    expect(registered.map((user) => user.userId)).toContain(body.user.userId);

    // Stored with the verified subject and no password.
    const stored = await app.auth.users.findById(body.user.userId);
    expect(stored?.googleSub).toBe(account.sub);
    expect(stored?.passwordHash).toBeNull();
    expect((await api.get('/auth/validate-session', body.token)).status).toBe(200);

    const again = await api.post('/auth/google', loginBody(account, await account.credential()));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      success: true,
      message: expect.any(String),
      user: { userId: body.user.userId },
    });
    const session = await api.get('/auth/validate-session', again.body.token as string);
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ success: true, user: { userId: body.user.userId, email: account.email } });
    // No password to guess on a Google-only account.
    expect((await api.post('/auth/login', { email: account.email, password: GOOD_PASSWORD })).status).toBe(401);
  });

  it.each<[string, (account: GoogleAccount) => Promise<string>]>([
    [
      'a wrong audience',
      (account) => account.credential({ claims: { aud: 'someone-else.apps.googleusercontent.com' } }),
    ],
    ['a wrong issuer', (account) => account.credential({ claims: { iss: 'https://accounts.example' } })],
    ['an expired token', (account) => account.credential({ now: new Date(Date.now() - 3 * HOUR) })],
    ['a key Google never published', (account) => account.credential({ signing: 'unknown-key' })],
    ['a foreign key under the published kid', (account) => account.credential({ signing: 'foreign-key-same-kid' })],
    ['alg none', (account) => account.credential({ signing: 'none' })],
    ['HS256 keyed with the public key', (account) => account.credential({ signing: 'hs256-public-key' })],
    ['an unverified e-mail', (account) => account.credential({ claims: { email_verified: false } })],
  ])('refuses %s with 401 on all three routes', async (_label, forge) => {
    const account = await newGoogleAccount();
    // Registered first, so a forged token for it would have an account to get into.
    expect((await registerWithGoogle(account)).status).toBe(200);
    const credential = await forge(account);
    const phone = uniquePhone();
    const answers = [
      await api.post('/auth/google', loginBody(account, credential)),
      await api.post('/auth/google/send-code', { phone, email: account.email, credential }),
      await api.post('/auth/google/verify-code', {
        phone,
        code: '123456',
        googleId: account.sub,
        email: account.email,
        firstName: 'Ana',
        lastName: '',
        credential,
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(BAD_CREDENTIAL);
    }
    expect(await api.outbox(phone)).toEqual([]);
  });

  it('never trusts a googleId or e-mail sent without a valid credential', async () => {
    const victim = await newGoogleAccount();
    expect((await registerWithGoogle(victim)).status).toBe(200);
    const phone = uniquePhone();
    for (const credential of [undefined, '', 'not-a-jwt', `${victim.sub}.${victim.email}.x`]) {
      const answers = [
        await api.post('/auth/google', loginBody(victim, credential)),
        await api.post('/auth/google/send-code', { phone, email: victim.email, credential }),
        await api.post('/auth/google/verify-code', {
          phone,
          code: '123456',
          googleId: victim.sub,
          email: victim.email,
          firstName: 'Ana',
          lastName: '',
          credential,
        }),
      ];
      for (const answer of answers) {
        expect(answer.status, String(credential)).toBe(401);
        expect(answer.body).toEqual(BAD_CREDENTIAL);
        expect(answer.body).not.toHaveProperty('token');
      }
    }
  });

  it("reads the account only from the credential: someone else's googleId and e-mail beside it are ignored", async () => {
    const victim = await newGoogleAccount();
    const victimAnswer = await registerWithGoogle(victim);
    const victimId = (victimAnswer.body.user as AuthUser).userId;
    const attacker = await newGoogleAccount({ givenName: 'Eva' });
    const spoofed = (credential: string) => ({ ...loginBody(victim, credential) });

    // The attacker has no account yet: their own credential with the victim's ids finds nothing.
    const notFound = await api.post('/auth/google', spoofed(await attacker.credential()));
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual(USER_NOT_FOUND);

    // Registering with the victim's ids in the body creates the attacker's own account.
    const phone = uniquePhone();
    const credential = await attacker.credential();
    expect((await api.post('/auth/google/send-code', { phone, email: victim.email, credential })).status).toBe(200);
    const created = await api.post('/auth/google/verify-code', {
      phone,
      code: await api.latestCode(phone),
      googleId: victim.sub,
      email: victim.email,
      firstName: 'Ana',
      lastName: 'Víctima',
      credential,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.user).toMatchObject({ email: attacker.email, name: 'Eva' });
    expect((created.body.user as AuthUser).userId).not.toBe(victimId);
    expect((await app.auth.users.findById(victimId))?.phone).toBe((victimAnswer.body.user as AuthUser).phone);

    const signedIn = await api.post('/auth/google', spoofed(await attacker.credential()));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ email: attacker.email });
    expect((signedIn.body.user as AuthUser).userId).not.toBe(victimId);
    const session = await api.get('/auth/validate-session', signedIn.body.token as string);
    expect((session.body.user as AuthUser).userId).not.toBe(victimId);
  });

  it('answers 409 with the spec text when the e-mail or the Google account already has an account', async () => {
    const wizardUser = await api.registerUser({ email: uniqueEmail('wizard') });
    const sameEmail = await newGoogleAccount({ email: wizardUser.email });
    const phone = uniquePhone();
    const sent = await api.post('/auth/google/send-code', {
      phone,
      email: sameEmail.email,
      credential: await sameEmail.credential(),
    });
    expect(sent.status).toBe(409);
    expect(sent.body).toEqual({ success: false, message: GOOGLE_ACCOUNT_EXISTS, errorType: 'EMAIL_TAKEN' });
    expect(await api.outbox(phone)).toEqual([]);

    const googleUser = await newGoogleAccount();
    expect((await registerWithGoogle(googleUser)).status).toBe(200);
    const twice = await api.post('/auth/google/send-code', {
      phone: uniquePhone(),
      email: googleUser.email,
      credential: await googleUser.credential(),
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ message: GOOGLE_ACCOUNT_EXISTS });
    const verifyTwice = await api.post('/auth/google/verify-code', {
      phone: uniquePhone(),
      code: '123456',
      credential: await googleUser.credential(),
    });
    expect(verifyTwice.status).toBe(409);
    expect(verifyTwice.body).toMatchObject({ message: GOOGLE_ACCOUNT_EXISTS });
  });

  it('asks a password account to sign in with its password when Google is not authoritative for the e-mail', async () => {
    const wizardUser = await api.registerUser({ email: uniqueEmail('password') });
    const sameEmail = await newGoogleAccount({ email: wizardUser.email });
    const answer = await api.post('/auth/google', loginBody(sameEmail, await sameEmail.credential()));
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      success: false,
      message: 'Ya existe una cuenta de Entreno con este correo. Por favor, inicia sesión con tu email y contraseña.',
      errorType: 'EMAIL_TAKEN',
    });
    const stored = await app.auth.users.findById(wizardUser.userId);
    expect(stored?.googleSub).toBeNull();
    await api.login(wizardUser.email);
  });

  it.each([
    ['a gmail.com address', () => `ana.${Date.now()}.${Math.random().toString(36).slice(2)}@gmail.com`, {}],
    ['a Workspace account (hd)', () => uniqueEmail('workspace'), { hd: 'example.com' }],
  ])('links %s to the password account, ending its sessions and its password', async (_label, makeEmail, claims) => {
    const wizardUser = await api.registerUser({ email: makeEmail() });
    const oldSession = await api.login(wizardUser.email, GOOD_PASSWORD, { rememberMe: true });
    const account = await newGoogleAccount({ email: wizardUser.email });

    const linked = await api.post('/auth/google', loginBody(account, await account.credential({ claims })));
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body).toMatchObject({
      success: true,
      message: expect.stringContaining('Hemos vinculado tu cuenta de Google'),
      user: { userId: wizardUser.userId, email: wizardUser.email },
    });
    expect((await api.get('/auth/validate-session', oldSession.token)).status).toBe(401);
    expect((await api.get('/auth/validate-session', linked.body.token as string)).status).toBe(200);
    // Whoever chose the password never proved the address: the password is gone.
    expect((await api.post('/auth/login', { email: wizardUser.email, password: GOOD_PASSWORD })).status).toBe(401);
    expect((await app.auth.users.findById(wizardUser.userId))?.googleSub).toBe(account.sub);

    const again = await api.post('/auth/google', loginBody(account, await account.credential({ claims })));
    expect(again.status).toBe(200);
    expect(again.body.user).toMatchObject({ userId: wizardUser.userId });
  });

  it("answers a wrong code with 400 'Código inválido' and still accepts the right one", async () => {
    const account = await newGoogleAccount();
    const phone = uniquePhone();
    const credential = await account.credential();
    expect((await api.post('/auth/google/send-code', { phone, email: account.email, credential })).status).toBe(200);
    const code = await api.latestCode(phone);
    const body = { phone, googleId: account.sub, email: account.email, firstName: 'Ana', lastName: '', credential };

    const bad = await api.post('/auth/google/verify-code', { ...body, code: wrong(code) });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, message: 'Código inválido', errorType: 'INVALID_CODE' });
    expect(await app.auth.users.findByGoogleSub(account.sub)).toBeUndefined();

    const good = await api.post('/auth/google/verify-code', { ...body, code });
    expect(good.status).toBe(200);
  });

  it("keeps codes of the e-mail wizard and of Google apart ('register' vs 'google-register')", async () => {
    const account = await newGoogleAccount();
    const phone = uniquePhone();
    expect((await api.post('/auth/send-code', { phone })).status).toBe(200);
    const wizardCode = await api.latestCode(phone);
    const answer = await api.post('/auth/google/verify-code', {
      phone,
      code: wizardCode,
      credential: await account.credential(),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errorType: 'INVALID_CODE' });
  });

  it('shares the phone rules and errorTypes of /auth/send-code', async () => {
    const account = await newGoogleAccount();
    const credential = await account.credential();

    const blocked = await api.post('/auth/google/send-code', {
      phone: blockedNumber,
      email: account.email,
      credential,
    });
    expect(blocked.status).toBe(400);
    expect(blocked.body).toEqual({ success: false, message: PHONE_BLOCKED, errorType: 'PHONE_BLOCKED' });

    const invalid = await api.post('/auth/google/send-code', { phone: '12345', email: account.email, credential });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ success: false, message: INVALID_PHONE, errorType: 'INVALID_PHONE' });

    const phone = uniquePhone();
    expect((await api.post('/auth/google/send-code', { phone, credential })).status).toBe(200);
    const resend = await api.post('/auth/google/send-code', { phone, credential });
    expect(resend.status).toBe(429);
    expect(resend.body).toMatchObject({ success: false, errorType: 'OTHER' });
    expect(Number(resend.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('tells that a phone belongs to another account only after its code is verified', async () => {
    const owner = await api.registerUser();
    const account = await newGoogleAccount();
    const credential = await account.credential();
    clock.advance(2 * MINUTE); // past the number's resend cooldown from the owner's registration
    // send-code answers as for any number (QUALITY 2)...
    const sent = await api.post('/auth/google/send-code', { phone: owner.phone, credential });
    expect(sent.status).toBe(200);
    // ...and verify-code, once the code proved the number is the caller's, says it is taken.
    const answer = await api.post('/auth/google/verify-code', {
      phone: owner.phone,
      code: await api.latestCode(owner.phone),
      credential,
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      success: false,
      message:
        'Este número de teléfono ya está asociado a otra cuenta. Por favor, inicia sesión o utiliza un número diferente.',
      errorType: 'PHONE_TAKEN',
    });
    expect(await app.auth.users.findByGoogleSub(account.sub)).toBeUndefined();
  });

  it("takes the names from the credential, and the client's only when Google gives none", async () => {
    const long = await newGoogleAccount({ givenName: 'María de los Ángeles Victoria', familyName: '' });
    const answer = await registerWithGoogle(long);
    expect(answer.status).toBe(200);
    expect(answer.body.user).toMatchObject({ name: 'María de los Ángeles', lastName: '' });

    const nameless = await newGoogleAccount();
    const credential = await nameless.credential({
      claims: { given_name: undefined, family_name: undefined, name: undefined },
    });
    const phone = uniquePhone();
    expect((await api.post('/auth/google/send-code', { phone, credential })).status).toBe(200);
    const code = await api.latestCode(phone);
    const missing = await api.post('/auth/google/verify-code', { phone, code, credential });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      success: false,
      message: 'No se pudieron obtener los datos necesarios de Google',
      errorType: 'GOOGLE_DATA_MISSING',
    });
    const named = await api.post('/auth/google/verify-code', {
      phone,
      code,
      firstName: 'Lucía',
      lastName: 'Pérez',
      credential,
    });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body.user).toMatchObject({ name: 'Lucía', lastName: 'Pérez', email: nameless.email });
  });

  it('answers bad input with a Spanish 400, never a 5xx', async () => {
    const credential = await (await newGoogleAccount()).credential();
    const cases: [string, unknown][] = [
      ['/auth/google', { credential, isAdmin: true }],
      ['/auth/google', { credential: 42 }],
      ['/auth/google', { credential: 'x'.repeat(20_000) }],
      ['/auth/google', { credential, googleId: { $ne: null } }],
      ['/auth/google', '{"credential": "a", "__proto__": {"polluted": true}}'],
      ['/auth/google', '{"credential": '],
      ['/auth/google/send-code', { credential, phone: 612345678 }],
      ['/auth/google/verify-code', { credential, phone: uniquePhone(), code: 'abcdef' }],
      ['/auth/google/verify-code', { credential, phone: uniquePhone(), code: '123456', firstName: 'x'.repeat(5000) }],
    ];
    for (const [path, body] of cases) {
      const answer = await api.post(path, body);
      expect(answer.status, `${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
      expect(answer.body.success).toBe(false);
      expect(answer.body.message).toMatch(/[áéíóúñ]|datos|JSON|Credencial|código|teléfono/i);
    }
  });

  it('limits credential checks per IP (429 with Retry-After)', async () => {
    let answer = await api.post('/auth/google', { credential: 'x.y.z' });
    let calls = 1;
    while (answer.status === 401 && calls < 100) {
      answer = await api.post('/auth/google', { credential: 'x.y.z' });
      calls += 1;
    }
    expect(answer.status).toBe(429);
    expect(calls).toBe(61);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same budget covers the other two Google calls.
    const sendCode = await api.post('/auth/google/send-code', { phone: uniquePhone(), credential: 'x.y.z' });
    expect(sendCode.status).toBe(429);
  });
});

describe("Google's keys unreachable", () => {
  let google: GoogleStandInServer;
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    google = await startGoogleStandIn();
    google.setJwksAvailable(false);
    app = await startTestApp({ google: googleConfigFor(google) });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
    await google?.close();
  });

  it('answers 503 (a retry may work), not 401, on all three routes', async () => {
    const credential = await google.signIdToken();
    const answers = [
      await api.post('/auth/google', { credential }),
      await api.post('/auth/google/send-code', { phone: uniquePhone(), credential }),
      await api.post('/auth/google/verify-code', { phone: uniquePhone(), code: '123456', credential }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({
        success: false,
        message: 'No se pudo verificar con Google. Intenta de nuevo en unos momentos.',
        errorType: 'GOOGLE_UNAVAILABLE',
      });
      expect(answer.headers.get('retry-after')).toBe('5');
    }
    // Back up: the same credential now works (404: no account yet).
    google.setJwksAvailable(true);
    expect((await api.post('/auth/google', { credential })).status).toBe(404);
  });
});
