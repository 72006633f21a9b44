import type { LoginResponse } from '#shared/auth/auth-schemas';
import type { SecondStepChallenge } from '#shared/security/security-schemas';
import type { SignInOutcome } from './second-step-service.ts';

/** The JSON of a first step's outcome: the session (spec 000 §7's shape) or the second step's challenge. */
export function signInAnswer(outcome: SignInOutcome): LoginResponse | SecondStepChallenge {
  if (outcome.kind === 'session') {
    return { success: true, token: outcome.token, user: outcome.user, message: outcome.message };
  }
  return {
    success: true,
    secondStepRequired: true,
    message: outcome.message,
    pendingToken: outcome.pendingToken,
    methods: outcome.methods,
    phoneHint: outcome.phoneHint,
    expiresAt: outcome.expiresAt.toISOString(),
  };
}
