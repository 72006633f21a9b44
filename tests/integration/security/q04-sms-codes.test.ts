// @setup embedded
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { smsCodes } from '../../../src/server/db/schema/index.ts';
import type { SmsChannel, SmsMessage } from '../../../src/server/delivery/sms-channel.ts';
import { type Api, createApi, uniquePhone } from '../../helpers/auth-api.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createTestClock, DAY, MINUTE, SECOND } from '../../helpers/test-clock.ts';

const BUDGET = 8;

/** The SMS provider's side: every text that would be billed. */
function createRecordingSms() {
  const sent: SmsMessage[] = [];
  const channel: SmsChannel = {
    kind: 'outbox',
    async send(message) {
      sent.push(message);
    },
  };
  const codeFor = (phone: string) => {
    const last = sent.filter((message) => message.to === phone).at(-1);
    expect(last?.code, `no SMS to ${phone}`).toMatch(/^\d{6}$/);
    return last?.code as string;
  };
  return { channel, sent, codeFor };
}

/** A wrong code for a right one: same length, every digit different. */
const wrong = (code: string, shift = 1) => code.replace(/\d/g, (digit) => String((Number(digit) + shift) % 10));

/**
 * QUALITY 4: SMS pumping stays within the daily budget, 5 wrong guesses end a code, a resend kills
 * the old code, codes are stored hashed, expire after 10 minutes and are bound to their purpose.
 * (auth-sms-codes.test.ts covers the spec's texts and cooldowns.)
 */
describe('Q04 SMS codes', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  const sms = createRecordingSms();
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp({ smsDailyBudget: BUDGET }, { dependencies: { clock, smsChannel: sms.channel } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  // A new UTC day per test: fresh budget, per-IP and per-number windows.
  beforeEach(() => clock.advance(DAY));

  const send = (phone: string) => api.post('/auth/send-code', { phone });
  const verify = (phone: string, code: string) => api.post('/auth/verify-code', { phone, code });

  it('SMS pumping across many numbers, even in parallel, never bills more than the daily budget', async () => {
    const before = sms.sent.length;
    const phones = Array.from({ length: 15 }, () => uniquePhone());
    const answers = await Promise.all(phones.map((phone) => send(phone)));
    const billed = sms.sent.length - before;
    expect(billed, `${billed} texts sent for a budget of ${BUDGET}`).toBeLessThanOrEqual(BUDGET);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(billed);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.length).toBe(phones.length - billed);
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Sequentially too: once spent, nothing more goes out today.
    expect((await send(uniquePhone())).status).toBe(503);
    expect(sms.sent.length - before).toBeLessThanOrEqual(BUDGET);
    // Tomorrow the service works again.
    clock.advance(DAY);
    expect((await send(uniquePhone())).status).toBe(200);
  });

  it('guessing is cut after 5 wrong tries: even the right code is refused after them', async () => {
    const phone = uniquePhone();
    expect((await send(phone)).status).toBe(200);
    const code = sms.codeFor(phone);
    for (let guess = 1; guess <= 5; guess += 1) {
      const answer = await verify(phone, wrong(code, guess));
      expect(answer.status).toBe(400);
      expect(['INVALID_CODE', 'CODE_ATTEMPTS_EXCEEDED']).toContain(answer.body.errorType);
    }
    const right = await verify(phone, code);
    expect(right.status).toBe(400);
    expect(right.body).toMatchObject({ success: false, errorType: 'CODE_ATTEMPTS_EXCEEDED' });
    expect(await app.auth.smsCodes.isPhoneVerified(phone, 'register')).toBe(false);
  });

  it('a resend kills the old code; the new one works once', async () => {
    const phone = uniquePhone();
    expect((await send(phone)).status).toBe(200);
    const first = sms.codeFor(phone);
    clock.advance(61 * SECOND);
    expect((await send(phone)).status).toBe(200);
    const second = sms.codeFor(phone);
    if (first !== second) {
      const old = await verify(phone, first);
      expect(old.status).toBe(400);
      expect(old.body).toMatchObject({ errorType: 'INVALID_CODE' });
    }
    expect((await verify(phone, second)).status).toBe(200);
    // Single use.
    expect((await verify(phone, second)).status).toBe(400);
  });

  it('codes are stored hashed: the row holds no 6-digit plaintext', async () => {
    const phone = uniquePhone();
    expect((await send(phone)).status).toBe(200);
    const code = sms.codeFor(phone);
    const rows = await app.database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone));
    expect(rows).toHaveLength(1);
    const row = rows[0] as (typeof rows)[number];
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(code);
    for (const value of Object.values(row)) expect(String(value)).not.toMatch(/^\d{6}$/);
    // Nor a plain unkeyed digest a leak could brute-force in a million tries offline.
    const { createHash } = await import('node:crypto');
    for (const candidate of [code, `${phone}${code}`, `register\n${phone}\n${code}`]) {
      expect(row.codeHash).not.toBe(createHash('sha256').update(candidate).digest('hex'));
    }
  });

  it('a code expires after 10 minutes (server clock)', async () => {
    const early = uniquePhone();
    expect((await send(early)).status).toBe(200);
    clock.advance(10 * MINUTE - SECOND);
    expect((await verify(early, sms.codeFor(early))).status).toBe(200);

    const late = uniquePhone();
    expect((await send(late)).status).toBe(200);
    clock.advance(10 * MINUTE + SECOND);
    const expired = await verify(late, sms.codeFor(late));
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ errorType: 'CODE_EXPIRED' });
  });

  it("a code is bound to its purpose: a 'register' code does not verify 'google-register', nor the reverse", async () => {
    const phone = uniquePhone();
    expect((await send(phone)).status).toBe(200);
    const code = sms.codeFor(phone);
    await expect(
      app.auth.smsCodes.verifyCode({ phone, code, purpose: 'google-register', ip: '127.0.0.1' }),
    ).rejects.toMatchObject({ statusCode: 400 });
    expect(await app.auth.smsCodes.isPhoneVerified(phone, 'google-register')).toBe(false);

    const other = uniquePhone();
    await app.auth.smsCodes.sendCode({ phone: other, purpose: 'google-register', ip: '127.0.0.1' });
    const googleCode = sms.codeFor(other);
    const crossed = await verify(other, googleCode);
    expect(crossed.status).toBe(400);
    expect(await app.auth.smsCodes.isPhoneVerified(other, 'register')).toBe(false);
    // Each still works for its own purpose: the refusals were the binding.
    expect((await verify(phone, code)).status).toBe(200);
    await app.auth.smsCodes.verifyCode({ phone: other, code: googleCode, purpose: 'google-register', ip: '127.0.0.1' });
    expect(await app.auth.smsCodes.isPhoneVerified(other, 'google-register')).toBe(true);
  });
});
