import type { FastifyInstance } from 'fastify';
import type { LoginResponse, MessageResponse } from '#shared/auth/auth-schemas';
import { SECURITY_MESSAGES } from '#shared/security/security-messages';
import {
  PasskeyRegisterRequestSchema,
  PasskeySignInRequestSchema,
  type PasskeyAddedResponse,
  type PasskeyOptionsResponse,
  RecoveryCodesRenewRequestSchema,
  type RecoveryCodesResponse,
  SecondStepRequestSchema,
  SecondStepSmsRequestSchema,
  type SecurityStatusResponse,
  TwoFactorDisableRequestSchema,
  TwoFactorEnableRequestSchema,
  type TwoFactorSetupResponse,
} from '#shared/security/security-schemas';
import * as v from 'valibot';
import { requireAuth } from '../../plugins/auth.ts';
import { parseInput } from '../../validation.ts';
import type { Clock } from '../../infra/clock.ts';
import { type SessionService, setDeviceCookie } from '../auth/index.ts';
import type { PasskeyService } from './passkey-service.ts';
import type { SecondStepService } from './second-step-service.ts';
import type { TwoFactorService } from './two-factor-service.ts';

const PasskeyIdParamsSchema = v.strictObject({ id: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)) });

/**
 * The second step and passkey sign-in (under /api/auth, no session yet), and Seguridad's own
 * calls (under /api/security, signed in). docs/decisions/0032.
 */
export async function secondStepRoutes(
  app: FastifyInstance,
  options: {
    auth: { secondStep: SecondStepService; passkeys: PasskeyService; sessions: SessionService; clock: Clock };
    isSecure: boolean;
  },
) {
  const { secondStep, passkeys, sessions, clock } = options.auth;

  app.post('/second-step', async (request, reply): Promise<LoginResponse> => {
    const input = parseInput(SecondStepRequestSchema, request.body);
    const { device, ...session } = await secondStep.complete(input, request.ip);
    if (device) setDeviceCookie(reply, device, { isSecure: options.isSecure, now: clock.now() });
    return { success: true, ...session };
  });

  app.post('/second-step/send-sms', async (request): Promise<MessageResponse> => {
    const { pendingToken } = parseInput(SecondStepSmsRequestSchema, request.body);
    await secondStep.sendSms(pendingToken, request.ip);
    return { success: true, message: SECURITY_MESSAGES.smsSent };
  });

  app.post('/passkey/options', async (request): Promise<PasskeyOptionsResponse> => {
    return { success: true, ...(await passkeys.authenticationOptions(request.ip)) };
  });

  // A passkey with the user verified is both factors: the session opens without a second step.
  app.post('/passkey', async (request): Promise<LoginResponse> => {
    const input = parseInput(PasskeySignInRequestSchema, request.body);
    const userId = await passkeys.authenticate(input, request.ip);
    const session = await sessions.issueSession(userId, { rememberMe: input.rememberMe, secondFactor: 'passkey' });
    return { success: true, ...session, message: SECURITY_MESSAGES.passkeySignedIn };
  });
}

export async function securityRoutes(
  app: FastifyInstance,
  options: { auth: { twoFactor: TwoFactorService; passkeys: PasskeyService } },
) {
  const { twoFactor, passkeys } = options.auth;

  app.get('/', { preHandler: app.authenticate }, async (request): Promise<SecurityStatusResponse> => {
    const { userId } = requireAuth(request);
    const [status, list] = await Promise.all([twoFactor.status(userId), passkeys.list(userId)]);
    return { success: true, twoFactor: status, passkeys: list };
  });

  app.post('/two-factor/setup', { preHandler: app.authenticate }, async (request): Promise<TwoFactorSetupResponse> => {
    return { success: true, ...(await twoFactor.startSetup(requireAuth(request).userId)) };
  });

  app.post('/two-factor/enable', { preHandler: app.authenticate }, async (request): Promise<RecoveryCodesResponse> => {
    const { code } = parseInput(TwoFactorEnableRequestSchema, request.body);
    const recoveryCodes = await twoFactor.enable(requireAuth(request).userId, code, request.ip);
    return { success: true, message: SECURITY_MESSAGES.enabled, recoveryCodes };
  });

  app.post('/two-factor/disable', { preHandler: app.authenticate }, async (request): Promise<MessageResponse> => {
    const input = parseInput(TwoFactorDisableRequestSchema, request.body);
    await twoFactor.disable(requireAuth(request).userId, input, request.ip);
    return { success: true, message: SECURITY_MESSAGES.disabled };
  });

  app.post(
    '/two-factor/recovery-codes',
    { preHandler: app.authenticate },
    async (request): Promise<RecoveryCodesResponse> => {
      const { code } = parseInput(RecoveryCodesRenewRequestSchema, request.body);
      const recoveryCodes = await twoFactor.renewRecoveryCodes(requireAuth(request).userId, code, request.ip);
      return { success: true, message: SECURITY_MESSAGES.recoveryCodesRenewed, recoveryCodes };
    },
  );

  app.post('/passkeys/options', { preHandler: app.authenticate }, async (request): Promise<PasskeyOptionsResponse> => {
    return { success: true, ...(await passkeys.registrationOptions(requireAuth(request).userId, request.ip)) };
  });

  app.post('/passkeys', { preHandler: app.authenticate }, async (request, reply): Promise<PasskeyAddedResponse> => {
    const input = parseInput(PasskeyRegisterRequestSchema, request.body);
    const passkey = await passkeys.register(requireAuth(request).userId, input, request.ip);
    reply.status(201);
    return { success: true, message: SECURITY_MESSAGES.passkeyAdded, passkey };
  });

  app.delete('/passkeys/:id', { preHandler: app.authenticate }, async (request): Promise<MessageResponse> => {
    const { id } = parseInput(PasskeyIdParamsSchema, request.params);
    await passkeys.remove(requireAuth(request).userId, id);
    return { success: true, message: SECURITY_MESSAGES.passkeyRemoved };
  });
}
