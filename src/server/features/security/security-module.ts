import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../infra/clock.ts';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import type { Logger } from '../../logger.ts';
import type { ServerKeys } from '../../secrets.ts';
import type { AccountGate, PasswordHasher, SessionService, SmsCodeService, UserRepository } from '../auth/index.ts';
import { createPasskeyService } from './passkey-service.ts';
import { createSecondStepService } from './second-step-service.ts';
import { createSecurityRepository } from './security-repository.ts';
import { secondStepRoutes, securityRoutes } from './security-routes.ts';
import { createTwoFactorService } from './two-factor-service.ts';

export type SecurityModuleDeps = {
  db: Database;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  keys: Pick<ServerKeys, 'totpSecret' | 'secondStepHash' | 'secondStepToken'>;
  publicOrigin: string;
  /** The access area's pieces a second step builds on: the account, the session, the SMS code. */
  auth: {
    users: UserRepository;
    hasher: PasswordHasher;
    sessions: SessionService;
    smsCodes: SmsCodeService;
    gate: Pick<AccountGate, 'assertMaySignIn'>;
  };
};

export type SecurityModule = ReturnType<typeof createSecurityModule>;

/**
 * Two-step sign-in and passkeys (docs/decisions/0032): the second step and passkey sign-in under
 * /api/auth, Seguridad's calls under /api/security. Every first step of the access area ends in
 * `secondStep.finishFirstStep` (app.ts hands it to auth late-bound: the second step needs auth's
 * sessions, and auth's first steps need the second step).
 */
export function createSecurityModule(deps: SecurityModuleDeps) {
  const { db, limiter, clock, logger, keys, auth } = deps;
  const security = createSecurityRepository(db);
  const twoFactor = createTwoFactorService({
    security,
    users: auth.users,
    hasher: auth.hasher,
    limiter,
    clock,
    secretKey: keys.totpSecret,
    hashKey: keys.secondStepHash,
  });
  const secondStep = createSecondStepService({
    security,
    twoFactor,
    sessions: auth.sessions,
    smsCodes: auth.smsCodes,
    gate: auth.gate,
    clock,
    tokenKey: keys.secondStepToken,
    hashKey: keys.secondStepHash,
  });
  const passkeys = createPasskeyService({
    security,
    users: auth.users,
    limiter,
    clock,
    logger,
    publicOrigin: deps.publicOrigin,
  });
  const services = { secondStep, passkeys, twoFactor, sessions: auth.sessions, clock };
  return {
    twoFactor,
    secondStep,
    passkeys,
    /** Whether the account has two-step on (the account-state gate asks, docs/decisions/0043). */
    isSecondStepOn: async (userId: string) => (await security.findTwoFactor(userId))?.enabledAt != null,
    /** `/api/auth/second-step*`, `/api/auth/passkey*` and `/api/security/*`; the device cookie is `Secure` on https. */
    async register(http: FastifyInstance, options: { isSecure: boolean }) {
      await http.register(
        async (api) => {
          await api.register(secondStepRoutes, { prefix: '/auth', auth: services, isSecure: options.isSecure });
          await api.register(securityRoutes, { prefix: '/security', auth: services });
        },
        { prefix: '/api' },
      );
    },
  };
}
