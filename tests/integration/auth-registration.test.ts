// @setup embedded
import { parseOptions } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthUser } from '#shared/auth/auth-schemas';
import { users } from '../../src/server/db/schema/index.ts';
import { type Api, createApi, GOOD_PASSWORD, uniqueEmail, uniquePhone } from '../helpers/auth-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { PASSWORD_HASH_POLICY } from '../../src/server/features/auth/password-hasher.ts';
import { createTestClock, HOUR, MINUTE } from '../helpers/test-clock.ts';

describe('e-mail registration (spec 000 §4, §7)', () => {
  const clock = createTestClock();
  const registered: AuthUser[] = [];
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp(
      {},
      {
        dependencies: {
          hashPolicy: PASSWORD_HASH_POLICY,
          clock,
          authHooks: { onUserRegistered: (user) => void registered.push(user) },
        },
      },
    );
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  // Each test in a fresh set of rate-limit windows.
  beforeEach(() => clock.advance(2 * HOUR));

  it('runs the wizard: check e-mail, send and verify the code, register, log in with phone and password', async () => {
    const email = uniqueEmail('wizard');
    const phone = uniquePhone();

    const check = await api.post('/auth/check-email', { email });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ success: true, data: { exists: false } });

    const sent = await api.post('/auth/send-code', { phone });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ success: true, message: 'Código enviado correctamente' });
    const [sms] = await api.outbox(phone);
    expect(sms).toMatchObject({ channel: 'sms', to: phone });
    expect(sms?.text).toBe(`Tu código de Entreno es ${sms?.code}. Caduca en 10 minutos. No lo compartas con nadie.`);

    const verified = await api.post('/auth/verify-code', { phone, code: sms?.code });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ success: true, message: 'Teléfono verificado correctamente' });

    const register = await api.post('/auth/register', {
      name: 'Lucía',
      lastName: 'García',
      email: email.toUpperCase(),
      phone,
      password: GOOD_PASSWORD,
    });
    expect(register.status).toBe(201);
    expect(register.body).toEqual({
      success: true,
      message: 'Usuario registrado correctamente',
      data: {
        userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Lucía',
        lastName: 'García',
        email,
        phone,
        createdAt: clock.now().toISOString(),
        completeProfile: false,
        streak: 0,
        lastLoginDate: null,
      },
    });
    expect(JSON.stringify(register.body)).not.toContain('argon2');
    expect(registered.map((user) => user.email)).toContain(email);

    expect((await api.post('/auth/check-email', { email: email.toUpperCase() })).body).toEqual({
      success: true,
      data: { exists: true },
    });

    const login = await api.post('/auth/complete-registration', { phone, password: GOOD_PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ success: true, token: expect.any(String), user: { email, phone } });
    const session = await api.get('/auth/validate-session', login.body.token as string);
    expect(session.status).toBe(200);
  });

  it('accepts the phone with spaces or without the prefix, and a missing surname', async () => {
    const digits = uniquePhone().slice(3);
    const phone = `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
    await api.verifyPhone(phone);
    const register = await api.post('/auth/register', {
      name: 'Ana',
      email: uniqueEmail(),
      phone,
      password: GOOD_PASSWORD,
    });
    expect(register.status).toBe(201);
    expect(register.body.data).toMatchObject({ phone: `+34${digits}`, lastName: '' });
  });

  it('refuses to register a phone that was not verified by a code', async () => {
    const phone = uniquePhone();
    const body = { name: 'Ana', lastName: '', email: uniqueEmail(), phone, password: GOOD_PASSWORD };
    const refused = await api.post('/auth/register', body);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      success: false,
      message: 'Debes verificar tu número de teléfono antes de completar el registro.',
      errorType: 'PHONE_NOT_VERIFIED',
    });
    // Sending a code is not verifying it.
    await api.post('/auth/send-code', { phone });
    expect((await api.post('/auth/register', body)).status).toBe(400);
    expect(await app.auth.users.findByEmail(body.email)).toBeUndefined();
  });

  it('uses a verification once, and only for 30 minutes', async () => {
    const phone = uniquePhone();
    await api.verifyPhone(phone);
    clock.advance(30 * MINUTE + 1000);
    const late = await api.post('/auth/register', {
      name: 'Ana',
      email: uniqueEmail(),
      phone,
      password: GOOD_PASSWORD,
    });
    expect(late.status).toBe(400);
    expect(late.body.errorType).toBe('PHONE_NOT_VERIFIED');

    const other = uniquePhone();
    await api.verifyPhone(other);
    const first = await api.post('/auth/register', {
      name: 'Ana',
      email: uniqueEmail(),
      phone: other,
      password: GOOD_PASSWORD,
    });
    expect(first.status).toBe(201);
    const second = await api.post('/auth/register', {
      name: 'Eva',
      email: uniqueEmail(),
      phone: other,
      password: GOOD_PASSWORD,
    });
    expect(second.status).toBe(400);
    expect(second.body.errorType).toBe('PHONE_NOT_VERIFIED');
  });

  it('refuses an e-mail already registered, whatever its case, with 409', async () => {
    const { email } = await api.registerUser();
    const phone = uniquePhone();
    await api.verifyPhone(phone);
    const duplicate = await api.post('/auth/register', {
      name: 'Otra',
      email: `  ${email.toUpperCase()} `,
      phone,
      password: GOOD_PASSWORD,
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({
      success: false,
      message:
        'Ya existe una cuenta asociada a esta dirección. Por favor, inicia sesión o utiliza una dirección diferente',
      errorType: 'EMAIL_TAKEN',
    });
    // The verification survives a refused registration: the user fixes the e-mail and goes on.
    const retry = await api.post('/auth/register', {
      name: 'Otra',
      email: uniqueEmail(),
      phone,
      password: GOOD_PASSWORD,
    });
    expect(retry.status).toBe(201);
  });

  it('refuses a phone already registered with 409', async () => {
    const { phone } = await api.registerUser();
    clock.advance(MINUTE); // the resend cooldown
    await api.verifyPhone(phone);
    const duplicate = await api.post('/auth/register', {
      name: 'Otra',
      email: uniqueEmail(),
      phone,
      password: GOOD_PASSWORD,
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({
      success: false,
      message:
        'Este número de teléfono ya está asociado a otra cuenta. Por favor, inicia sesión o utiliza un número diferente.',
      errorType: 'PHONE_TAKEN',
    });
  });

  it.each([
    ['Ab1!', 'La contraseña debe tener al menos 8 caracteres'],
    ['sentadillas&cafe7', 'La contraseña debe contener mayúsculas y minúsculas'],
    ['Sentadillas&Cafe', 'La contraseña debe contener al menos un número'],
    ['SentadillasCafe7', 'La contraseña debe contener al menos un carácter especial'],
    [`Aa1!${'x'.repeat(253)}`, 'La contraseña no puede tener más de 256 caracteres'],
    ['Password1!', 'Esta contraseña es demasiado común y fácil de adivinar. Por favor, elige otra diferente.'],
    ['Barcelona2024#', 'Esta contraseña es demasiado común y fácil de adivinar. Por favor, elige otra diferente.'],
  ])('refuses the password %j with its Spanish message', async (password, message) => {
    const phone = uniquePhone();
    await api.verifyPhone(phone);
    const email = uniqueEmail();
    const refused = await api.post('/auth/register', { name: 'Ana', email, phone, password });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(message);
    expect(await app.auth.users.findByEmail(email)).toBeUndefined();
  });

  it('stores an argon2id hash (19 MiB, t=2, p=1) of the whole password, 64+ characters included', async () => {
    const password = `Una frase larga de verdad para entrenar: ${'sentadilla-'.repeat(5)}Z9!`;
    expect(password.length).toBeGreaterThan(64);
    const { email } = await api.registerUser({ password });
    const [row] = await app.database.db.select().from(users).where(eq(users.email, email));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(parseOptions(row?.passwordHash as string)).toMatchObject({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    await api.login(email, password);
    // No truncation: the same password minus its last character is another password.
    expect((await api.post('/auth/login', { email, password: password.slice(0, -1) })).status).toBe(401);
  });

  it('answers check-email and register with Spanish validation messages', async () => {
    expect((await api.post('/auth/check-email', { email: '' })).body).toEqual({
      success: false,
      message: 'El campo Email es obligatorio',
      errorType: 'VALIDATION',
    });
    expect((await api.post('/auth/check-email', { email: 'sin arroba' })).body.message).toBe(
      'Por favor ingresa un Email válido',
    );
    const base = { name: 'Ana', lastName: '', email: uniqueEmail(), phone: uniquePhone(), password: GOOD_PASSWORD };
    expect((await api.post('/auth/register', { ...base, name: '' })).body.message).toBe(
      'El campo Nombre es obligatorio',
    );
    expect((await api.post('/auth/register', { ...base, name: 'x'.repeat(21) })).body.message).toBe(
      'El campo Nombre no puede exceder los 20 caracteres',
    );
    expect((await api.post('/auth/register', { ...base, lastName: 'x'.repeat(31) })).body.message).toBe(
      'El campo Apellidos no puede exceder los 30 caracteres',
    );
    expect((await api.post('/auth/register', { ...base, phone: '+4915112345678' })).body.message).toBe(
      'El número de teléfono no es válido o no está en el formato correcto.',
    );
    expect((await api.post('/auth/register', { ...base, isAdmin: true })).status).toBe(400);
  });
});
