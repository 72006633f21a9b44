// @setup embedded
import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../../../src/server/db/schema/index.ts';
import { isCommonPassword } from '../../../src/server/features/auth/common-passwords.ts';
import { type Api, createApi, GOOD_PASSWORD, uniqueEmail, uniquePhone } from '../../helpers/auth-api.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { PASSWORD_HASH_POLICY } from '../../../src/server/features/auth/password-hasher.ts';
import { createTestClock, HOUR } from '../../helpers/test-clock.ts';

const COMMON = {
  success: false,
  message: 'Esta contraseña es demasiado común y fácil de adivinar. Por favor, elige otra diferente.',
  errorType: 'PASSWORD_TOO_COMMON',
};

/**
 * QUALITY 1: argon2id at ≥ 19 MiB / t ≥ 2 / p = 1 read back from the stored row, weaker hashes
 * upgraded at login, a blocklist on top of the composition rules, no truncation, 64+ characters.
 * (auth-login.test.ts and common-passwords.test.ts cover parts; this is the attacker's view.)
 */
describe('Q01 passwords', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: Api;

  // The real hash policy (test apps default to a light one), so what is stored is what production stores.
  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { hashPolicy: PASSWORD_HASH_POLICY, clock } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  // Fresh per-IP windows (registration is capped per IP) for each test.
  beforeEach(() => clock.advance(2 * HOUR));

  const storedHash = async (userId: string) => {
    const [row] = await app.database.db.select().from(users).where(eq(users.id, userId));
    return row?.passwordHash ?? '';
  };
  const parameters = (stored: string) => {
    const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.exec(stored);
    expect(match, `not an argon2id PHC string: ${stored.slice(0, 40)}`).not.toBeNull();
    const [, m, t, p] = match as RegExpExecArray;
    return { memoryKiB: Number(m), time: Number(t), lanes: Number(p) };
  };

  it('stores argon2id with memory ≥ 19 MiB, t ≥ 2, p = 1 — never the password itself', async () => {
    const { userId } = await api.registerUser();
    const stored = await storedHash(userId);
    const { memoryKiB, time, lanes } = parameters(stored);
    expect(memoryKiB).toBeGreaterThanOrEqual(19 * 1024);
    expect(time).toBeGreaterThanOrEqual(2);
    expect(lanes).toBe(1);
    expect(stored).not.toContain(GOOD_PASSWORD);
  });

  it('a user stored with a weaker hash is rehashed to the policy at the next login', async () => {
    const { email, userId } = await api.registerUser();
    // What an old deployment (or a leaked, cheaper-to-crack dump) would hold: argon2id at 4 MiB, t=1.
    const weak = await hash(GOOD_PASSWORD, { memoryCost: 4096, timeCost: 1, parallelism: 1 });
    await app.database.db.update(users).set({ passwordHash: weak }).where(eq(users.id, userId));
    expect(parameters(await storedHash(userId)).memoryKiB).toBe(4096);

    await api.login(email);
    const upgraded = await storedHash(userId);
    expect(upgraded).not.toBe(weak);
    const { memoryKiB, time, lanes } = parameters(upgraded);
    expect(memoryKiB).toBeGreaterThanOrEqual(19 * 1024);
    expect(time).toBeGreaterThanOrEqual(2);
    expect(lanes).toBe(1);
    // Still the same password, and a wrong one still fails against the new hash.
    await api.login(email);
    expect((await api.post('/auth/login', { email, password: `${GOOD_PASSWORD}x` })).status).toBe(401);
  });

  it('refuses common passwords dressed up to pass the composition rules, at registration and at reset', async () => {
    // Each meets the rules (upper, lower, digit, special, ≥ 8) and is a blocklisted stem in disguise.
    const dressedUp = ['Password123!', 'P@ssw0rd2024!', 'Barcelona10#', 'Qwerty123!', 'Entreno2026!', 'Aa123456!'];
    for (const password of dressedUp) expect(isCommonPassword(password), password).toBe(true);

    const phone = uniquePhone();
    await api.verifyPhone(phone);
    for (const password of dressedUp) {
      const refused = await api.post('/auth/register', {
        name: 'Lucía',
        lastName: 'García',
        email: uniqueEmail('common'),
        phone,
        password,
      });
      expect(refused.status, password).toBe(400);
      expect(refused.body).toEqual(COMMON);
    }
    // The same verified phone with a good password works: the refusals were the blocklist, not the setup.
    const accepted = await api.post('/auth/register', {
      name: 'Lucía',
      lastName: 'García',
      email: uniqueEmail('common'),
      phone,
      password: GOOD_PASSWORD,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
  });

  it('does not truncate: two 100-character passwords that differ only at character 80 are different', async () => {
    const head = `Aa1!${'entrenamos-juntos-'.repeat(5)}`.slice(0, 79);
    const right = `${head}X${'y'.repeat(20)}`;
    const wrong = `${head}Z${'y'.repeat(20)}`;
    expect([right.length, wrong.length]).toEqual([100, 100]);
    expect(right.slice(0, 79)).toBe(wrong.slice(0, 79));
    expect(right.slice(80)).toBe(wrong.slice(80));

    const { email } = await api.registerUser({ password: right });
    const refused = await api.post('/auth/login', { email, password: wrong });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ success: false, errorType: 'INVALID_CREDENTIALS' });
    // Nor the first 72 bytes alone (bcrypt's cut), nor the first 79 characters.
    for (const prefix of [right.slice(0, 72), right.slice(0, 79)]) {
      expect((await api.post('/auth/login', { email, password: prefix })).status).toBe(401);
    }
    await api.login(email, right);
  });

  it('accepts a 64-character password (and a 128-character one) end to end', async () => {
    for (const length of [64, 128]) {
      const password = `Pq7#${'sentadilla-press-'.repeat(10)}`.slice(0, length);
      expect(password).toHaveLength(length);
      const { email } = await api.registerUser({ password });
      const signedIn = await api.login(email, password);
      expect(signedIn.token).toBeTruthy();
      expect((await api.post('/auth/login', { email, password: password.slice(0, -1) })).status).toBe(401);
    }
  });
});
