// @setup embedded
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isImplausiblePhone } from '#shared/auth/phone';
import {
  type Api,
  type ApiResponse,
  createApi,
  GOOD_PASSWORD,
  uniqueEmail,
  uniquePhone,
} from '../../helpers/auth-api.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createTestClock, HOUR, MINUTE } from '../../helpers/test-clock.ts';

const WRONG_PASSWORD = 'NoEsMiClave#2026';
const TOO_MANY = 'Demasiadas peticiones. Por favor, espera un momento antes de intentarlo de nuevo.';

/** Numbers that share their first 5 national digits (one "range", what an SMS pumper walks through). */
function phonesInOneRange(count: number): string[] {
  const range = `6${String(1000 + Math.floor(Math.random() * 8999))}`;
  const phones = new Set<string>();
  while (phones.size < count) {
    const phone = `+34${range}${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    if (!isImplausiblePhone(phone)) phones.add(phone);
  }
  return [...phones];
}

const expect429 = (response: ApiResponse, windowMs: number) => {
  expect(response.status, JSON.stringify(response.body)).toBe(429);
  expect(response.body).toMatchObject({ success: false, message: expect.any(String) });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
  return retryAfter;
};

/**
 * QUALITY 3: throttling per account, per phone, per number range and per IP, none of it a lockout
 * for good. Per-account limits must hold whatever address the attacker comes from, so one app runs
 * behind a trusted proxy (TRUST_PROXY=1: Fastify reads X-Forwarded-For) and every attempt claims
 * another client address. (auth-rate-limits.test.ts covers each rule's numbers from one address.)
 */
describe('Q03 throttling', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: Api;
  let ipCounter = 0;
  /** A request from a fresh client address (honoured: the app trusts one proxy hop). */
  const fromNewIp = (path: string, body: unknown) => {
    ipCounter += 1;
    return api.call('POST', path, {
      body,
      headers: { 'x-forwarded-for': `203.0.113.${ipCounter % 250}, 10.0.0.${ipCounter % 250}` },
    });
  };

  beforeAll(async () => {
    app = await startTestApp({ env: 'production', trustProxy: 1 }, { dependencies: { clock } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => clock.advance(2 * HOUR));

  it('the proxy is trusted here: per-IP counters really see a different client per request', async () => {
    // 25 sends from 25 addresses pass the per-IP cap of 20 / hour; the same 25 from one address do not.
    const phones = Array.from({ length: 25 }, () => uniquePhone());
    for (const phone of phones) expect((await fromNewIp('/auth/send-code', { phone })).status).toBe(200);
    clock.advance(2 * HOUR);
    const fromOne = [];
    for (const phone of Array.from({ length: 21 }, () => uniquePhone())) {
      fromOne.push(
        await api.call('POST', '/auth/send-code', { body: { phone }, headers: { 'x-forwarded-for': '198.51.100.7' } }),
      );
    }
    expect(fromOne.slice(0, 20).every((response) => response.status === 200)).toBe(true);
    expect429(fromOne[20] as ApiResponse, HOUR);
  });

  it('per account and address: wrong passwords slow the stranger who typed them, not the owner signing in elsewhere', async () => {
    clock.set(new Date(Math.ceil(clock.now().getTime() / HOUR) * HOUR));
    const { email } = await api.registerUser();
    const stranger = { 'x-forwarded-for': '198.51.100.23' };
    const fromStranger = (password: string, variant = email) =>
      api.call('POST', '/auth/login', { body: { email: variant, password }, headers: stranger });
    for (let attempt = 1; attempt <= 5; attempt += 1) expect((await fromStranger(WRONG_PASSWORD)).status).toBe(401);
    // The stranger waits, with case games on the e-mail too, and cannot test a guess meanwhile.
    for (const variant of [email, email.toUpperCase()]) {
      const slowed = await fromStranger(WRONG_PASSWORD, variant);
      expect429(slowed, MINUTE);
      expect(slowed.body.message).not.toBe(TOO_MANY); // the account message, not the per-IP one
    }
    expect429(await fromStranger(GOOD_PASSWORD), MINUTE);
    // The owner, from their own address, signs in at once.
    const owner = await fromNewIp('/auth/login', { email, password: GOOD_PASSWORD });
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    expect(owner.body.token).toBeTruthy();
  });

  it('per account: a guessing campaign spread over many addresses is capped (50 per hour), not for good', async () => {
    clock.set(new Date(Math.ceil(clock.now().getTime() / HOUR) * HOUR));
    const { email } = await api.registerUser();
    for (let attempt = 1; attempt <= 50; attempt += 1) {
      expect((await fromNewIp('/auth/login', { email, password: WRONG_PASSWORD })).status, `attempt ${attempt}`).toBe(
        401,
      );
    }
    const capped = await fromNewIp('/auth/login', { email, password: GOOD_PASSWORD });
    const retryAfter = expect429(capped, HOUR);
    clock.advance(retryAfter * 1000);
    expect((await fromNewIp('/auth/login', { email, password: GOOD_PASSWORD })).status).toBe(200);
  }, 120_000);

  it('per phone: the phone login, the code guesses and the code sends of one number are capped', async () => {
    const { phone } = await api.registerUser();
    // The wizard's phone + password login: 5 failures from one address, then that address waits.
    const guesser = { 'x-forwarded-for': '198.51.100.41' };
    const phoneLogin = (password: string) =>
      api.call('POST', '/auth/complete-registration', { body: { phone, password }, headers: guesser });
    for (let attempt = 1; attempt <= 5; attempt += 1) expect((await phoneLogin(WRONG_PASSWORD)).status).toBe(401);
    expect429(await phoneLogin(GOOD_PASSWORD), MINUTE);
    expect((await fromNewIp('/auth/complete-registration', { phone, password: GOOD_PASSWORD })).status).toBe(200);

    // Code guessing across resends: at most 20 verify calls per number and hour, whatever the address.
    const target = uniquePhone();
    const answers: ApiResponse[] = [];
    for (let guess = 0; guess < 21; guess += 1) {
      answers.push(await fromNewIp('/auth/verify-code', { phone: target, code: String(100_000 + guess) }));
    }
    expect(answers.slice(0, 20).every((answer) => answer.status === 400)).toBe(true);
    expect429(answers[20] as ApiResponse, HOUR);

    // Sends to one number: 60 s apart, 3 per 10 minutes, then a 180 s lock — then it works again.
    const pumped = uniquePhone();
    expect((await fromNewIp('/auth/send-code', { phone: pumped })).status).toBe(200);
    const tooSoon = await fromNewIp('/auth/send-code', { phone: pumped });
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(0);
    for (let send = 2; send <= 3; send += 1) {
      clock.advance(61_000);
      expect((await fromNewIp('/auth/send-code', { phone: pumped })).status).toBe(200);
    }
    clock.advance(61_000);
    const locked = await fromNewIp('/auth/send-code', { phone: pumped });
    expect(locked.body).toMatchObject({ errorType: 'MAX_ATTEMPTS' });
    expect(Number(expect429(locked, 180_000))).toBeLessThanOrEqual(180);
    clock.advance(181_000);
    expect((await fromNewIp('/auth/send-code', { phone: pumped })).status).toBe(200);
  });

  it('per number range: 30 sends into one 5-digit range per hour, from 31 addresses; other ranges unaffected', async () => {
    const phones = phonesInOneRange(31);
    for (const phone of phones.slice(0, 30)) {
      const sent = await fromNewIp('/auth/send-code', { phone });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    }
    expect429(await fromNewIp('/auth/send-code', { phone: phones[30] }), HOUR);
    expect(await api.outbox(phones[30])).toEqual([]);
    // A number elsewhere still gets its code: the range, not the service, is throttled.
    const elsewhere = phonesInOneRange(1)[0] as string;
    expect((await fromNewIp('/auth/send-code', { phone: elsewhere })).status).toBe(200);
    // And the range opens again in the next window.
    clock.advance(HOUR);
    expect((await fromNewIp('/auth/send-code', { phone: phones[30] })).status).toBe(200);
  });

  it('per IP: one address cannot stuff credentials over many accounts (30 failures per hour), others still can', async () => {
    clock.set(new Date(Math.ceil(clock.now().getTime() / HOUR) * HOUR + MINUTE));
    const sprayer = { 'x-forwarded-for': '198.51.100.99' };
    const answers: ApiResponse[] = [];
    for (let attempt = 0; attempt < 31; attempt += 1) {
      answers.push(
        await api.call('POST', '/auth/login', {
          body: { email: uniqueEmail('spray'), password: WRONG_PASSWORD },
          headers: sprayer,
        }),
      );
    }
    expect(answers.slice(0, 30).every((answer) => answer.status === 401)).toBe(true);
    const limited = answers[30] as ApiResponse;
    expect429(limited, HOUR);
    expect(limited.body.message).toBe(TOO_MANY);
    // Another address is not punished for it.
    expect((await fromNewIp('/auth/login', { email: uniqueEmail('spray'), password: WRONG_PASSWORD })).status).toBe(
      401,
    );
  });
});

describe('Q03 throttling without a trusted proxy', () => {
  let app: TestApp;
  let api: Api;
  beforeAll(async () => {
    // Production, but TRUST_PROXY unset: X-Forwarded-For is the client's own claim and is ignored.
    app = await startTestApp({ env: 'production' });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a client cannot escape the per-IP cap by faking X-Forwarded-For', async () => {
    const answers = [];
    for (let attempt = 0; attempt < 21; attempt += 1) {
      answers.push(
        await api.call('POST', '/auth/send-code', {
          body: { phone: uniquePhone() },
          headers: { 'x-forwarded-for': `203.0.113.${attempt + 1}` },
        }),
      );
    }
    expect(answers.slice(0, 20).every((response) => response.status === 200)).toBe(true);
    expect429(answers[20] as ApiResponse, HOUR);
  });
});
