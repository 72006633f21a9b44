import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../infra/clock.ts';
import type { Database } from '../../db/client.ts';
import type { EmailChannel } from '../../delivery/email-channel.ts';
import type { SmsChannel } from '../../delivery/sms-channel.ts';
import type { Logger } from '../../logger.ts';
import type { InvalidationBus } from '../../infra/invalidation-bus.ts';
import { periodicPass } from '../../infra/periodic-pass.ts';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import type { ServerKeys } from '../../secrets.ts';
import { type AccountGateDeps, createAccountGate } from './account-gate.ts';
import { type AuthHooks, createAuthService } from './auth-service.ts';
import { authRoutes } from './auth-routes.ts';
import { createPasswordHasher, type PasswordHashPolicy } from './password-hasher.ts';
import { createPasswordResetRepository } from './password-reset-repository.ts';
import { createPasswordResetService } from './password-reset-service.ts';
import { createSessionRepository } from './session-repository.ts';
import { createSessionService, type SessionRevocationListener } from './session-service.ts';
import type { SecondStep } from './sign-in-answer.ts';
import { createSmsCodeRepository } from './sms-code-repository.ts';
import { createSmsCodeService } from './sms-code-service.ts';
import { createUserRepository } from './user-repository.ts';
import { createUserService } from './user-service.ts';

/** How often the sessions in use are read again ahead of their cache entries' end. */
const SESSION_REFRESH_EVERY_MS = 5_000;

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
  /** Suspensions and bans (moderation, docs/decisions/0033), asked by the account-state gate (0043). */
  restrictions: Pick<AccountGateDeps, 'assertNotRestricted' | 'isRestricted'>;
  /**
   * The security feature's second step (docs/decisions/0032), where every first step ends, and
   * whether an account has it on (asked by the gate). Late-bound: it is built on this module's
   * sessions, so app.ts passes functions that reach it once everything is built.
   */
  secondStep: SecondStep & Pick<AccountGateDeps, 'isSecondStepOn'>;
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
  // One account-state question for every way in (docs/decisions/0043).
  const gate = createAccountGate({
    users: userRepository,
    isSecondStepOn: deps.secondStep.isSecondStepOn,
    assertNotRestricted: deps.restrictions.assertNotRestricted,
    isRestricted: deps.restrictions.isRestricted,
  });
  const sessions = createSessionService({
    sessions: createSessionRepository(db),
    clock,
    logger,
    tokenKey: deps.keys.token,
    onRevoked: deps.onSessionsRevoked,
    bus: deps.bus,
    gate,
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
  const auth = createAuthService({
    users: userRepository,
    secondStep: deps.secondStep,
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
    onPasswordChanged: deps.secondStep.forgetDevices,
  });
  const sessionRefresh = periodicPass(
    () => sessions.refreshCached(),
    SESSION_REFRESH_EVERY_MS,
    (error) => logger.warn({ err: error }, 'auth: session refresh failed'),
  );
  return {
    users,
    sessions,
    smsCodes,
    auth,
    passwordReset,
    userRepository,
    hasher,
    gate,
    clock,
    /** Keeps the sessions in use cached (`refreshCached`), every SESSION_REFRESH_EVERY_MS. */
    start: sessionRefresh.start,
    close: sessionRefresh.close,
    /** `/api/auth/*` (Google's and the second step's are their features' own). */
    async register(http: FastifyInstance) {
      await http.register(authRoutes, { prefix: '/api/auth', auth: { auth, smsCodes, passwordReset } });
    },
  };
}
