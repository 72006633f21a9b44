import type { RateLimitRule } from '../../plugins/rate-limit.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * Throttling of the access area (QUALITY 3), on top of the spec's own SMS rules (cooldown,
 * MAX_ATTEMPTS lock, 5 guesses per code). Per-IP caps are loose enough for a carrier NAT; the
 * per-account, per-number and per-range ones are what stop guessing and SMS pumping. Every limit
 * is a window that ends, so the real owner is never locked out for good.
 */
export const AUTH_LIMITS = {
  /** Wrong passwords per e-mail (or phone, for the wizard's login), counted whether or not it exists. */
  loginFailuresPerAccount: { name: 'login-failures-account', limit: 5, windowMs: 15 * MINUTE_MS },
  loginAttemptsPerIp: { name: 'login-ip', limit: 60, windowMs: 15 * MINUTE_MS, isPerIp: true },

  sendCodePerIp: { name: 'send-code-ip', limit: 20, windowMs: HOUR_MS, isPerIp: true },
  /** The first 5 national digits: one block of numbers cannot be pumped through many sends. */
  sendCodePerRange: { name: 'send-code-range', limit: 30, windowMs: HOUR_MS },
  /** All nodes together, per UTC day; the limit comes from SMS_DAILY_BUDGET. */
  smsDailyBudget: { name: 'sms-daily-budget', limit: 1000, windowMs: DAY_MS },

  verifyCodePerIp: { name: 'verify-code-ip', limit: 60, windowMs: 15 * MINUTE_MS, isPerIp: true },
  /** Several codes' worth of guesses (5 each), then the number rests. */
  verifyCodePerPhone: { name: 'verify-code-phone', limit: 20, windowMs: HOUR_MS },
  verifyCodePerRange: { name: 'verify-code-range', limit: 60, windowMs: HOUR_MS },

  forgotPasswordPerIp: { name: 'forgot-ip', limit: 20, windowMs: HOUR_MS, isPerIp: true },
  forgotPasswordPerEmail: { name: 'forgot-email', limit: 3, windowMs: HOUR_MS },
  resetPasswordPerIp: { name: 'reset-ip', limit: 30, windowMs: 15 * MINUTE_MS, isPerIp: true },

  /** Google credentials checked per IP, on each of the three Google calls (sign-in, send-code, verify-code). */
  googlePerIp: { name: 'google-ip', limit: 60, windowMs: 15 * MINUTE_MS, isPerIp: true },

  checkEmailPerIp: { name: 'check-email-ip', limit: 60, windowMs: 15 * MINUTE_MS, isPerIp: true },
  registerPerIp: { name: 'register-ip', limit: 20, windowMs: HOUR_MS, isPerIp: true },
} as const satisfies Record<string, RateLimitRule>;
