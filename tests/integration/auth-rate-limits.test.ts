// @setup embedded
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Api, createApi, uniqueEmail, uniquePhone } from '../helpers/auth-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, HOUR } from '../helpers/test-clock.ts';

describe('rate limits of the access area (QUALITY 3)', () => {
  const clock = createTestClock();
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  // Start each test at the beginning of an hour: every window here is a whole number of them.
  beforeEach(() => clock.set(new Date((Math.floor(clock.now().getTime() / HOUR) + 3) * HOUR)));

  const expectLimited = (response: { status: number; headers: Headers; body: Record<string, unknown> }) => {
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(response.body).toMatchObject({ success: false, message: expect.any(String) });
  };

  it('limits code sends per IP, then lets them through in the next window', async () => {
    for (let send = 1; send <= 20; send += 1) {
      expect((await api.post('/auth/send-code', { phone: uniquePhone() })).status).toBe(200);
    }
    const limited = await api.post('/auth/send-code', { phone: uniquePhone() });
    expectLimited(limited);
    expect(limited.headers.get('retry-after')).toBe('3600');
    expect(limited.body).toEqual({
      success: false,
      message: 'Demasiadas peticiones. Por favor, espera un momento antes de intentarlo de nuevo.',
      errorType: 'OTHER',
    });
    clock.advance(HOUR);
    expect((await api.post('/auth/send-code', { phone: uniquePhone() })).status).toBe(200);
  });

  it('limits code sends per number range (first 5 digits), whatever the IP', async () => {
    const range = `+346${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const phoneInRange = (index: number) => `${range}${String(1000 + index * 37).padStart(4, '0')}`;
    const send = (index: number) =>
      app.auth.smsCodes.sendCode({ phone: phoneInRange(index), purpose: 'register', ip: `10.0.${index}.1` });
    for (let index = 0; index < 30; index += 1) await send(index);
    await expect(send(30)).rejects.toMatchObject({ statusCode: 429, errorType: 'OTHER' });
    await expect(
      app.auth.smsCodes.sendCode({ phone: uniquePhone(), purpose: 'register', ip: '10.9.9.9' }),
    ).resolves.toBeDefined();
  });

  it('limits code guesses per number across codes', async () => {
    const phone = uniquePhone();
    for (let guess = 1; guess <= 20; guess += 1) {
      expect((await api.post('/auth/verify-code', { phone, code: '000000' })).status).toBe(400);
    }
    expectLimited(await api.post('/auth/verify-code', { phone, code: '000000' }));
    // Another number from the same IP is still fine.
    expect((await api.post('/auth/verify-code', { phone: uniquePhone(), code: '000000' })).status).toBe(400);
  });

  it('limits failed logins per IP over any accounts (credential stuffing)', async () => {
    for (let attempt = 1; attempt <= 30; attempt += 1) {
      expect((await api.post('/auth/login', { email: uniqueEmail('spray'), password: 'Otra&Clave99' })).status).toBe(
        401,
      );
    }
    const limited = await api.post('/auth/login', { email: uniqueEmail('spray'), password: 'Otra&Clave99' });
    expectLimited(limited);
    expect(limited.headers.get('retry-after')).toBe(String(60 * 60));
    clock.advance(HOUR);
    expect((await api.post('/auth/login', { email: uniqueEmail('spray'), password: 'Otra&Clave99' })).status).toBe(401);
  });

  it('limits forgot-password per IP', async () => {
    for (let request = 1; request <= 20; request += 1) {
      expect((await api.post('/auth/forgot-password', { email: uniqueEmail('ghost') })).status).toBe(200);
    }
    expectLimited(await api.post('/auth/forgot-password', { email: uniqueEmail('ghost') }));
  });

  it('limits check-email per IP (it tells whether an address is registered)', async () => {
    for (let request = 1; request <= 60; request += 1) {
      expect((await api.post('/auth/check-email', { email: uniqueEmail() })).status).toBe(200);
    }
    expectLimited(await api.post('/auth/check-email', { email: uniqueEmail() }));
  });
});
