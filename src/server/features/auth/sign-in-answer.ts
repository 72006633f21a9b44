import type { AuthUser, LoginResponse } from '#shared/auth/auth-schemas';
import type { SecondStepChallenge, SecondStepMethod } from '#shared/security/security-schemas';

export type SessionAnswer = { token: string; user: AuthUser; message: string };

/** What a first step (password, phone and password, Google) leads to. */
export type SignInOutcome =
  | ({ kind: 'session' } & SessionAnswer)
  | {
      kind: 'second-step';
      pendingToken: string;
      methods: SecondStepMethod[];
      phoneHint: string | null;
      expiresAt: Date;
      message: string;
    };

/**
 * Where every first step ends (docs/decisions/0032): the security feature's second step, which
 * opens the session or answers its challenge, and forgets remembered devices when a password
 * changes. The access area asks for it; `security/second-step-service.ts` implements it.
 */
export type SecondStep = {
  finishFirstStep(
    userId: string,
    options: { rememberMe: boolean; deviceToken?: string | undefined; message?: string },
  ): Promise<SignInOutcome>;
  forgetDevices(userId: string): Promise<void>;
};

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
