import type { FastifyInstance } from 'fastify';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import {
  type CheckEmailResponse,
  CheckEmailRequestSchema,
  CompleteRegistrationRequestSchema,
  type ForgotPasswordResponse,
  ForgotPasswordRequestSchema,
  type LoginResponse,
  LoginRequestSchema,
  type LogoutResponse,
  type RegisterResponse,
  RegisterRequestSchema,
  type ResetPasswordResponse,
  ResetPasswordRequestSchema,
  type SendCodeResponse,
  SendCodeRequestSchema,
  type UpdateStreakResponse,
  UpdateStreakRequestSchema,
  type ValidateResetTokenResponse,
  ValidateResetTokenRequestSchema,
  type ValidateSessionResponse,
  type VerifyCodeResponse,
  VerifyCodeRequestSchema,
} from '#shared/auth/auth-schemas';
import type { SecondStepChallenge } from '#shared/security/security-schemas';
import { requireAuth } from '../../plugins/auth.ts';
import { readDeviceCookie } from './device-cookie.ts';
import { signInAnswer } from './sign-in-answer.ts';
import { parseInput } from '../../validation.ts';
import type { AuthService } from './auth-service.ts';
import type { PasswordResetService } from './password-reset-service.ts';
import type { SmsCodeService } from './sms-code-service.ts';

/** The access area's calls (spec 000 §7), mounted at /api/auth. Google's are wired apart. */
export async function authRoutes(
  app: FastifyInstance,
  options: { auth: { auth: AuthService; smsCodes: SmsCodeService; passwordReset: PasswordResetService } },
) {
  const { auth, smsCodes, passwordReset } = options.auth;

  app.post('/check-email', async (request): Promise<CheckEmailResponse> => {
    const { email } = parseInput(CheckEmailRequestSchema, request.body);
    return { success: true, data: await auth.checkEmail(email, request.ip) };
  });

  app.post('/send-code', async (request): Promise<SendCodeResponse> => {
    const { phone } = parseInput(SendCodeRequestSchema, request.body, { errorType: 'INVALID_PHONE' });
    await smsCodes.sendCode({ phone, purpose: 'register', ip: request.ip });
    return { success: true, message: AUTH_MESSAGES.codeSent };
  });

  app.post('/verify-code', async (request): Promise<VerifyCodeResponse> => {
    const { phone, code } = parseInput(VerifyCodeRequestSchema, request.body);
    await smsCodes.verifyCode({ phone, code, purpose: 'register', ip: request.ip });
    return { success: true, message: AUTH_MESSAGES.phoneVerified };
  });

  app.post('/register', async (request, reply): Promise<RegisterResponse> => {
    const input = parseInput(RegisterRequestSchema, request.body);
    const user = await auth.register(input, request.ip);
    reply.status(201);
    return { success: true, message: AUTH_MESSAGES.registered, data: user };
  });

  app.post('/complete-registration', async (request): Promise<LoginResponse | SecondStepChallenge> => {
    const input = parseInput(CompleteRegistrationRequestSchema, request.body);
    return signInAnswer(await auth.loginWithPhone(input, request.ip, readDeviceCookie(request)));
  });

  app.post('/login', async (request): Promise<LoginResponse | SecondStepChallenge> => {
    const input = parseInput(LoginRequestSchema, request.body);
    return signInAnswer(await auth.login(input, request.ip, readDeviceCookie(request)));
  });

  app.get('/validate-session', { preHandler: app.authenticate }, async (request): Promise<ValidateSessionResponse> => {
    return { success: true, user: await auth.currentUser(requireAuth(request)) };
  });

  app.post('/logout', { preHandler: app.authenticate }, async (request): Promise<LogoutResponse> => {
    await auth.logout(requireAuth(request));
    return { success: true, message: AUTH_MESSAGES.loggedOut };
  });

  app.post('/update-streak', { preHandler: app.authenticate }, async (request): Promise<UpdateStreakResponse> => {
    const { userId } = parseInput(UpdateStreakRequestSchema, request.body);
    const streak = await auth.updateStreak(requireAuth(request), userId);
    return { success: true, message: AUTH_MESSAGES.streakUpdated, ...streak };
  });

  app.post('/forgot-password', async (request): Promise<ForgotPasswordResponse> => {
    const { email } = parseInput(ForgotPasswordRequestSchema, request.body);
    await passwordReset.requestReset(email, request.ip);
    return { success: true, message: AUTH_MESSAGES.forgotPasswordAccepted };
  });

  app.post('/validate-reset-token', async (request): Promise<ValidateResetTokenResponse> => {
    const { token, email } = parseInput(ValidateResetTokenRequestSchema, request.body);
    return { success: true, valid: await passwordReset.validateLink(token, email, request.ip) };
  });

  app.post('/reset-password', async (request): Promise<ResetPasswordResponse> => {
    const input = parseInput(ResetPasswordRequestSchema, request.body);
    await passwordReset.resetPassword(input, request.ip);
    return { success: true, message: AUTH_MESSAGES.passwordUpdated };
  });
}
