import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import {
  type GoogleLoginResponse,
  GoogleLoginRequestSchema,
  type GoogleSendCodeResponse,
  GoogleSendCodeRequestSchema,
  type GoogleVerifyCodeResponse,
  GoogleVerifyCodeRequestSchema,
  PhoneSchema,
} from '#shared/auth/auth-schemas';
import type { SecondStepChallenge } from '#shared/security/security-schemas';
import { parseInput } from '../../validation.ts';
import { readDeviceCookie, signInAnswer } from '../auth/index.ts';
import type { GoogleAuthService } from './google-auth-service.ts';

/** A body whose phone is fine: its other problems are VALIDATION, a bad phone is INVALID_PHONE as at send-code. */
const HasValidPhoneSchema = v.looseObject({ phone: PhoneSchema });

/**
 * Google sign-in and registration (spec 000 §7), mounted at /api/auth. No token needed; each call
 * carries the Google `credential` (docs/decisions/0004).
 */
export async function googleAuthRoutes(app: FastifyInstance, options: { googleAuth: GoogleAuthService }) {
  const { googleAuth } = options;

  app.post('/google', async (request): Promise<GoogleLoginResponse | SecondStepChallenge> => {
    const { credential } = parseInput(GoogleLoginRequestSchema, request.body);
    return signInAnswer(await googleAuth.signIn({ credential }, request.ip, readDeviceCookie(request)));
  });

  app.post('/google/send-code', async (request): Promise<GoogleSendCodeResponse> => {
    const { phone, credential } = parseInput(GoogleSendCodeRequestSchema, request.body, {
      errorType: v.is(HasValidPhoneSchema, request.body) ? 'VALIDATION' : 'INVALID_PHONE',
    });
    await googleAuth.sendCode({ phone, credential }, request.ip);
    return { success: true, message: AUTH_MESSAGES.codeSent };
  });

  app.post('/google/verify-code', async (request): Promise<GoogleVerifyCodeResponse> => {
    const input = parseInput(GoogleVerifyCodeRequestSchema, request.body);
    return { success: true, ...(await googleAuth.register(input, request.ip)) };
  });
}
