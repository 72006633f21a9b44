import { randomBytes, randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import { REMEMBER_DEVICE_DAYS, type SecondStepMethod } from '#shared/security/security-schemas';
import { SECURITY_MESSAGES } from '#shared/security/security-messages';
import type { Clock } from '../../infra/clock.ts';
import { AppError, badRequest } from '../../errors.ts';
import type {
  AccountGate,
  SecondFactor,
  SessionAnswer,
  SessionService,
  SignInOutcome,
  SmsCodeService,
} from '../auth/index.ts';
import { keyedHash } from './one-time-codes.ts';
import type { SecurityRepository } from './security-repository.ts';
import { phoneHint, type TwoFactorService } from './two-factor-service.ts';

/** How long a "pending second step" token lives: the SMS code's own 10 minutes. */
export const PENDING_SECOND_STEP_TTL_S = 10 * 60;
const REMEMBER_DEVICE_MS = REMEMBER_DEVICE_DAYS * 24 * 3_600_000;
const PENDING_TYPE = 'second-step';

export type SecondStepServiceDeps = {
  security: SecurityRepository;
  twoFactor: TwoFactorService;
  sessions: Pick<SessionService, 'issueSession'>;
  smsCodes: Pick<SmsCodeService, 'sendCode' | 'verifyCode' | 'consumeVerification'>;
  /** The account-state gate (docs/decisions/0043), asked before a pending token is handed out. */
  gate: Pick<AccountGate, 'assertMaySignIn'>;
  clock: Clock;
  /** HS256 key of pending tokens: distinct from the session key, so neither passes for the other. */
  tokenKey: Uint8Array;
  hashKey: Buffer;
};

export type SecondStepService = ReturnType<typeof createSecondStepService>;

/**
 * The gate between a first step and a session (docs/decisions/0032): with two-step on, a right
 * password (or Google credential) yields a short-lived signed pending token instead of a session,
 * and only a code (app, recovery or SMS) turns it into one. A remembered device skips the code.
 */
export function createSecondStepService(deps: SecondStepServiceDeps) {
  const { security, clock } = deps;
  const deviceHash = (userId: string, token: string) => keyedHash(deps.hashKey, 'trusted-device', userId, token);

  const openSession = async (
    userId: string,
    rememberMe: boolean,
    secondFactor: SecondFactor,
  ): Promise<SessionAnswer> => ({
    ...(await deps.sessions.issueSession(userId, { rememberMe, secondFactor })),
    message: rememberMe ? AUTH_MESSAGES.loginRemembered : AUTH_MESSAGES.loginSucceeded,
  });

  const readPending = async (
    pendingToken: string,
  ): Promise<{ userId: string; rememberMe: boolean; jti: string; expiresAt: Date }> => {
    try {
      const { payload } = await jwtVerify(pendingToken, deps.tokenKey, {
        algorithms: ['HS256'],
        issuer: 'entreno',
        typ: PENDING_TYPE,
        currentDate: clock.now(),
        requiredClaims: ['sub', 'exp', 'jti'],
      });
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.rm !== 'boolean' ||
        typeof payload.jti !== 'string' ||
        !isUuid(payload.jti) ||
        typeof payload.exp !== 'number'
      ) {
        throw new Error('claims');
      }
      return { userId: payload.sub, rememberMe: payload.rm, jti: payload.jti, expiresAt: new Date(payload.exp * 1000) };
    } catch (error) {
      if (!(error instanceof joseErrors.JOSEError) && !(error instanceof Error && error.message === 'claims')) {
        throw error;
      }
      throw new AppError(401, SECURITY_MESSAGES.secondStepExpired, 'SECOND_STEP_EXPIRED');
    }
  };

  return {
    /**
     * After a right first step: a session at once when two-step is off or the device is
     * remembered for this account; otherwise the pending token and the methods on offer.
     */
    async finishFirstStep(
      userId: string,
      options: { rememberMe: boolean; deviceToken?: string | undefined; message?: string },
    ): Promise<SignInOutcome> {
      const now = clock.now();
      // Before a session or a pending token: a deleted, suspended or banned account stops here.
      const user = await deps.gate.assertMaySignIn(userId);
      const isOn = await deps.twoFactor.isEnabled(userId);
      const isRemembered =
        isOn &&
        options.deviceToken !== undefined &&
        (await security.matchTrustedDevice(userId, deviceHash(userId, options.deviceToken), now));
      if (!isOn || isRemembered) {
        const session = await openSession(userId, options.rememberMe, isRemembered ? 'remembered-device' : 'none');
        return { kind: 'session', ...session, message: options.message ?? session.message };
      }
      const expiresAt = new Date(now.getTime() + PENDING_SECOND_STEP_TTL_S * 1000);
      const pendingToken = await new SignJWT({ rm: options.rememberMe })
        .setProtectedHeader({ alg: 'HS256', typ: PENDING_TYPE })
        .setSubject(userId)
        .setIssuer('entreno')
        .setJti(randomUUID())
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(deps.tokenKey);
      const methods: SecondStepMethod[] = user.phone ? ['totp', 'recovery', 'sms'] : ['totp', 'recovery'];
      return {
        kind: 'second-step',
        pendingToken,
        methods,
        phoneHint: phoneHint(user.phone),
        expiresAt,
        message: SECURITY_MESSAGES.secondStepRequired,
      };
    },

    /**
     * POST /auth/second-step: the code for the pending sign-in; a session, and with "Recordar
     * este dispositivo" a device token (the route sets it as an HttpOnly cookie).
     */
    async complete(
      input: { pendingToken: string; method: SecondStepMethod; code: string; rememberDevice: boolean },
      ip: string,
    ): Promise<SessionAnswer & { device?: { token: string; expiresAt: Date } }> {
      const { userId, rememberMe, jti, expiresAt: pendingEnd } = await readPending(input.pendingToken);
      // The account may have been deleted, suspended or banned since the first step.
      const user = await deps.gate.assertMaySignIn(userId);
      if (input.method === 'sms') {
        if (!user.phone) throw badRequest(SECURITY_MESSAGES.smsUnavailable, 'SMS_UNAVAILABLE');
        // The SMS service's own rules hold (5 guesses per code, per-number limits), plus ours.
        await deps.twoFactor.throttled(userId, ip, async () => {
          await deps.smsCodes.verifyCode({ phone: user.phone as string, code: input.code, purpose: 'second-step', ip });
          await deps.smsCodes.consumeVerification(user.phone as string, 'second-step');
        });
      } else {
        await deps.twoFactor.checkCode(userId, input.code, input.method, ip);
      }
      // One session per pending token: a second right code (another recovery code) opens none.
      if (!(await security.spendPendingToken(jti, pendingEnd, clock.now()))) {
        throw new AppError(401, SECURITY_MESSAGES.secondStepExpired, 'SECOND_STEP_EXPIRED');
      }
      const session = await openSession(userId, rememberMe, 'code');
      if (!input.rememberDevice) return session;
      const now = clock.now();
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + REMEMBER_DEVICE_MS);
      await security.addTrustedDevice({ userId, tokenHash: deviceHash(userId, token), now, expiresAt });
      return { ...session, device: { token, expiresAt } };
    },

    /** POST /auth/second-step/send-sms: the fallback code to the account's verified phone. */
    async sendSms(pendingToken: string, ip: string): Promise<{ phoneHint: string }> {
      const { userId } = await readPending(pendingToken);
      const user = await deps.gate.assertMaySignIn(userId);
      if (!user.phone) throw badRequest(SECURITY_MESSAGES.smsUnavailable, 'SMS_UNAVAILABLE');
      await deps.smsCodes.sendCode({ phone: user.phone, purpose: 'second-step', ip });
      return { phoneHint: phoneHint(user.phone) as string };
    },

    /** Forgets every remembered device of the user (a new password). */
    forgetDevices: (userId: string) => security.forgetTrustedDevices(userId),
  };
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
