// @setup embedded
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { smsCodes } from '../../src/server/db/schema/index.ts';
import { type Api, createApi, GOOD_PASSWORD, uniqueEmail, uniquePhone } from '../helpers/auth-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, HOUR, MINUTE, SECOND } from '../helpers/test-clock.ts';

const PHONE_BLOCKED =
  'Este número de teléfono ha sido temporalmente bloqueado por motivos de seguridad. Por favor, utiliza un número de teléfono diferente.';
const MAX_ATTEMPTS =
  'Por seguridad, has alcanzado el límite de códigos SMS que puedes solicitar. Por favor, espera 3 minutos antes de intentarlo de nuevo.';
const INVALID_PHONE = 'El número de teléfono no es válido o no está en el formato correcto.';

/** A wrong code for a right one: same length, different digits. */
const wrong = (code: string) => code.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));

describe('SMS codes (QUALITY 4, spec 000 §8-§9)', () => {
  const clock = createTestClock();
  const blockedNumber = uniquePhone();
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp({ smsBlockedNumbers: [blockedNumber], smsDailyBudget: 1000 }, { dependencies: { clock } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => clock.advance(2 * HOUR));

  it('sends 6 random digits and stores only a keyed hash of them', async () => {
    const phone = uniquePhone();
    expect((await api.post('/auth/send-code', { phone })).status).toBe(200);
    const code = await api.latestCode(phone);
    const [row] = await app.database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone));
    expect(row?.purpose).toBe('register');
    expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row?.expiresAt.getTime()).toBe(clock.now().getTime() + 10 * MINUTE);
  });

  it('expires a code after 10 minutes', async () => {
    const phone = uniquePhone();
    await api.post('/auth/send-code', { phone });
    const code = await api.latestCode(phone);
    clock.advance(10 * MINUTE);
    const late = await api.post('/auth/verify-code', { phone, code });
    expect(late.status).toBe(400);
    expect(late.body).toEqual({
      success: false,
      message: 'El código ha caducado. Por favor, solicita uno nuevo.',
      errorType: 'CODE_EXPIRED',
    });
  });

  it('accepts a code just before it expires, once', async () => {
    const phone = uniquePhone();
    await api.post('/auth/send-code', { phone });
    const code = await api.latestCode(phone);
    clock.advance(10 * MINUTE - SECOND);
    expect((await api.post('/auth/verify-code', { phone, code })).status).toBe(200);
    const again = await api.post('/auth/verify-code', { phone, code });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ message: 'Código inválido', errorType: 'INVALID_CODE' });
  });

  it('kills a code after 5 wrong guesses, even for the right code', async () => {
    const phone = uniquePhone();
    await api.post('/auth/send-code', { phone });
    const code = await api.latestCode(phone);
    for (let guess = 1; guess <= 4; guess += 1) {
      const answer = await api.post('/auth/verify-code', { phone, code: wrong(code) });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ success: false, message: 'Código inválido', errorType: 'INVALID_CODE' });
    }
    const fifth = await api.post('/auth/verify-code', { phone, code: wrong(code) });
    expect(fifth.body).toMatchObject({ errorType: 'CODE_ATTEMPTS_EXCEEDED' });
    const right = await api.post('/auth/verify-code', { phone, code });
    expect(right.status).toBe(400);
    expect(right.body).toEqual({
      success: false,
      message: 'Has superado el número de intentos para este código. Por favor, solicita uno nuevo.',
      errorType: 'CODE_ATTEMPTS_EXCEEDED',
    });
    // A new code starts with fresh guesses.
    clock.advance(MINUTE);
    await api.verifyPhone(phone);
  });

  it('lets the right code through after 4 wrong guesses', async () => {
    const phone = uniquePhone();
    await api.post('/auth/send-code', { phone });
    const code = await api.latestCode(phone);
    for (let guess = 1; guess <= 4; guess += 1) await api.post('/auth/verify-code', { phone, code: wrong(code) });
    expect((await api.post('/auth/verify-code', { phone, code })).status).toBe(200);
  });

  it('holds the resend for 60 s (429 + Retry-After), then replaces the old code', async () => {
    const phone = uniquePhone();
    await api.post('/auth/send-code', { phone });
    const first = await api.latestCode(phone);
    clock.advance(45 * SECOND);
    const early = await api.post('/auth/send-code', { phone });
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('15');
    expect(early.body).toEqual({
      success: false,
      message: 'Por favor, espera 15 segundos antes de solicitar un nuevo código.',
      errorType: 'OTHER',
    });
    expect(await api.outbox(phone)).toHaveLength(1);

    clock.advance(15 * SECOND);
    expect((await api.post('/auth/send-code', { phone })).status).toBe(200);
    const second = await api.latestCode(phone);
    expect(await api.outbox(phone)).toHaveLength(2);
    if (second !== first) {
      const old = await api.post('/auth/verify-code', { phone, code: first });
      expect(old.body.errorType).toBe('INVALID_CODE');
    }
    expect((await api.post('/auth/verify-code', { phone, code: second })).status).toBe(200);
  });

  it('locks the number for 180 s after 3 sends in 10 minutes (MAX_ATTEMPTS), then unlocks it', async () => {
    const phone = uniquePhone();
    for (let send = 1; send <= 3; send += 1) {
      expect((await api.post('/auth/send-code', { phone })).status).toBe(200);
      clock.advance(MINUTE);
    }
    const locked = await api.post('/auth/send-code', { phone });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('180');
    expect(locked.body).toEqual({ success: false, message: MAX_ATTEMPTS, errorType: 'MAX_ATTEMPTS' });

    clock.advance(179 * SECOND);
    const stillLocked = await api.post('/auth/send-code', { phone });
    expect(stillLocked.status).toBe(429);
    expect(stillLocked.headers.get('retry-after')).toBe('1');
    expect(stillLocked.body.errorType).toBe('MAX_ATTEMPTS');

    clock.advance(SECOND);
    expect((await api.post('/auth/send-code', { phone })).status).toBe(200);
    expect(await api.outbox(phone)).toHaveLength(4);
  });

  it('refuses configured and implausible numbers as PHONE_BLOCKED', async () => {
    for (const phone of [blockedNumber, '+34666666666', '666 666 666', '+34612345678', '+34600000000']) {
      const refused = await api.post('/auth/send-code', { phone });
      expect(refused.status, phone).toBe(400);
      expect(refused.body).toEqual({ success: false, message: PHONE_BLOCKED, errorType: 'PHONE_BLOCKED' });
    }
    expect(await api.outbox(blockedNumber)).toHaveLength(0);
  });

  it.each([
    ['a malformed number', '12345'],
    ['a foreign number', '+33612398745'],
    ['a landline (no SMS)', '+34912398745'],
    ['letters', '+34abcdefghi'],
    ['a number as a number', 612398745],
    ['nothing', undefined],
  ])('refuses %s as INVALID_PHONE', async (_label, phone) => {
    const refused = await api.post('/auth/send-code', phone === undefined ? {} : { phone });
    expect(refused.status).toBe(400);
    expect(refused.body.errorType).toBe('INVALID_PHONE');
    if (typeof phone === 'string') expect(refused.body.message).toBe(INVALID_PHONE);
  });

  it('refuses a number that is not a Spanish mobile on every call that takes one, whatever the client sends', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['/auth/verify-code', { code: '123456' }],
      ['/auth/register', { name: 'Lucía', lastName: '', email: uniqueEmail(), password: GOOD_PASSWORD }],
      ['/auth/complete-registration', { password: GOOD_PASSWORD }],
    ];
    for (const phone of ['+34912398745', '+34812398745', '346123987', '+34 6123987', '6123987451']) {
      for (const [path, body] of calls) {
        const refused = await api.post(path, { ...body, phone });
        expect(refused.status, `${path} ${phone}`).toBe(400);
        expect(refused.body.message, `${path} ${phone}`).toBe(INVALID_PHONE);
      }
    }
  });

  it('reads the formats people type: spaces, dots, dashes, +34 and 0034', async () => {
    const national = uniquePhone().slice(3);
    const spaced = `${national.slice(0, 3)} ${national.slice(3, 5)} ${national.slice(5, 7)} ${national.slice(7)}`;
    expect((await api.post('/auth/send-code', { phone: `0034 ${spaced}` })).status).toBe(200);
    const code = await api.latestCode(`+34${national}`);
    const verified = await api.post('/auth/verify-code', {
      phone: `+34.${national.slice(0, 3)}-${national.slice(3)}`,
      code,
    });
    expect(verified.status).toBe(200);
  });

  it('answers the same whether or not an account uses the number', async () => {
    const { phone } = await api.registerUser();
    clock.advance(MINUTE);
    const known = await api.post('/auth/send-code', { phone });
    const unknown = await api.post('/auth/send-code', { phone: uniquePhone() });
    expect(known.status).toBe(unknown.status);
    expect(known.body).toEqual(unknown.body);
  });

  it('binds a code to its purpose: a registration code does not verify a Google registration', async () => {
    const phone = uniquePhone();
    await api.post('/auth/send-code', { phone });
    const code = await api.latestCode(phone);
    await expect(
      app.auth.smsCodes.verifyCode({ phone, code, purpose: 'google-register', ip: '127.0.0.1' }),
    ).rejects.toMatchObject({ statusCode: 400, errorType: 'INVALID_CODE' });
    await app.auth.smsCodes.verifyCode({ phone, code, purpose: 'register', ip: '127.0.0.1' });
    expect(await app.auth.smsCodes.isPhoneVerified(phone, 'register')).toBe(true);
    expect(await app.auth.smsCodes.isPhoneVerified(phone, 'google-register')).toBe(false);
  });

  it('validates the verify-code body', async () => {
    const phone = uniquePhone();
    expect((await api.post('/auth/verify-code', { phone, code: '123' })).body.message).toBe(
      'El código debe tener 6 dígitos',
    );
    expect((await api.post('/auth/verify-code', { phone, code: '12345a' })).body.message).toBe(
      'El código debe tener 6 dígitos',
    );
    const never = await api.post('/auth/verify-code', { phone, code: '123456' });
    expect(never.status).toBe(400);
    expect(never.body).toMatchObject({ message: 'Código inválido' });
  });

  it('registers with a code even after other numbers were verified (codes are per number)', async () => {
    const [one, two] = [uniquePhone(), uniquePhone()];
    await api.post('/auth/send-code', { phone: one });
    await api.post('/auth/send-code', { phone: two });
    const codeOne = await api.latestCode(one);
    const crossed = await api.post('/auth/verify-code', { phone: two, code: codeOne });
    if (codeOne !== (await api.latestCode(two))) expect(crossed.status).toBe(400);
    expect((await api.post('/auth/verify-code', { phone: one, code: codeOne })).status).toBe(200);
    const register = await api.post('/auth/register', {
      name: 'Ana',
      email: uniqueEmail(),
      phone: one,
      password: GOOD_PASSWORD,
    });
    expect(register.status).toBe(201);
  });
});

describe('SMS sending limits of the whole service', () => {
  it('stops at the daily budget with a 503', async () => {
    const clock = createTestClock();
    const app = await startTestApp({ smsDailyBudget: 2 }, { dependencies: { clock } });
    try {
      const api = createApi(app);
      expect((await api.post('/auth/send-code', { phone: uniquePhone() })).status).toBe(200);
      expect((await api.post('/auth/send-code', { phone: uniquePhone() })).status).toBe(200);
      const phone = uniquePhone();
      const refused = await api.post('/auth/send-code', { phone });
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ success: false, errorType: 'OTHER' });
      expect(refused.body.message).toContain('límite de SMS');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await api.outbox(phone)).toHaveLength(0);
      clock.advance(24 * HOUR);
      expect((await api.post('/auth/send-code', { phone })).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('keys the daily texts per number and per client address too: one client cannot spend the whole budget', async () => {
    const clock = createTestClock('2026-03-11T00:00:00.000Z');
    const app = await startTestApp(
      { smsDailyBudget: 1000, smsDailyBudgetPerNumber: 2, smsDailyBudgetPerAddress: 3, trustProxy: 1 },
      { dependencies: { clock } },
    );
    try {
      const api = createApi(app);
      const from = (address: string, phone: string) =>
        api.call('POST', '/auth/send-code', { body: { phone }, headers: { 'x-forwarded-for': address } });
      // One number: two texts a day, whoever asks (spaced past the spec's own cooldown and window).
      const target = uniquePhone();
      expect((await from('198.51.100.1', target)).status).toBe(200);
      clock.advance(11 * MINUTE);
      expect((await from('198.51.100.2', target)).status).toBe(200);
      clock.advance(11 * MINUTE);
      const numberSpent = await from('198.51.100.3', target);
      expect(numberSpent.status).toBe(429);
      expect(numberSpent.body).toMatchObject({ success: false, errorType: 'OTHER' });
      expect(await api.outbox(target)).toHaveLength(2);
      // One address (an IPv6 /64 counts as one): three texts a day, over any numbers.
      const sent = [];
      for (const host of ['1', '2', '3', '4']) sent.push((await from(`2001:db8:5:6::${host}`, uniquePhone())).status);
      expect(sent).toEqual([200, 200, 200, 429]);
      // Everyone else still gets codes, and the next day both shares are back.
      expect((await from('198.51.100.9', uniquePhone())).status).toBe(200);
      clock.advance(24 * HOUR);
      expect((await from('2001:db8:5:6::99', target)).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('reports a provider failure as MULTIPLE (500) without leaking its details', async () => {
    const app = await startTestApp(
      {},
      {
        dependencies: {
          smsChannel: {
            kind: 'twilio',
            send: async () => {
              throw new Error('provider secret detail');
            },
          },
        },
      },
    );
    try {
      const refused = await createApi(app).post('/auth/send-code', { phone: uniquePhone() });
      expect(refused.status).toBe(500);
      expect(refused.body).toEqual({
        success: false,
        message: 'Error al enviar el código de verificación',
        errorType: 'MULTIPLE',
      });
    } finally {
      await app.close();
    }
  });
});
