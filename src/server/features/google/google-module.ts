import type { FastifyInstance } from 'fastify';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import type { Logger } from '../../logger.ts';
import type { GoogleAuthServiceDeps } from './google-auth-service.ts';
import { googleAuthRoutes } from './google-auth-routes.ts';
import { createGoogleAuthService } from './google-auth-service.ts';
import type { GoogleConfig } from './google-config.ts';
import { googleConfigRoutes } from './google-config-routes.ts';
import { createGoogleSignIn } from './google-sign-in.ts';
import { googleStandInRoutes } from './google-stand-in-routes.ts';

export type GoogleModule = {
  /** `/api/google/config`, `/api/auth/google*`, and the local stand-in issuer outside production. */
  register(http: FastifyInstance): Promise<void>;
};

/**
 * Google sign-in (QUALITY 6, docs/decisions/0004), built on the access area's services; config.ts
 * has already checked the settings.
 */
export async function createGoogleModule(deps: {
  config: GoogleConfig;
  isProduction: boolean;
  auth: Pick<GoogleAuthServiceDeps, 'users' | 'sessions' | 'gate' | 'secondStep' | 'smsCodes' | 'notifyRegistered'>;
  limiter: RateLimiter;
  logger: Logger;
}): Promise<GoogleModule> {
  const google = await createGoogleSignIn(deps.config);
  const googleAuth = createGoogleAuthService({
    ...deps.auth,
    verifier: google.verifier,
    limiter: deps.limiter,
    logger: deps.logger,
  });
  return {
    async register(http) {
      await http.register(
        async (api) => {
          await api.register(googleConfigRoutes, { google: google.config });
          await api.register(googleAuthRoutes, { prefix: '/auth', googleAuth });
          if (google.standIn && !deps.isProduction) {
            await api.register(googleStandInRoutes, { prefix: '/dev/google', standIn: google.standIn });
          }
        },
        { prefix: '/api' },
      );
    },
  };
}
