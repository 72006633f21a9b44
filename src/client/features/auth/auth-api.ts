/** The access area's calls used by this feature (spec 000 §7), typed with the shared schemas. */
import * as v from 'valibot';
import {
  type ForgotPasswordResponse,
  type LoginRequest,
  type LoginResponse,
  LoginResponseSchema,
  type ResetPasswordRequest,
  type ResetPasswordResponse,
  type ValidateResetTokenResponse,
} from '#shared/auth/auth-schemas';
import { type Health, HealthSchema } from '#shared/api';
import { type SecondStepChallenge, SecondStepChallengeSchema } from '#shared/security/security-schemas';
import { ApiRequestError, requestJson } from '../../services/http.ts';

/** The server's mode (GET /health), for the login preview's badge; null when it cannot be read. */
export async function serverMode(): Promise<Health['mode'] | null> {
  try {
    const health = v.parse(HealthSchema, await requestJson<unknown>('health'));
    return health.mode;
  } catch {
    return null;
  }
}

/** Spec 000 §5: an answer without token and user is unusable. */
export const INCOMPLETE_RESPONSE_MESSAGE = 'Respuesta del servidor incompleta';

/**
 * POST /auth/login: the session, or the second step it still needs (docs/decisions/0032); throws
 * ApiRequestError (an incomplete answer becomes one too).
 */
export async function login(body: LoginRequest): Promise<LoginResponse | SecondStepChallenge> {
  const answer = await requestJson<unknown>('auth/login', { method: 'post', json: body });
  const challenge = v.safeParse(SecondStepChallengeSchema, answer);
  if (challenge.success) return challenge.output;
  // Spec 000 §7: "A missing token on login redirects to /login?error=token_missing".
  const token = (answer as { token?: unknown } | null)?.token;
  if (typeof token !== 'string' || token === '') {
    throw new ApiRequestError('http', INCOMPLETE_RESPONSE_MESSAGE, 200, TOKEN_MISSING);
  }
  const parsed = v.safeParse(LoginResponseSchema, answer);
  if (!parsed.success) throw new ApiRequestError('http', INCOMPLETE_RESPONSE_MESSAGE, 200);
  return parsed.output;
}

/** The errorType of a login answer that came without a token (the screen goes to /login?error=token_missing). */
export const TOKEN_MISSING = 'TOKEN_MISSING';

/** POST /auth/forgot-password: the same answer whether or not the account exists (QUALITY 2). */
export function requestPasswordReset(email: string): Promise<ForgotPasswordResponse> {
  return requestJson<ForgotPasswordResponse>('auth/forgot-password', { method: 'post', json: { email } });
}

/** POST /auth/validate-reset-token: true only when the server says the link is valid. */
export async function validateResetToken(token: string, email: string): Promise<boolean> {
  const answer = await requestJson<ValidateResetTokenResponse>('auth/validate-reset-token', {
    method: 'post',
    json: { token, email },
  });
  return answer?.valid === true;
}

/** POST /auth/reset-password. */
export function resetPassword(body: ResetPasswordRequest): Promise<ResetPasswordResponse> {
  return requestJson<ResetPasswordResponse>('auth/reset-password', { method: 'post', json: body });
}
