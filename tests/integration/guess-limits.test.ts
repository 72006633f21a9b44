// @setup embedded
import { describe, expect, it } from 'vitest';
import { totpCode } from '../../src/server/features/security/one-time-codes.ts';
import { type ApiResponse, GOOD_PASSWORD } from '../helpers/auth-api.ts';
import { useTwoStepApp } from '../helpers/two-step-api.ts';

/**
 * Limits that count before they check (issue #32 §2, QUALITY 36): an attempt at a guess-limited
 * secret is reserved atomically before the secret is checked, so a burst sent at once checks at
 * most the limit. Before, the count was read first and raised after the failure, and forty wrong
 * codes sent together had 40, 28 or 9 of them checked against a limit of 5 a minute.
 */
const BURST = 40;

describe('guess limits under bursts', () => {
  const ctx = useTwoStepApp();

  /** A six-digit code that is none of the codes the secret accepts now (±1 step). */
  const wrongCode = (secret: string) => {
    const accepted = new Set(
      [-30_000, 0, 30_000].map((ms) => totpCode(secret, new Date(ctx.clock.now().getTime() + ms))),
    );
    for (let n = 0; ; n += 1) {
      const code = String(n).padStart(6, '0');
      if (!accepted.has(code)) return code;
    }
  };

  /** How many of the answers checked the secret (and found it wrong), and that the rest were 429. */
  const checkedOf = (answers: ApiResponse[], wrongStatus: number) => {
    for (const answer of answers) expect([wrongStatus, 429], JSON.stringify(answer.body)).toContain(answer.status);
    return answers.filter((answer) => answer.status === wrongStatus).length;
  };

  const burst = (send: () => Promise<ApiResponse>) => Promise.all(Array.from({ length: BURST }, send));

  it('forty wrong second-step codes at once: no more checked than the limit leaves (5 a minute per account and address)', async () => {
    const account = await ctx.api.registerUser();
    const { token } = await ctx.api.login(account.email);
    const { secret } = await ctx.twoStep.enable(token);
    ctx.clock.advance(30_000);
    const pendingToken = await ctx.twoStep.pendingLogin(account.email, GOOD_PASSWORD);
    const code = wrongCode(secret);
    const send = () => ctx.api.post('/auth/second-step', { pendingToken, method: 'totp', code });
    // Four of the minute's five spent one after another; of the burst, one more is checked.
    for (let n = 0; n < 4; n += 1) expect((await send()).status).toBe(400);
    expect(checkedOf(await burst(send), 400)).toBe(1);
    // The refused ones counted nothing: the minute's five are spent, the hour's cap is not.
    ctx.clock.advance(60_000);
    const later = await ctx.api.post('/auth/second-step', {
      pendingToken,
      method: 'totp',
      code: ctx.twoStep.code(secret),
    });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
  });

  it('forty wrong recovery codes at once: at most five checked', async () => {
    const account = await ctx.api.registerUser();
    const { token } = await ctx.api.login(account.email);
    await ctx.twoStep.enable(token);
    ctx.clock.advance(30_000);
    const pendingToken = await ctx.twoStep.pendingLogin(account.email, GOOD_PASSWORD);
    const answers = await burst(() =>
      ctx.api.post('/auth/second-step', { pendingToken, method: 'recovery', code: 'aaaaa-bbbbb' }),
    );
    const checked = checkedOf(answers, 400);
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(5);
  });

  it('forty wrong setup codes at once: no more checked than the hourly cap per account (30) leaves', async () => {
    const account = await ctx.api.registerUser();
    const { token } = await ctx.api.login(account.email);
    const setup = await ctx.api.post('/security/two-factor/setup', {}, token);
    const code = wrongCode(setup.body.secret as string);
    const send = () => ctx.api.post('/security/two-factor/enable', { code }, token);
    for (let n = 0; n < 29; n += 1) expect((await send()).status).toBe(400);
    expect(checkedOf(await burst(send), 400)).toBe(1);
  });

  it('forty wrong passwords at once: at most five checked (5 a minute per account and address)', async () => {
    const account = await ctx.api.registerUser();
    const answers = await burst(() =>
      ctx.api.post('/auth/login', { email: account.email, password: 'Equivocada&Cafe7', rememberMe: false }),
    );
    const checked = checkedOf(answers, 401);
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(5);
  });

  it('a pending second-step token opens one session only', async () => {
    const account = await ctx.api.registerUser();
    const { token } = await ctx.api.login(account.email);
    const { recoveryCodes } = await ctx.twoStep.enable(token);
    ctx.clock.advance(30_000);
    const pendingToken = await ctx.twoStep.pendingLogin(account.email, GOOD_PASSWORD);
    const [first, second] = recoveryCodes;
    const opened = await ctx.api.post('/auth/second-step', { pendingToken, method: 'recovery', code: first });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const again = await ctx.api.post('/auth/second-step', { pendingToken, method: 'recovery', code: second });
    expect(again.status, JSON.stringify(again.body)).toBe(401);
    expect(again.body.errorType).toBe('SECOND_STEP_EXPIRED');
    expect(again.body.token).toBeUndefined();
  });
});
