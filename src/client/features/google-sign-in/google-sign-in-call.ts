import * as v from 'valibot';
import type { AuthUser } from '#shared/auth/auth-schemas';
import { type SecondStepChallenge, SecondStepChallengeSchema } from '#shared/security/security-schemas';
import { ApiRequestError, requestJson } from '../../services/http.ts';

/** Spec 000 §9: 20 s per attempt, at most 4 attempts, backoff 1500 ms × 1.5 capped at 4500 ms. */
export const GOOGLE_SIGN_IN_TIMEOUT_MS = 20_000;
export const GOOGLE_SIGN_IN_MAX_ATTEMPTS = 4;
export const GOOGLE_BACKOFF_INITIAL_MS = 1500;
export const GOOGLE_BACKOFF_FACTOR = 1.5;
export const GOOGLE_BACKOFF_MAX_MS = 4500;

/** The "Google service call" texts (spec 000 §8) and the incomplete-answer rule (§5). */
export const GOOGLE_CALL_MESSAGES = {
  connection: 'No se pudo establecer conexión con el servidor. Por favor, intenta de nuevo en unos momentos.',
  server: 'El servidor está teniendo problemas. Por favor, intenta de nuevo en unos momentos.',
  unknown: 'Error desconocido en el login con Google',
  incomplete: 'Respuesta del servidor incompleta',
} as const;

/** POST /auth/google (spec 000 §7, plus `credential`: decision 0004). */
export type GoogleSignInRequest = {
  googleId: string;
  email: string;
  name: string;
  lastName: string;
  picture: string;
  credential: string;
};

export type GoogleSession = { token: string; user: AuthUser };

/** A failed sign-in: the HTTP status and server text when there was an answer; `message` is the service's. */
export class GoogleSignInError extends Error {
  override name = 'GoogleSignInError';
  constructor(
    readonly kind: 'http' | 'network' | 'incomplete',
    message: string,
    readonly status?: number,
    readonly serverMessage?: string,
  ) {
    super(message);
  }
}

/** The wait before retry number `retry` (1-based): 1500, 2250, 3375, then 4500 at most. */
export function googleBackoffMs(retry: number): number {
  return Math.min(GOOGLE_BACKOFF_INITIAL_MS * GOOGLE_BACKOFF_FACTOR ** (retry - 1), GOOGLE_BACKOFF_MAX_MS);
}

export type GoogleSignInCallDeps = {
  post: (body: GoogleSignInRequest) => Promise<{ token?: unknown; user?: unknown }>;
  wait: (ms: number) => Promise<void>;
};

const isRetryable = (error: unknown) =>
  error instanceof ApiRequestError && (error.kind !== 'http' || error.status === 500);

function toSignInError(error: unknown): GoogleSignInError {
  if (error instanceof GoogleSignInError) return error;
  if (error instanceof ApiRequestError) {
    if (error.kind !== 'http') return new GoogleSignInError('network', GOOGLE_CALL_MESSAGES.connection);
    const message = error.status === 500 ? GOOGLE_CALL_MESSAGES.server : GOOGLE_CALL_MESSAGES.unknown;
    return new GoogleSignInError('http', message, error.status, error.message || undefined);
  }
  return new GoogleSignInError('network', GOOGLE_CALL_MESSAGES.unknown);
}

/**
 * Signs in with a Google credential: retries a call that got no answer or a 500, up to 4 attempts
 * with backoff (spec 000 §4, §9), and checks the answer holds a token and a user (§5).
 */
export async function callGoogleSignIn(
  body: GoogleSignInRequest,
  deps: GoogleSignInCallDeps = defaultDeps,
): Promise<GoogleSession | SecondStepChallenge> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await deps.post(body);
      // Two-step is on for the account: no session yet (docs/decisions/0032).
      const challenge = v.safeParse(SecondStepChallengeSchema, response);
      if (challenge.success) return challenge.output;
      const { token, user } = response;
      if (typeof token !== 'string' || token === '' || typeof user !== 'object' || user === null) {
        throw new GoogleSignInError('incomplete', GOOGLE_CALL_MESSAGES.incomplete);
      }
      return { token, user: user as AuthUser };
    } catch (error) {
      if (attempt >= GOOGLE_SIGN_IN_MAX_ATTEMPTS || !isRetryable(error)) throw toSignInError(error);
      await deps.wait(googleBackoffMs(attempt));
    }
  }
}

const defaultDeps: GoogleSignInCallDeps = {
  post: (body) =>
    requestJson<{ token?: unknown; user?: unknown }>('auth/google', {
      method: 'post',
      json: body,
      timeout: GOOGLE_SIGN_IN_TIMEOUT_MS,
    }),
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
