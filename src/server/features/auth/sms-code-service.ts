import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  PHONE_VERIFICATION_TTL_S,
  SMS_CODE_LENGTH,
  SMS_CODE_MAX_WRONG_GUESSES,
  SMS_CODE_TTL_S,
  SMS_LIMIT_LOCK_S,
  SMS_MAX_SENDS_PER_WINDOW,
  SMS_RESEND_COOLDOWN_S,
  SMS_SEND_WINDOW_S,
} from '#shared/auth/auth-constants';
import { AUTH_MESSAGES, resendCooldownMessage } from '#shared/auth/auth-messages';
import { isImplausiblePhone, isSpanishMobile, normalizeSpanishPhone, phoneRangeKey } from '#shared/auth/phone';
import { SERVER_MESSAGES } from '#shared/messages';
import type { Clock } from '../../infra/clock.ts';
import type { SmsChannel } from '../../delivery/sms-channel.ts';
import { AppError, badRequest, tooManyRequests } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { checkRateLimits, enforceRateLimits, type RateLimiter } from '../../infra/rate-limit.ts';
import { AUTH_LIMITS } from './auth-limits.ts';
import type { SendPlan, SmsCodeRepository, SmsPurpose, SmsSendLimitState } from './sms-code-repository.ts';

export type { SmsPurpose } from './sms-code-repository.ts';

export type SmsCodeServiceDeps = {
  codes: SmsCodeRepository;
  sms: SmsChannel;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** HMAC key for stored codes. */
  codeKey: Buffer;
  /** E.164 numbers refused as PHONE_BLOCKED (SMS_BLOCKED_NUMBERS). */
  blockedNumbers: readonly string[];
  /** SMS_DAILY_BUDGET. */
  dailyBudget: number;
  /** SMS_DAILY_BUDGET_PER_NUMBER and SMS_DAILY_BUDGET_PER_ADDRESS (defaults: AUTH_LIMITS). */
  dailyBudgetPerNumber?: number;
  dailyBudgetPerAddress?: number;
};

export type SmsCodeService = ReturnType<typeof createSmsCodeService>;

const S = 1000;

type SendOutcome =
  | { status: 'send'; code: string; expiresAt: Date }
  | { status: 'cooldown'; retryAfterMs: number }
  | { status: 'locked'; retryAfterMs: number };

/**
 * Phone verification by SMS code (QUALITY 4, spec 000 §8-§9), keyed by number and purpose so the
 * e-mail wizard ('register') and the Google flow ('google-register') share it without mixing codes.
 */
export function createSmsCodeService(deps: SmsCodeServiceDeps) {
  const { codes, clock } = deps;
  const blocked = new Set(deps.blockedNumbers);
  const budgetRule = { ...AUTH_LIMITS.smsDailyBudget, limit: deps.dailyBudget };
  const perNumberRule = {
    ...AUTH_LIMITS.smsDailyBudgetPerNumber,
    limit: deps.dailyBudgetPerNumber ?? AUTH_LIMITS.smsDailyBudgetPerNumber.limit,
  };
  const perAddressRule = {
    ...AUTH_LIMITS.smsDailyBudgetPerAddress,
    limit: deps.dailyBudgetPerAddress ?? AUTH_LIMITS.smsDailyBudgetPerAddress.limit,
  };

  const budgetExhausted = (retryAfterMs: number) => {
    deps.logger.error({ dailyBudget: deps.dailyBudget }, 'sms: daily budget exhausted, refusing sends');
    return new AppError(503, AUTH_MESSAGES.smsDailyBudgetExhausted, 'OTHER', {
      'retry-after': String(Math.ceil(retryAfterMs / S)),
    });
  };

  const hashCode = (phone: string, purpose: SmsPurpose, code: string) =>
    createHmac('sha256', deps.codeKey).update(`${purpose}\n${phone}\n${code}`).digest('hex');

  /** A number the SMS can reach, or INVALID_PHONE / PHONE_BLOCKED. */
  const checkPhone = (input: string): string => {
    const phone = normalizeSpanishPhone(input);
    if (phone === null || !isSpanishMobile(phone)) throw badRequest(AUTH_MESSAGES.invalidPhone, 'INVALID_PHONE');
    if (blocked.has(phone) || isImplausiblePhone(phone)) throw badRequest(AUTH_MESSAGES.phoneBlocked, 'PHONE_BLOCKED');
    return phone;
  };

  /** The spec's send rules for one number: 60 s between sends, 3 per 10 minutes, then 180 s locked. */
  const decideSend = (
    phone: string,
    purpose: SmsPurpose,
    state: SmsSendLimitState | undefined,
    now: Date,
  ): SendPlan<SendOutcome> => {
    const nowMs = now.getTime();
    if (state?.lockedUntil && state.lockedUntil.getTime() > nowMs) {
      return {
        nextState: undefined,
        code: undefined,
        result: { status: 'locked', retryAfterMs: state.lockedUntil.getTime() - nowMs },
      };
    }
    if (state?.lastSentAt && nowMs - state.lastSentAt.getTime() < SMS_RESEND_COOLDOWN_S * S) {
      const retryAfterMs = state.lastSentAt.getTime() + SMS_RESEND_COOLDOWN_S * S - nowMs;
      return { nextState: undefined, code: undefined, result: { status: 'cooldown', retryAfterMs } };
    }
    const isWindowOpen = state !== undefined && nowMs - state.windowStartedAt.getTime() < SMS_SEND_WINDOW_S * S;
    const sendsInWindow = isWindowOpen ? state.sendsInWindow : 0;
    const windowStartedAt = isWindowOpen ? state.windowStartedAt : now;
    if (sendsInWindow >= SMS_MAX_SENDS_PER_WINDOW) {
      const lockedUntil = new Date(nowMs + SMS_LIMIT_LOCK_S * S);
      // After the lock the number starts a fresh window: locked for 3 minutes, not for good.
      return {
        nextState: {
          windowStartedAt: lockedUntil,
          sendsInWindow: 0,
          lastSentAt: state?.lastSentAt ?? null,
          lockedUntil,
        },
        code: undefined,
        result: { status: 'locked', retryAfterMs: SMS_LIMIT_LOCK_S * S },
      };
    }
    const code = randomInt(0, 10 ** SMS_CODE_LENGTH)
      .toString()
      .padStart(SMS_CODE_LENGTH, '0');
    const expiresAt = new Date(nowMs + SMS_CODE_TTL_S * S);
    return {
      nextState: { windowStartedAt, sendsInWindow: sendsInWindow + 1, lastSentAt: now, lockedUntil: null },
      code: { purpose, codeHash: hashCode(phone, purpose, code), createdAt: now, expiresAt },
      result: { status: 'send', code, expiresAt },
    };
  };

  return {
    /** Normalizes a number and refuses it as INVALID_PHONE or PHONE_BLOCKED, as send-code would. */
    checkPhone,

    /**
     * Sends a new code to the number for the purpose, replacing any previous one. Answers the
     * same whether or not an account uses the number (QUALITY 2).
     */
    async sendCode(input: {
      phone: string;
      purpose: SmsPurpose;
      ip: string;
    }): Promise<{ phone: string; expiresAt: Date }> {
      const phone = checkPhone(input.phone);
      await enforceRateLimits(
        deps.limiter,
        [
          { rule: AUTH_LIMITS.sendCodePerIp, key: input.ip },
          { rule: AUTH_LIMITS.sendCodePerRange, key: phoneRangeKey(phone) },
        ],
        SERVER_MESSAGES.tooManyRequests,
        'OTHER',
      );
      // The day's shares of this number and this address, then the whole service's: cheap early
      // refusals; the consumes below are what hold under parallel sends and many nodes. Only texts
      // really sent count, so refused attempts cannot spend a number's share.
      const shares = [
        { rule: perNumberRule, key: phone },
        { rule: perAddressRule, key: input.ip },
      ];
      await checkRateLimits(deps.limiter, shares, SERVER_MESSAGES.tooManyRequests, 'OTHER');
      const budget = await deps.limiter.peek({ rule: budgetRule, key: 'all' });
      if (budget.isLimited) throw budgetExhausted(budget.retryAfterMs);
      const now = clock.now();
      const outcome = await codes.planSend(phone, (state) => decideSend(phone, input.purpose, state, now));
      if (outcome.status === 'locked') {
        throw tooManyRequests(AUTH_MESSAGES.maxAttempts, outcome.retryAfterMs / S, 'MAX_ATTEMPTS');
      }
      if (outcome.status === 'cooldown') {
        throw tooManyRequests(resendCooldownMessage(outcome.retryAfterMs / S), outcome.retryAfterMs / S, 'OTHER');
      }
      // Counted atomically before the text goes out: a peek alone lets parallel sends overshoot.
      await enforceRateLimits(deps.limiter, shares, SERVER_MESSAGES.tooManyRequests, 'OTHER');
      const spent = await deps.limiter.consume({ rule: budgetRule, key: 'all' });
      if (spent.isLimited) throw budgetExhausted(spent.retryAfterMs);
      const text = `Tu código de Entreno es ${outcome.code}. Caduca en ${SMS_CODE_TTL_S / 60} minutos. No lo compartas con nadie.`;
      try {
        await deps.sms.send({ to: phone, text, code: outcome.code });
      } catch (error) {
        deps.logger.error({ err: error, channel: deps.sms.kind }, 'sms: sending a code failed');
        throw new AppError(500, AUTH_MESSAGES.sendCodeFailed, 'MULTIPLE');
      }
      return { phone, expiresAt: outcome.expiresAt };
    },

    /**
     * Checks a code and, when right, remembers the number as verified for the purpose for
     * PHONE_VERIFICATION_TTL_S. At most SMS_CODE_MAX_WRONG_GUESSES guesses per code.
     */
    async verifyCode(input: {
      phone: string;
      code: string;
      purpose: SmsPurpose;
      ip: string;
    }): Promise<{ phone: string }> {
      const phone = normalizeSpanishPhone(input.phone);
      if (phone === null) throw badRequest(AUTH_MESSAGES.invalidPhone, 'INVALID_PHONE');
      await enforceRateLimits(
        deps.limiter,
        [
          { rule: AUTH_LIMITS.verifyCodePerIp, key: input.ip },
          { rule: AUTH_LIMITS.verifyCodePerPhone, key: phone },
          { rule: AUTH_LIMITS.verifyCodePerRange, key: phoneRangeKey(phone) },
        ],
        SERVER_MESSAGES.tooManyRequests,
      );
      const now = clock.now();
      const live = await codes.takeGuess(phone, input.purpose, SMS_CODE_MAX_WRONG_GUESSES, now);
      if (!live) {
        const code = await codes.findCode(phone, input.purpose);
        if (!code || code.consumedAt) throw badRequest(AUTH_MESSAGES.codeInvalid, 'INVALID_CODE');
        if (code.expiresAt.getTime() <= now.getTime()) throw badRequest(AUTH_MESSAGES.codeExpired, 'CODE_EXPIRED');
        throw badRequest(AUTH_MESSAGES.codeAttemptsExceeded, 'CODE_ATTEMPTS_EXCEEDED');
      }
      const guessHash = hashCode(phone, input.purpose, input.code);
      if (!timingSafeEqual(Buffer.from(guessHash), Buffer.from(live.codeHash))) {
        if (live.attempts >= SMS_CODE_MAX_WRONG_GUESSES) {
          throw badRequest(AUTH_MESSAGES.codeAttemptsExceeded, 'CODE_ATTEMPTS_EXCEEDED');
        }
        throw badRequest(AUTH_MESSAGES.codeInvalid, 'INVALID_CODE');
      }
      const verification = { verifiedAt: now, expiresAt: new Date(now.getTime() + PHONE_VERIFICATION_TTL_S * S) };
      const isConsumed = await codes.consumeCode(phone, input.purpose, live.codeHash, verification);
      // Another request used the same code a moment earlier.
      if (!isConsumed) throw badRequest(AUTH_MESSAGES.codeInvalid, 'INVALID_CODE');
      return { phone };
    },

    /** True while a verification of the number for the purpose is live and unused. */
    async isPhoneVerified(phone: string, purpose: SmsPurpose): Promise<boolean> {
      return codes.isVerified(phone, purpose, clock.now());
    },

    /** Uses the verification up (an account was created with the number). */
    async consumeVerification(phone: string, purpose: SmsPurpose): Promise<boolean> {
      return codes.consumeVerification(phone, purpose, clock.now());
    },
  };
}
