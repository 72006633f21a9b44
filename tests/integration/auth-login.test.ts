// @setup embedded
import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/index.ts';
import { type Api, createApi, decodeToken, GOOD_PASSWORD, uniqueEmail, uniquePhone } from '../helpers/auth-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { PASSWORD_HASH_POLICY } from '../../src/server/features/auth/password-hasher.ts';
import { createTestClock, DAY, HOUR, MINUTE } from '../helpers/test-clock.ts';

const WRONG = { success: false, message: 'Email o contraseña incorrectos', errorType: 'INVALID_CREDENTIALS' };

describe('login (spec 000 §7, QUALITY 1-3)', () => {
  const clock = createTestClock();
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { hashPolicy: PASSWORD_HASH_POLICY, clock } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => clock.advance(2 * HOUR));

  it('logs in with e-mail and password and answers token, message and user', async () => {
    const account = await api.registerUser({ name: 'Marta', lastName: 'Ruiz' });
    const response = await api.post('/auth/login', {
      email: account.email.toUpperCase(),
      password: GOOD_PASSWORD,
      rememberMe: false,
      latitude: 40.4168,
      longitude: -3.7038,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      message: 'Inicio de sesión correcto',
      user: {
        userId: account.userId,
        name: 'Marta',
        lastName: 'Ruiz',
        email: account.email,
        phone: account.phone,
        createdAt: expect.any(String),
        completeProfile: false,
        streak: 0,
        lastLoginDate: null,
      },
    });
    const claims = decodeToken(response.body.token as string);
    expect(claims).toMatchObject({
      sub: account.userId,
      sid: expect.any(String),
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const { email } = await api.registerUser();
    const wrongPassword = await api.post('/auth/login', { email, password: 'Otra&Clave99' });
    const unknownEmail = await api.post('/auth/login', { email: uniqueEmail('ghost'), password: 'Otra&Clave99' });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual(WRONG);
    expect(unknownEmail.body).toEqual(WRONG);
    expect([...wrongPassword.headers.keys()].sort()).toEqual([...unknownEmail.headers.keys()].sort());
  });

  it('spends an argon2 verification on unknown e-mails and password-less accounts too', async () => {
    const calls: string[] = [];
    const { hasher } = app.auth;
    const original = { verify: hasher.verify, verifyDummy: hasher.verifyDummy };
    hasher.verify = async (stored, password) => {
      calls.push('verify');
      return original.verify(stored, password);
    };
    hasher.verifyDummy = async (password) => {
      calls.push('dummy');
      return original.verifyDummy(password);
    };
    try {
      const googleOnly = await app.auth.users.createUser({
        name: 'Solo',
        lastName: 'Google',
        email: uniqueEmail('google'),
        phone: null,
        password: null,
        googleSub: `sub-${Date.now()}`,
      });
      expect((await api.post('/auth/login', { email: uniqueEmail('ghost'), password: GOOD_PASSWORD })).body).toEqual(
        WRONG,
      );
      expect((await api.post('/auth/login', { email: googleOnly.email, password: GOOD_PASSWORD })).body).toEqual(WRONG);
      expect(calls).toEqual(['dummy', 'dummy']);
    } finally {
      Object.assign(hasher, original);
    }
  });

  it('says "Recuérdame" keeps the session for 30 days', async () => {
    const { email } = await api.registerUser();
    const remembered = await api.login(email, GOOD_PASSWORD, { rememberMe: true });
    expect(remembered.message).toBe('Su sesión será guardada durante los próximos 30 días');
  });

  it('stores the login position snapped to about 1 km, and refuses positions out of range', async () => {
    const { email, userId } = await api.registerUser();
    await api.login(email, GOOD_PASSWORD, { latitude: 40.416_775, longitude: -3.703_79 });
    const [row] = await app.database.db.select().from(users).where(eq(users.id, userId));
    expect(row?.lastLatitude).toBeCloseTo(40.42, 10);
    expect(row?.lastLongitude).toBeCloseTo(-3.7, 10);
    for (const position of [{ latitude: 91 }, { longitude: -181 }, { latitude: 'norte' }]) {
      const refused = await api.post('/auth/login', { email, password: GOOD_PASSWORD, ...position });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('La ubicación enviada no es válida');
    }
    await api.login(email, GOOD_PASSWORD, { latitude: null, longitude: null });
  });

  it('validates the body with the spec texts and refuses absurd password lengths', async () => {
    expect((await api.post('/auth/login', { email: 'sin-arroba', password: GOOD_PASSWORD })).body.message).toBe(
      'El email introducido no tiene la estructura correcta',
    );
    expect((await api.post('/auth/login', { email: uniqueEmail(), password: 'corta' })).body.message).toBe(
      'La contraseña debe tener al menos 8 caracteres',
    );
    const huge = await api.post('/auth/login', { email: uniqueEmail(), password: 'x'.repeat(10_000) });
    expect(huge.status).toBe(400);
    expect(huge.body.message).toBe('La contraseña no puede tener más de 256 caracteres');
    expect(
      (await api.post('/auth/login', { email: uniqueEmail(), password: GOOD_PASSWORD, rememberMe: 'sí' })).status,
    ).toBe(400);
  });

  it('rehashes a weaker stored hash at login', async () => {
    const { email, userId } = await api.registerUser();
    const weak = await hash(GOOD_PASSWORD, { memoryCost: 4096, timeCost: 1, parallelism: 1 });
    await app.database.db.update(users).set({ passwordHash: weak }).where(eq(users.id, userId));
    await api.login(email);
    const [row] = await app.database.db.select().from(users).where(eq(users.id, userId));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await api.login(email);
  });

  it('slows wrong passwords on an account from one address with a growing delay, never for good', async () => {
    clock.set(new Date(Math.ceil(clock.now().getTime() / DAY) * DAY));
    const { email } = await api.registerUser();
    const tooMany = {
      success: false,
      message:
        'Demasiados intentos fallidos de inicio de sesión. Por favor, espera unos minutos antes de intentarlo de nuevo.',
      errorType: 'RATE_LIMITED',
    };
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await api.post('/auth/login', { email, password: 'Otra&Clave99' })).status).toBe(401);
    }
    // Five failures: the rest of the minute, even for the right password (guesses cannot be tested).
    const first = await api.post('/auth/login', { email, password: GOOD_PASSWORD });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('60');
    expect(first.body).toEqual(tooMany);
    clock.advance(MINUTE);
    for (let attempt = 6; attempt <= 10; attempt += 1) {
      expect((await api.post('/auth/login', { email, password: 'Otra&Clave99' })).status).toBe(401);
    }
    // Ten: the rest of the quarter hour.
    const second = await api.post('/auth/login', { email, password: GOOD_PASSWORD });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe(String(14 * 60));
    expect(second.body).toEqual(tooMany);
    clock.advance(14 * MINUTE);
    await api.login(email);
  });

  it('counts failures for unknown e-mails the same way (no enumeration through the lock)', async () => {
    const email = uniqueEmail('ghost');
    for (let attempt = 1; attempt <= 5; attempt += 1)
      await api.post('/auth/login', { email, password: 'Otra&Clave99' });
    expect((await api.post('/auth/login', { email, password: 'Otra&Clave99' })).status).toBe(429);
  });

  it('forgets failures after a successful login', async () => {
    const { email } = await api.registerUser();
    for (let attempt = 1; attempt <= 4; attempt += 1)
      await api.post('/auth/login', { email, password: 'Otra&Clave99' });
    await api.login(email);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expect((await api.post('/auth/login', { email, password: 'Otra&Clave99' })).status).toBe(401);
    }
  });

  it('logs in with phone and password after registration (complete-registration)', async () => {
    const { phone, email } = await api.registerUser();
    const right = await api.post('/auth/complete-registration', { phone: phone.slice(3), password: GOOD_PASSWORD });
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ success: true, token: expect.any(String), user: { email, phone } });
    const claims = decodeToken(right.body.token as string);
    expect((claims.exp as number) - (claims.iat as number)).toBe(30 * 24 * 3600);

    const wrong = await api.post('/auth/complete-registration', { phone, password: 'Otra&Clave99' });
    const unknown = await api.post('/auth/complete-registration', { phone: uniquePhone(), password: 'Otra&Clave99' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      success: false,
      message: 'Teléfono o contraseña incorrectos',
      errorType: 'INVALID_CREDENTIALS',
    });
    expect(unknown.body).toEqual(wrong.body);
  });
});
