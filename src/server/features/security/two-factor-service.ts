import QRCode from 'qrcode';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import { SERVER_MESSAGES } from '#shared/messages';
import { SECURITY_MESSAGES } from '#shared/security/security-messages';
import type { Clock } from '../../infra/clock.ts';
import { AppError, badRequest, conflict } from '../../errors.ts';
import { addressKey, enforceRateLimits, guessUnderLimits, type RateLimiter } from '../../infra/rate-limit.ts';
import { type PasswordHasher, SECOND_STEP_LIMITS, type UserRecord, type UserRepository } from '../auth/index.ts';
import {
  generateRecoveryCodes,
  generateTotpSecret,
  keyedHash,
  matchTotpStep,
  normalizeRecoveryCode,
  openSecret,
  sealSecret,
  totpUri,
} from './one-time-codes.ts';
import type { SecurityRepository } from './security-repository.ts';

/** How long a setup's secret waits for its first code. */
const SETUP_TTL_MS = 30 * 60_000;

export type TwoFactorServiceDeps = {
  security: SecurityRepository;
  users: UserRepository;
  hasher: PasswordHasher;
  limiter: RateLimiter;
  clock: Clock;
  /** AES-256-GCM key of the stored secrets. */
  secretKey: Buffer;
  /** HMAC key of recovery codes and device tokens. */
  hashKey: Buffer;
};

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

/** Which codes a check accepts: the app's, a recovery code, or either (typed into one field). */
export type CodeKind = 'totp' | 'recovery' | 'totp-or-recovery';

/** A 400 from a code check is a wrong guess (a wrong, used or expired code); anything else checked nothing. */
const isBadRequest = (error: unknown) => error instanceof AppError && error.statusCode === 400;

/** The phone's last two digits, the rest hidden: enough to recognise it, nothing to harvest. */
export function phoneHint(phone: string | null): string | null {
  return phone ? `••• •• •• ${phone.slice(-2)}` : null;
}

/**
 * Two-step verification with an authenticator app (docs/decisions/0032): setup with a QR code,
 * ten recovery codes, and the code checks every path shares, throttled like wrong passwords.
 */
export function createTwoFactorService(deps: TwoFactorServiceDeps) {
  const { security, limiter, clock } = deps;
  const recoveryHash = (userId: string, code: string) =>
    keyedHash(deps.hashKey, 'recovery-code', userId, normalizeRecoveryCode(code));

  const newRecoveryCodes = (userId: string) => {
    const codes = generateRecoveryCodes();
    return { codes, hashes: codes.map((code) => recoveryHash(userId, code)) };
  };

  /**
   * Runs one code check under the failure throttling (429 + Retry-After): a check that fails
   * with a 400 counts against the account from this address and over all addresses.
   */
  const throttled = async (userId: string, ip: string, attempt: () => Promise<void>): Promise<void> => {
    await enforceRateLimits(
      limiter,
      [{ rule: SECOND_STEP_LIMITS.attemptsPerIp, key: ip }],
      SERVER_MESSAGES.tooManyRequests,
    );
    const fromIp = `${userId}|${addressKey(ip)}`;
    const delays = SECOND_STEP_LIMITS.failuresPerAccountAndIpTiers.map((rule) => ({ rule, key: fromIp }));
    // Reserved before the code is checked (QUALITY 36): a burst checks at most the limit.
    await guessUnderLimits(
      limiter,
      [
        {
          checks: [...delays, { rule: SECOND_STEP_LIMITS.failuresPerAccount, key: userId }],
          message: SECURITY_MESSAGES.tooManyCodeAttempts,
        },
      ],
      attempt,
      { isWrongGuess: isBadRequest, resetOnSuccess: delays },
    );
  };
  /** Accepts one code of the kinds allowed (throttled), or a 400 INVALID_CODE. */
  const checkCode = (userId: string, code: string, kind: CodeKind, ip: string): Promise<void> =>
    throttled(userId, ip, async () => {
      if (await verify(userId, code, kind)) return;
      const message = kind === 'recovery' ? SECURITY_MESSAGES.recoveryCodeInvalid : SECURITY_MESSAGES.codeInvalid;
      throw badRequest(message, 'INVALID_CODE');
    });

  const verify = async (userId: string, code: string, kind: CodeKind): Promise<boolean> => {
    const state = await security.findTwoFactor(userId);
    if (!state?.totpSecret || !state.enabledAt) return false;
    const now = clock.now();
    const isDigits = /^\d{6}$/.test(code.replace(/[\s-]/g, ''));
    if (kind !== 'recovery' && isDigits) {
      const step = matchTotpStep(openSecret(deps.secretKey, state.totpSecret), code, now);
      // A code already used (same step) counts as wrong: a watched code cannot be replayed.
      return step !== undefined && (await security.claimTotpStep(userId, step, now));
    }
    if (kind === 'totp') return false;
    return security.spendRecoveryCode(userId, recoveryHash(userId, code), now);
  };

  const requireUser = async (userId: string): Promise<UserRecord> => {
    const user = await deps.users.findById(userId);
    if (!user) throw new AppError(401, SERVER_MESSAGES.invalidToken);
    return user;
  };

  return {
    checkCode,
    throttled,

    async isEnabled(userId: string): Promise<boolean> {
      const state = await security.findTwoFactor(userId);
      return state?.enabledAt != null;
    },

    async status(userId: string) {
      const user = await requireUser(userId);
      const state = await security.findTwoFactor(userId);
      const isEnabled = state?.enabledAt != null;
      return {
        isEnabled,
        enabledAt: state?.enabledAt?.toISOString() ?? null,
        recoveryCodesLeft: isEnabled ? await security.countUnusedRecoveryCodes(userId) : 0,
        phoneHint: phoneHint(user.phone),
        hasPassword: user.passwordHash !== null,
      };
    },

    /** Step 1 of turning it on: a new secret, its otpauth address and QR code (SVG). */
    async startSetup(userId: string): Promise<{ secret: string; otpauthUri: string; qrSvg: string }> {
      const user = await requireUser(userId);
      if (await this.isEnabled(userId)) throw conflict(SECURITY_MESSAGES.alreadyEnabled, 'ALREADY_ENABLED');
      const secret = generateTotpSecret();
      await security.savePendingSecret(userId, sealSecret(deps.secretKey, secret), clock.now());
      const otpauthUri = totpUri(secret, user.email);
      const qrSvg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return { secret, otpauthUri, qrSvg };
    },

    /** Step 2: the first code from the app proves the secret was stored; the recovery codes come back once. */
    async enable(userId: string, code: string, ip: string): Promise<string[]> {
      const state = await security.findTwoFactor(userId);
      if (state?.enabledAt) throw conflict(SECURITY_MESSAGES.alreadyEnabled, 'ALREADY_ENABLED');
      const now = clock.now();
      if (
        !state?.pendingSecret ||
        !state.pendingCreatedAt ||
        now.getTime() - state.pendingCreatedAt.getTime() > SETUP_TTL_MS
      ) {
        throw badRequest(SECURITY_MESSAGES.setupNotStarted, 'SETUP_NOT_STARTED');
      }
      await enforceRateLimits(
        limiter,
        [{ rule: SECOND_STEP_LIMITS.attemptsPerIp, key: ip }],
        SERVER_MESSAGES.tooManyRequests,
      );
      const pendingSecret = state.pendingSecret;
      // The setup's code is reserved before it is checked, like every other (QUALITY 36).
      const step = await guessUnderLimits(
        limiter,
        [
          {
            checks: [{ rule: SECOND_STEP_LIMITS.failuresPerAccount, key: userId }],
            message: SECURITY_MESSAGES.tooManyCodeAttempts,
          },
        ],
        async () => {
          const matched = matchTotpStep(openSecret(deps.secretKey, pendingSecret), code, now);
          if (matched === undefined) throw badRequest(SECURITY_MESSAGES.codeInvalid, 'INVALID_CODE');
          return matched;
        },
        { isWrongGuess: isBadRequest },
      );
      const { codes, hashes } = newRecoveryCodes(userId);
      const isEnabled = await security.enable(userId, {
        pendingSecret: state.pendingSecret,
        step,
        codeHashes: hashes,
        now,
      });
      if (!isEnabled) throw badRequest(SECURITY_MESSAGES.setupNotStarted, 'SETUP_NOT_STARTED');
      return codes;
    },

    /** Turning it off: the password (when the account has one) and a code from the app or a recovery code. */
    async disable(userId: string, input: { password?: string | undefined; code: string }, ip: string): Promise<void> {
      const user = await requireUser(userId);
      if (!(await this.isEnabled(userId))) throw conflict(SECURITY_MESSAGES.notEnabled, 'NOT_ENABLED');
      if (user.passwordHash) {
        if (!input.password) throw badRequest(SECURITY_MESSAGES.passwordRequired, 'PASSWORD_REQUIRED');
        await checkPassword(user, input.password);
      }
      await checkCode(userId, input.code, 'totp-or-recovery', ip);
      await security.disable(userId);
    },

    /** New recovery codes (the old ones stop working), after a code from the app. */
    async renewRecoveryCodes(userId: string, code: string, ip: string): Promise<string[]> {
      if (!(await this.isEnabled(userId))) throw conflict(SECURITY_MESSAGES.notEnabled, 'NOT_ENABLED');
      await checkCode(userId, code, 'totp', ip);
      const { codes, hashes } = newRecoveryCodes(userId);
      await security.replaceRecoveryCodes(userId, hashes, clock.now());
      return codes;
    },
  };

  /** The password re-check of a sensitive change, counted with the login's per-account failures. */
  async function checkPassword(user: UserRecord, password: string): Promise<void> {
    await guessUnderLimits(
      limiter,
      [
        {
          checks: [{ rule: SECOND_STEP_LIMITS.failuresPerAccount, key: user.id }],
          message: AUTH_MESSAGES.tooManyLoginAttempts,
        },
      ],
      async () => {
        if (!user.passwordHash || !(await deps.hasher.verify(user.passwordHash, password))) {
          throw badRequest(SECURITY_MESSAGES.passwordWrong, 'INVALID_PASSWORD');
        }
      },
      { isWrongGuess: isBadRequest },
    );
  }
}
