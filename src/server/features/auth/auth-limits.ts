import type { RateLimitRule } from '../../infra/rate-limit.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * The growing delay after wrong passwords for one account from one address: 5 failures wait for
 * the end of the minute, 10 for the end of the quarter hour, 20 for the hour, 50 for the day.
 */
const LOGIN_FAILURE_DELAYS = [
  { name: 'login-failures-account-ip-1m', limit: 5, windowMs: MINUTE_MS },
  { name: 'login-failures-account-ip-15m', limit: 10, windowMs: 15 * MINUTE_MS },
  { name: 'login-failures-account-ip-1h', limit: 20, windowMs: HOUR_MS },
  { name: 'login-failures-account-ip-1d', limit: 50, windowMs: DAY_MS },
] as const satisfies readonly RateLimitRule[];

/**
 * Throttling of the access area (QUALITY 3), on top of the spec's own SMS rules (cooldown,
 * MAX_ATTEMPTS lock, 5 guesses per code). Per-IP caps are loose enough for a carrier NAT; the
 * per-account, per-number and per-range ones are what stop guessing and SMS pumping. Every limit
 * is a window that ends, so the real owner is never locked out for good.
 */
export const AUTH_LIMITS = {
  /**
   * Wrong passwords per account (e-mail, or phone for the wizard's login) from one address: a
   * delay that grows with the failures (the tiers of LOGIN_FAILURE_DELAYS). Another address,
   * the owner's, is not slowed by them.
   */
  loginFailuresPerAccountAndIpTiers: LOGIN_FAILURE_DELAYS,
  /**
   * Wrong passwords per account from every address together: only a guessing campaign spread over
   * many addresses reaches it (one address is slowed far below it by the tiers above).
   */
  loginFailuresPerAccount: { name: 'login-failures-account', limit: 50, windowMs: HOUR_MS },
  /** Wrong passwords per address over any accounts: credential stuffing from one address. */
  loginFailuresPerIp: { name: 'login-failures-ip', limit: 30, windowMs: HOUR_MS, isPerIp: true },
  loginAttemptsPerIp: { name: 'login-ip', limit: 60, windowMs: 15 * MINUTE_MS, isPerIp: true },

  sendCodePerIp: { name: 'send-code-ip', limit: 20, windowMs: HOUR_MS, isPerIp: true },
  /** The first 5 national digits: one block of numbers cannot be pumped through many sends. */
  sendCodePerRange: { name: 'send-code-range', limit: 30, windowMs: HOUR_MS },
  /** All nodes together, per UTC day; the limit comes from SMS_DAILY_BUDGET. */
  smsDailyBudget: { name: 'sms-daily-budget', limit: 1000, windowMs: DAY_MS },
  /** Texts sent to one number per UTC day; the limit comes from SMS_DAILY_BUDGET_PER_NUMBER. */
  smsDailyBudgetPerNumber: { name: 'sms-daily-number', limit: 10, windowMs: DAY_MS },
  /** Texts one address had sent per UTC day; the limit comes from SMS_DAILY_BUDGET_PER_ADDRESS. */
  smsDailyBudgetPerAddress: { name: 'sms-daily-address', limit: 100, windowMs: DAY_MS, isPerIp: true },

  verifyCodePerIp: { name: 'verify-code-ip', limit: 60, windowMs: 15 * MINUTE_MS, isPerIp: true },
  /** Several codes' worth of guesses (5 each), then the number rests. */
  verifyCodePerPhone: { name: 'verify-code-phone', limit: 20, windowMs: HOUR_MS },
  verifyCodePerRange: { name: 'verify-code-range', limit: 60, windowMs: HOUR_MS },

  forgotPasswordPerIp: { name: 'forgot-ip', limit: 20, windowMs: HOUR_MS, isPerIp: true },
  /** Links mailed per address; past it the request is answered alike and nothing is mailed. */
  forgotPasswordPerEmail: { name: 'forgot-email', limit: 3, windowMs: HOUR_MS },
  resetPasswordPerIp: { name: 'reset-ip', limit: 30, windowMs: 15 * MINUTE_MS, isPerIp: true },

  /** Google credentials checked per IP, on each of the three Google calls (sign-in, send-code, verify-code). */
  googlePerIp: { name: 'google-ip', limit: 60, windowMs: 15 * MINUTE_MS, isPerIp: true },

  checkEmailPerIp: { name: 'check-email-ip', limit: 60, windowMs: 15 * MINUTE_MS, isPerIp: true },
  registerPerIp: { name: 'register-ip', limit: 20, windowMs: HOUR_MS, isPerIp: true },
} as const satisfies Record<string, RateLimitRule | readonly RateLimitRule[]>;

/**
 * Wrong second-step codes (docs/decisions/0032): throttled like wrong passwords — a delay per
 * account from one address that grows with the failures, a cap per account over every address,
 * and a cap per address. With ±1 step a guess has 3 in a million chances; 20 an hour is nothing.
 */
export const SECOND_STEP_LIMITS = {
  failuresPerAccountAndIpTiers: [
    { name: 'second-step-failures-account-ip-1m', limit: 5, windowMs: MINUTE_MS },
    { name: 'second-step-failures-account-ip-15m', limit: 10, windowMs: 15 * MINUTE_MS },
    { name: 'second-step-failures-account-ip-1h', limit: 20, windowMs: HOUR_MS },
  ],
  failuresPerAccount: { name: 'second-step-failures-account', limit: 30, windowMs: HOUR_MS },
  attemptsPerIp: { name: 'second-step-ip', limit: 60, windowMs: 15 * MINUTE_MS, isPerIp: true },
  /** Passkey ceremonies started or finished per address. */
  passkeyPerIp: { name: 'passkey-ip', limit: 60, windowMs: 15 * MINUTE_MS, isPerIp: true },
} as const satisfies Record<string, RateLimitRule | readonly RateLimitRule[]>;
