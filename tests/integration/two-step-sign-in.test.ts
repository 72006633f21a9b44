// @setup embedded
import { describe, expect, it } from 'vitest';
import { GOOD_PASSWORD } from '../helpers/auth-api.ts';
import { DAY, MINUTE } from '../helpers/test-clock.ts';
import { useTwoStepApp } from '../helpers/two-step-api.ts';

const STEP = 30_000;

describe('two-step sign-in (docs/decisions/0032)', () => {
  const ctx = useTwoStepApp();

  /** A registered account with two-step on: its credentials, secret and recovery codes. */
  const accountWithTwoStep = async () => {
    const account = await ctx.api.registerUser();
    const { token } = await ctx.api.login(account.email);
    const enabled = await ctx.twoStep.enable(token);
    ctx.clock.advance(STEP); // the enabling code's step is used up
    return { ...account, token, ...enabled };
  };

  it('sets up with a QR code and a first code, and shows ten recovery codes once', async () => {
    const account = await ctx.api.registerUser();
    const { token } = await ctx.api.login(account.email);
    const before = await ctx.api.get('/security', token);
    expect(before.body.twoFactor).toMatchObject({ isEnabled: false, recoveryCodesLeft: 0, hasPassword: true });

    const setup = await ctx.api.post('/security/two-factor/setup', {}, token);
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauthUri).toContain(`secret=${setup.body.secret}`);
    expect(setup.body.qrSvg).toMatch(/^<svg[^>]*>/);
    expect(setup.body.qrSvg).not.toMatch(/<script/i);

    const wrong = await ctx.api.post('/security/two-factor/enable', { code: '000000' }, token);
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('El código no es correcto. Revisa tu aplicación e inténtalo de nuevo.');
    // Until it is confirmed, nothing changes at sign-in.
    expect((await ctx.api.login(account.email)).token).toEqual(expect.any(String));

    const enabled = await ctx.api.post(
      '/security/two-factor/enable',
      { code: ctx.twoStep.code(setup.body.secret as string) },
      token,
    );
    expect(enabled.status).toBe(200);
    const codes = enabled.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const after = await ctx.api.get('/security', token);
    expect(after.body.twoFactor).toMatchObject({ isEnabled: true, recoveryCodesLeft: 10 });
    // The codes are never shown again, and a second setup is refused.
    expect(JSON.stringify(after.body)).not.toContain(codes[0]);
    expect((await ctx.api.post('/security/two-factor/setup', {}, token)).status).toBe(409);
  });

  it('password + authenticator code: a pending token first, a session only after the code, and a code works once', async () => {
    const account = await accountWithTwoStep();
    const pending = await ctx.twoStep.pendingLogin(account.email, account.password);
    // The pending token is no session token.
    expect((await ctx.api.get('/auth/validate-session', pending)).status).toBe(401);

    const code = ctx.twoStep.code(account.secret);
    const done = await ctx.api.post('/auth/second-step', { pendingToken: pending, method: 'totp', code });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await ctx.api.get('/auth/validate-session', done.body.token as string)).status).toBe(200);

    const again = await ctx.twoStep.pendingLogin(account.email, account.password);
    const replay = await ctx.api.post('/auth/second-step', { pendingToken: again, method: 'totp', code });
    expect(replay.status).toBe(400);
    expect(replay.body.errorType).toBe('INVALID_CODE');
    // A code of the previous step (typed late) still works once the next step starts.
    ctx.clock.advance(STEP);
    const late = await ctx.api.post('/auth/second-step', {
      pendingToken: again,
      method: 'totp',
      code: ctx.twoStep.code(account.secret),
    });
    expect(late.status).toBe(200);
  });

  it('phone + password (the wizard’s sign-in) asks for the second step too', async () => {
    const account = await accountWithTwoStep();
    const first = await ctx.api.post('/auth/complete-registration', {
      phone: account.phone,
      password: account.password,
      rememberMe: true,
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.secondStepRequired).toBe(true);
    expect(first.body.token).toBeUndefined();
    const done = await ctx.api.post('/auth/second-step', {
      pendingToken: first.body.pendingToken,
      method: 'totp',
      code: ctx.twoStep.code(account.secret),
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.user).toMatchObject({ userId: account.userId });
  });

  it('password + recovery code: each code works once', async () => {
    const account = await accountWithTwoStep();
    const [first] = account.recoveryCodes as [string];
    const pending = await ctx.twoStep.pendingLogin(account.email, account.password);
    const used = await ctx.api.post('/auth/second-step', {
      pendingToken: pending,
      method: 'recovery',
      code: first.toUpperCase(),
    });
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    const reused = await ctx.api.post('/auth/second-step', { pendingToken: pending, method: 'recovery', code: first });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe('El código de recuperación no es correcto o ya se ha usado.');
    const status = await ctx.api.get('/security', used.body.token as string);
    expect(status.body.twoFactor).toMatchObject({ recoveryCodesLeft: 9 });
  });

  it('new recovery codes: confirmed with an app code, the old ones stop working, the new ones work once', async () => {
    const account = await accountWithTwoStep();
    const [oldCode] = account.recoveryCodes as [string];
    const wrong = await ctx.api.post(
      '/security/two-factor/recovery-codes',
      { code: ctx.twoStep.code(account.secret) === '000000' ? '000001' : '000000' },
      account.token,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('El código no es correcto. Revisa tu aplicación e inténtalo de nuevo.');

    const renewed = await ctx.api.post(
      '/security/two-factor/recovery-codes',
      { code: ctx.twoStep.code(account.secret) },
      account.token,
    );
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body.message).toBe('Nuevos códigos de recuperación creados. Los anteriores ya no sirven.');
    const fresh = renewed.body.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(oldCode);
    expect((await ctx.api.get('/security', account.token)).body.twoFactor).toMatchObject({ recoveryCodesLeft: 10 });

    const pending = await ctx.twoStep.pendingLogin(account.email, account.password);
    const stale = await ctx.api.post('/auth/second-step', { pendingToken: pending, method: 'recovery', code: oldCode });
    expect(stale.status).toBe(400);
    expect(stale.body.message).toBe('El código de recuperación no es correcto o ya se ha usado.');
    const used = await ctx.api.post('/auth/second-step', { pendingToken: pending, method: 'recovery', code: fresh[0] });
    expect(used.status, JSON.stringify(used.body)).toBe(200);

    // Without two-step on there is nothing to renew.
    const other = await ctx.api.registerUser();
    const { token } = await ctx.api.login(other.email);
    const off = await ctx.api.post('/security/two-factor/recovery-codes', { code: '123456' }, token);
    expect(off.status).toBe(409);
    expect(off.body.message).toBe('La verificación en dos pasos no está activada.');
  });

  it('password + SMS code to the verified phone', async () => {
    const account = await accountWithTwoStep();
    const login = await ctx.api.post('/auth/login', { email: account.email, password: account.password });
    expect(login.body.methods).toEqual(['totp', 'recovery', 'sms']);
    expect(login.body.phoneHint).toBe(`••• •• •• ${account.phone.slice(-2)}`);
    const pendingToken = login.body.pendingToken as string;
    ctx.clock.advance(MINUTE); // the registration's SMS cooldown
    const sent = await ctx.api.post('/auth/second-step/send-sms', { pendingToken });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const code = await ctx.api.latestCode(account.phone);
    const wrong = await ctx.api.post('/auth/second-step', {
      pendingToken,
      method: 'sms',
      code: code === '123456' ? '654321' : '123456',
    });
    expect(wrong.status).toBe(400);
    const done = await ctx.api.post('/auth/second-step', { pendingToken, method: 'sms', code });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    // Used up.
    expect((await ctx.api.post('/auth/second-step', { pendingToken, method: 'sms', code })).status).toBe(400);
  });

  it('throttles wrong codes like wrong passwords: 429 with Retry-After, even for a right code, until the window ends', async () => {
    const account = await accountWithTwoStep();
    const pendingToken = await ctx.twoStep.pendingLogin(account.email, account.password);
    const right = ctx.twoStep.code(account.secret);
    const wrongCode = right === '111111' ? '222222' : '111111';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await ctx.api.post('/auth/second-step', { pendingToken, method: 'totp', code: wrongCode });
      expect(wrong.status).toBe(400);
    }
    const limited = await ctx.api.post('/auth/second-step', { pendingToken, method: 'totp', code: right });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.message).toBe('Demasiados códigos incorrectos. Espera un poco antes de intentarlo de nuevo.');
    ctx.clock.advance(MINUTE);
    const fresh = await ctx.twoStep.pendingLogin(account.email, account.password);
    const later = await ctx.api.post('/auth/second-step', {
      pendingToken: fresh,
      method: 'totp',
      code: ctx.twoStep.code(account.secret),
    });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
  });

  it('a pending sign-in ends after 10 minutes', async () => {
    const account = await accountWithTwoStep();
    const pendingToken = await ctx.twoStep.pendingLogin(account.email, account.password);
    ctx.clock.advance(10 * MINUTE + 1000);
    const late = await ctx.api.post('/auth/second-step', {
      pendingToken,
      method: 'totp',
      code: ctx.twoStep.code(account.secret),
    });
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({
      errorType: 'SECOND_STEP_EXPIRED',
      message: 'Ha pasado demasiado tiempo. Vuelve a iniciar sesión.',
    });
  });

  it('"Recordar este dispositivo": 30 days without the code on this browser, and a password reset forgets it', async () => {
    const account = await accountWithTwoStep();
    const pendingToken = await ctx.twoStep.pendingLogin(account.email, account.password);
    const done = await ctx.api.post('/auth/second-step', {
      pendingToken,
      method: 'totp',
      code: ctx.twoStep.code(account.secret),
      rememberDevice: true,
    });
    expect(done.status).toBe(200);
    const cookie = done.headers.get('set-cookie') as string;
    expect(cookie).toMatch(/^entreno_device=[\w-]+; Path=\/api\/auth; Max-Age=2592000; HttpOnly; SameSite=Strict/);
    const device = { cookie: cookie.split(';')[0] as string };

    const remembered = await ctx.api.call('POST', '/auth/login', {
      body: { email: account.email, password: account.password },
      headers: device,
    });
    expect(remembered.body.token).toEqual(expect.any(String));
    // Another browser (no cookie) still asks.
    await ctx.twoStep.pendingLogin(account.email, account.password);

    ctx.clock.advance(30 * DAY + MINUTE);
    await ctx.twoStep.pendingLogin(account.email, account.password, device);

    // Remembered again, then the password is reset: the device must give the code again.
    const again = await ctx.api.post('/auth/second-step', {
      pendingToken: await ctx.twoStep.pendingLogin(account.email, account.password),
      method: 'totp',
      code: ctx.twoStep.code(account.secret),
      rememberDevice: true,
    });
    const secondDevice = { cookie: (again.headers.get('set-cookie') as string).split(';')[0] as string };
    const skipped = await ctx.api.call('POST', '/auth/login', {
      body: { email: account.email, password: account.password },
      headers: secondDevice,
    });
    expect(skipped.body.token).toEqual(expect.any(String));
    expect((await ctx.api.post('/auth/forgot-password', { email: account.email })).status).toBe(200);
    const [mail] = await ctx.api.waitForOutbox(account.email);
    const token = new URL(mail?.link as string).searchParams.get('token') as string;
    const newPassword = 'Dominadas&Zumo9';
    const reset = await ctx.api.post('/auth/reset-password', {
      token,
      email: account.email,
      newPassword,
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    await ctx.twoStep.pendingLogin(account.email, newPassword, secondDevice);
  });

  it('turning it off needs the password and a code; then sign-in is one step again', async () => {
    const account = await accountWithTwoStep();
    const code = () => ctx.twoStep.code(account.secret);
    const noPassword = await ctx.api.post('/security/two-factor/disable', { code: code() }, account.token);
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.message).toBe('Introduce tu contraseña');
    const wrongPassword = await ctx.api.post(
      '/security/two-factor/disable',
      { password: 'Otra&Clave99', code: code() },
      account.token,
    );
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.message).toBe('La contraseña no es correcta.');
    const wrongCode = await ctx.api.post(
      '/security/two-factor/disable',
      { password: GOOD_PASSWORD, code: code() === '000000' ? '000001' : '000000' },
      account.token,
    );
    expect(wrongCode.status).toBe(400);
    expect((await ctx.api.get('/security', account.token)).body.twoFactor).toMatchObject({ isEnabled: true });

    const off = await ctx.api.post(
      '/security/two-factor/disable',
      { password: GOOD_PASSWORD, code: code() },
      account.token,
    );
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect((await ctx.api.get('/security', account.token)).body.twoFactor).toMatchObject({
      isEnabled: false,
      recoveryCodesLeft: 0,
    });
    // The session that turned it off goes on; sign-in no longer asks for a code.
    expect((await ctx.api.login(account.email)).token).toEqual(expect.any(String));
  });

  it('refuses bad input with Spanish 4xx answers', async () => {
    const account = await accountWithTwoStep();
    const cases: unknown[] = [
      {},
      { pendingToken: 'x', method: 'totp' },
      { pendingToken: 'x', method: 'carrier-pigeon', code: '123456' },
      { pendingToken: 'x'.repeat(5000), method: 'totp', code: '123456' },
      { pendingToken: 'not.a.token', method: 'totp', code: '123456' },
      { pendingToken: account.token, method: 'totp', code: '123456' },
      { pendingToken: 'x', method: 'totp', code: '1', extra: true },
    ];
    for (const body of cases) {
      const response = await ctx.api.post('/auth/second-step', body);
      expect(response.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(response.status, JSON.stringify(body)).toBeLessThan(500);
      expect(response.body.message).toMatch(/[áéíóúñ]|Introduce|Elige|datos/);
    }
    expect((await ctx.api.get('/security')).status).toBe(401);
    expect((await ctx.api.post('/security/two-factor/setup', {})).status).toBe(401);
  });
});
