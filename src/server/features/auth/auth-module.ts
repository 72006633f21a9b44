import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import type { EmailChannel } from '../../delivery/email-channel.ts';
import type { SmsChannel } from '../../delivery/sms-channel.ts';
import type { Logger } from '../../logger.ts';
import type { InvalidationBus } from '../../plugins/invalidation-bus.ts';
import type { RateLimiter } from '../../plugins/rate-limit.ts';
import type { ServerKeys } from '../../secrets.ts';
import { type AuthHooks, createAuthService } from './auth-service.ts';
import { createPasswordHasher, type PasswordHashPolicy } from './password-hasher.ts';
import { createPasswordResetRepository } from './password-reset-repository.ts';
import { createPasswordResetService } from './password-reset-service.ts';
import { createSessionRepository } from './session-repository.ts';
import { createSessionService, type SessionRevocationListener } from './session-service.ts';
import { createSmsCodeRepository } from './sms-code-repository.ts';
import { createSmsCodeService } from './sms-code-service.ts';
import { createUserRepository } from './user-repository.ts';
import { createUserService } from './user-service.ts';
import { createPasskeyService } from '../security/passkey-service.ts';
import { createSecondStepService } from '../security/second-step-service.ts';
import { createSecurityRepository } from '../security/security-repository.ts';
import { createTwoFactorService } from '../security/two-factor-service.ts';

export type AuthModuleDeps = {
  db: Database;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  keys: ServerKeys;
  sms: SmsChannel;
  email: EmailChannel;
  publicOrigin: string;
  smsBlockedNumbers: readonly string[];
  smsDailyBudget: number;
  smsDailyBudgetPerNumber: number;
  smsDailyBudgetPerAddress: number;
  /** Told about every revoked session (the realtime layer cuts its sockets). */
  onSessionsRevoked: SessionRevocationListener;
  /** Every node's revocations (docs/decisions/0018 §3). */
  bus: InvalidationBus;
  hooks?: AuthHooks;
  /** Tests only: the argon2 parameters (the default is the production policy). */
  hashPolicy?: PasswordHashPolicy;
  /** Refuses a session to a suspended or banned account (moderation, docs/decisions/0033). */
  signInGate?: (userId: string) => Promise<void>;
};

export type AuthModule = Awaited<ReturnType<typeof createAuthModule>>;

/**
 * The access area's services wired to their repositories. The Google routes build on the same
 * pieces: `users` (find by e-mail, phone or Google subject; create), `sessions.issueSession`,
 * `smsCodes` with the 'google-register' purpose, and `auth.notifyRegistered`.
 */
export async function createAuthModule(deps: AuthModuleDeps) {
  const { db, limiter, clock, logger } = deps;
  const hasher = await createPasswordHasher(deps.hashPolicy);
  const userRepository = createUserRepository(db);
  const users = createUserService({ users: userRepository, hasher, clock });
  const sessions = createSessionService({
    sessions: createSessionRepository(db),
    users: userRepository,
    clock,
    logger,
    tokenKey: deps.keys.token,
    onRevoked: deps.onSessionsRevoked,
    bus: deps.bus,
    signInGate: deps.signInGate,
  });
  const smsCodes = createSmsCodeService({
    codes: createSmsCodeRepository(db),
    sms: deps.sms,
    limiter,
    clock,
    logger,
    codeKey: deps.keys.smsCode,
    blockedNumbers: deps.smsBlockedNumbers,
    dailyBudget: deps.smsDailyBudget,
    dailyBudgetPerNumber: deps.smsDailyBudgetPerNumber,
    dailyBudgetPerAddress: deps.smsDailyBudgetPerAddress,
  });
  // Two-step sign-in and passkeys (docs/decisions/0032): every first step goes through `secondStep`.
  const security = createSecurityRepository(db);
  const twoFactor = createTwoFactorService({
    security,
    users: userRepository,
    hasher,
    limiter,
    clock,
    secretKey: deps.keys.totpSecret,
    hashKey: deps.keys.secondStepHash,
  });
  const secondStep = createSecondStepService({
    security,
    twoFactor,
    users: userRepository,
    sessions,
    smsCodes,
    clock,
    tokenKey: deps.keys.secondStepToken,
    hashKey: deps.keys.secondStepHash,
  });
  const passkeys = createPasskeyService({
    security,
    users: userRepository,
    limiter,
    clock,
    logger,
    publicOrigin: deps.publicOrigin,
  });
  const auth = createAuthService({
    users: userRepository,
    secondStep,
    userService: users,
    sessions,
    smsCodes,
    hasher,
    limiter,
    clock,
    logger,
    hooks: deps.hooks ?? {},
  });
  const passwordReset = createPasswordResetService({
    resets: createPasswordResetRepository(db),
    users: userRepository,
    userService: users,
    sessions,
    email: deps.email,
    hasher,
    limiter,
    clock,
    logger,
    resetKey: deps.keys.resetToken,
    publicOrigin: deps.publicOrigin,
    onPasswordChanged: secondStep.forgetDevices,
  });
  return { users, sessions, smsCodes, auth, passwordReset, hasher, twoFactor, secondStep, passkeys, clock };
}
