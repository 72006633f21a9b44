import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import type { AuthUser, LoginRequestSchema, RegisterRequestSchema } from '#shared/auth/auth-schemas';
import { nextStreak, type Streak, streakDay } from '#shared/auth/streak';
import { SERVER_MESSAGES } from '#shared/messages';
import type * as v from 'valibot';
import type { Clock } from '../../infra/clock.ts';
import { AppError, badRequest, forbidden, unauthorized } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { addressKey, enforceRateLimits, guessUnderLimits, type RateLimiter } from '../../infra/rate-limit.ts';
import { AUTH_LIMITS } from './auth-limits.ts';
import { toAuthUser } from './auth-user.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { SecondStep, SignInOutcome } from './sign-in-answer.ts';
import type { AuthContext, SessionService } from './session-service.ts';
import type { SmsCodeService } from './sms-code-service.ts';
import type { UserRecord, UserRepository } from './user-repository.ts';
import type { UserService } from './user-service.ts';

const isInvalidCredentials = (error: unknown) => error instanceof AppError && error.errorType === 'INVALID_CREDENTIALS';

/** Positions are kept snapped to a 0.01° grid (about 1 km), never as sent (QUALITY 9). */
const LOCATION_GRID_DEG = 0.01;
const snap = (degrees: number) => Math.round(degrees / LOCATION_GRID_DEG) * LOCATION_GRID_DEG;

export type AuthHooks = {
  /**
   * Called once per new account (e-mail or Google), after it is stored: the notifications
   * feature sets the welcome state here. A failing hook is logged, never undoes the account.
   */
  onUserRegistered?(user: AuthUser): void | Promise<void>;
};

export type AuthServiceDeps = {
  users: UserRepository;
  /** Opens the session, or asks for the second step first (docs/decisions/0032). */
  secondStep: Pick<SecondStep, 'finishFirstStep'>;
  userService: UserService;
  sessions: SessionService;
  smsCodes: SmsCodeService;
  hasher: PasswordHasher;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  hooks: AuthHooks;
};

export type AuthService = ReturnType<typeof createAuthService>;

type LoginInput = v.InferOutput<typeof LoginRequestSchema>;
type RegisterInput = v.InferOutput<typeof RegisterRequestSchema>;

/** E-mail registration, password logins, the session's user and the streak. */
export function createAuthService(deps: AuthServiceDeps) {
  const { users, hasher, limiter, clock } = deps;

  /**
   * The password check both logins share: the same answer and about the same time whether the
   * account exists, has no password (Google only) or the password is wrong (QUALITY 2).
   */
  const checkPassword = async (
    account: { key: string; find: () => Promise<UserRecord | undefined>; failure: string },
    password: string,
    ip: string,
  ): Promise<UserRecord> => {
    await enforceRateLimits(
      limiter,
      [{ rule: AUTH_LIMITS.loginAttemptsPerIp, key: ip }],
      SERVER_MESSAGES.tooManyRequests,
    );
    // Failures slow this account from this address (growing delay), and this address over every
    // account (credential stuffing); the owner signing in from elsewhere is not slowed by either.
    // Each attempt is reserved on all of them before the password is checked (QUALITY 36).
    const accountFromIp = `${account.key}|${addressKey(ip)}`;
    const delays = AUTH_LIMITS.loginFailuresPerAccountAndIpTiers.map((rule) => ({ rule, key: accountFromIp }));
    const { user, passwordHash } = await guessUnderLimits(
      limiter,
      [
        { checks: [{ rule: AUTH_LIMITS.loginFailuresPerIp, key: ip }], message: SERVER_MESSAGES.tooManyRequests },
        {
          checks: [...delays, { rule: AUTH_LIMITS.loginFailuresPerAccount, key: account.key }],
          message: AUTH_MESSAGES.tooManyLoginAttempts,
        },
      ],
      async () => {
        const found = await account.find();
        const isMatch = found?.passwordHash ? await hasher.verify(found.passwordHash, password) : await dummy(password);
        if (!found?.passwordHash || !isMatch) throw new AppError(401, account.failure, 'INVALID_CREDENTIALS');
        return { user: found, passwordHash: found.passwordHash };
      },
      { isWrongGuess: isInvalidCredentials, resetOnSuccess: delays },
    );
    if (hasher.needsRehash(passwordHash)) {
      // Old, weaker parameters: upgrade while the plain password is at hand.
      await users.upgradePasswordHash(user.id, passwordHash, await hasher.hash(password), clock.now());
    }
    return user;
  };
  const dummy = async (password: string) => {
    await hasher.verifyDummy(password);
    return false;
  };

  const runRegisteredHook = async (user: AuthUser) => {
    try {
      await deps.hooks.onUserRegistered?.(user);
    } catch (error) {
      deps.logger.error({ err: error, userId: user.userId }, 'auth: onUserRegistered hook failed');
    }
  };

  return {
    /** Whether an account uses the e-mail; the spec shows this to the wizard (000 §4). */
    async checkEmail(email: string, ip: string): Promise<{ exists: boolean }> {
      await enforceRateLimits(
        limiter,
        [{ rule: AUTH_LIMITS.checkEmailPerIp, key: ip }],
        SERVER_MESSAGES.tooManyRequests,
      );
      return { exists: (await users.findByEmail(email)) !== undefined };
    },

    /**
     * Creates the account of the e-mail wizard. The phone must have been verified by a code for
     * 'register' (recorded by the server, never taken from the client), and the verification is
     * used up.
     */
    async register(input: RegisterInput, ip: string): Promise<AuthUser> {
      await enforceRateLimits(limiter, [{ rule: AUTH_LIMITS.registerPerIp, key: ip }], SERVER_MESSAGES.tooManyRequests);
      if (!(await deps.smsCodes.isPhoneVerified(input.phone, 'register'))) {
        throw badRequest(AUTH_MESSAGES.phoneNotVerified, 'PHONE_NOT_VERIFIED');
      }
      const record = await deps.userService.createUser({
        name: input.name,
        lastName: input.lastName,
        email: input.email,
        phone: input.phone,
        password: input.password,
      });
      await deps.smsCodes.consumeVerification(input.phone, 'register');
      const user = toAuthUser(record);
      await runRegisteredHook(user);
      return user;
    },

    /** Hook for account creations that do not go through `register` (the Google flow). */
    notifyRegistered: runRegisteredHook,

    /**
     * E-mail and password (spec 000 §7, POST /auth/login): a session, or with two-step on the
     * second step's challenge (a remembered device's token skips it).
     */
    async login(input: LoginInput, ip: string, deviceToken?: string): Promise<SignInOutcome> {
      const user = await checkPassword(
        { key: `email:${input.email}`, find: () => users.findByEmail(input.email), failure: AUTH_MESSAGES.loginFailed },
        input.password,
        ip,
      );
      if (typeof input.latitude === 'number' && typeof input.longitude === 'number') {
        await users.setLastLocation(
          user.id,
          { latitude: snap(input.latitude), longitude: snap(input.longitude) },
          clock.now(),
        );
      }
      return deps.secondStep.finishFirstStep(user.id, { rememberMe: input.rememberMe, deviceToken });
    },

    /** Phone and password: the wizard's login right after registering (POST /auth/complete-registration). */
    async loginWithPhone(
      input: { phone: string; password: string; rememberMe: boolean },
      ip: string,
      deviceToken?: string,
    ): Promise<SignInOutcome> {
      const user = await checkPassword(
        {
          key: `phone:${input.phone}`,
          find: () => users.findByPhone(input.phone),
          failure: AUTH_MESSAGES.phoneLoginFailed,
        },
        input.password,
        ip,
      );
      return deps.secondStep.finishFirstStep(user.id, { rememberMe: input.rememberMe, deviceToken });
    },

    /** The signed-in user (GET /auth/validate-session). */
    async currentUser(auth: AuthContext): Promise<AuthUser> {
      const user = await users.findById(auth.userId);
      if (!user) throw unauthorized(SERVER_MESSAGES.invalidToken);
      return toAuthUser(user);
    },

    /**
     * The daily streak (spec 000 §4), computed here from the stored last day and today in Madrid;
     * the numbers the client sends are not trusted. Only for oneself.
     */
    async updateStreak(auth: AuthContext, requestedUserId: string): Promise<Streak & { lastLoginDate: string }> {
      if (requestedUserId.toLowerCase() !== auth.userId.toLowerCase()) throw forbidden();
      const user = await users.findById(auth.userId);
      if (!user) throw unauthorized(SERVER_MESSAGES.invalidToken);
      const now = clock.now();
      const next = nextStreak({ streak: user.streak, lastLoginDate: user.lastLoginDate }, streakDay(now));
      const lastLoginDate = next.lastLoginDate ?? streakDay(now);
      if (next.streak !== user.streak || next.lastLoginDate !== user.lastLoginDate) {
        await users.setStreak(user.id, { streak: next.streak, lastLoginDate }, now);
      }
      return { streak: next.streak, lastLoginDate };
    },

    /** Ends the caller's session (POST /auth/logout, docs/decisions/0003). */
    async logout(auth: AuthContext): Promise<void> {
      await deps.sessions.revokeSession(auth, 'logout');
    },
  };
}
