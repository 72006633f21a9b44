import { proxy } from 'valtio';
import * as v from 'valibot';
import {
  type LoginRequest,
  type LoginResponse,
  LoginEmailSchema,
  LoginPasswordSchema,
} from '#shared/auth/auth-schemas';
import type { RestrictedAccount } from '#shared/moderation/moderation-schemas';
import type { SecondStepChallenge } from '#shared/security/security-schemas';
import { TOKEN_MISSING } from './auth-api.ts';
import { AUTH_SCREEN_TEXTS } from './auth-texts.ts';

export type LoginField = 'email' | 'password';

export type LoginStatus =
  | { status: 'idle' }
  | { status: 'submitting' }
  | {
      status: 'error';
      message: string;
      /** A suspended or banned account: what the server said about it (403 ACCOUNT_RESTRICTED). */
      restriction?: RestrictedAccount;
    };

export type LoginState = {
  email: string;
  password: string;
  rememberMe: boolean;
  errors: Partial<Record<LoginField, string>>;
  status: LoginStatus;
};

export type SubmitOutcome =
  | { outcome: 'signed-in' }
  | { outcome: 'second-step' }
  /** The answer had no token (spec 000 §7): the screen goes to /login?error=token_missing. */
  | { outcome: 'token-missing' }
  | { outcome: 'invalid'; firstInvalid: LoginField }
  | { outcome: 'failed'; message: string }
  | { outcome: 'busy' };

/** What the login store needs from the outside world; the screen passes the real services. */
export type LoginDependencies = {
  readLocation(): Promise<{ latitude: number; longitude: number }>;
  login(body: LoginRequest): Promise<LoginResponse | SecondStepChallenge>;
  /** Two-step is on: the second step's form takes over (docs/decisions/0032). */
  onSecondStep?(challenge: SecondStepChallenge, area: 'local' | 'session'): void;
  /** Stores the session: local storage with "Recuérdame", session storage otherwise. */
  signIn(input: { token: string; user: LoginResponse['user']; area: 'local' | 'session' }): Promise<unknown>;
};

/** The message a failed call shows: the server's own text, or the spec's defaults (000 §8). */
export function loginErrorMessage(error: unknown): string {
  const failure = error as { kind?: string; message?: string } | null;
  if (failure?.kind === 'network' || failure?.kind === 'timeout') return AUTH_SCREEN_TEXTS.connectionError;
  if (failure?.kind === 'http' && failure.message) return failure.message;
  return AUTH_SCREEN_TEXTS.loginDefaultError;
}

/** The first problem of a field by the rules of spec 000 §5, or undefined. */
export function loginFieldError(field: LoginField, value: string): string | undefined {
  const schema = field === 'email' ? LoginEmailSchema : LoginPasswordSchema;
  const result = v.safeParse(schema, value);
  return result.success ? undefined : result.issues[0].message;
}

/** The login form (spec 000 §2, §5): fields, their checks, "Recuérdame" and the submission. */
export function createLoginStore(deps: LoginDependencies) {
  const state = proxy<LoginState>({
    email: '',
    password: '',
    rememberMe: false,
    errors: {},
    status: { status: 'idle' },
  });

  // Typing clears that field's error and the server's message (spec 000 §5).
  const edit = (field: LoginField, value: string) => {
    state[field] = value;
    if (state.errors[field] !== undefined) delete state.errors[field];
    if (state.status.status === 'error') state.status = { status: 'idle' };
  };

  return {
    state,
    setEmail: (value: string) => edit('email', value),
    setPassword: (value: string) => edit('password', value),
    setRememberMe(value: boolean) {
      state.rememberMe = value;
    },
    /** On leaving a field that holds something: shows its problem early. */
    checkField(field: LoginField) {
      if (state[field] === '') return;
      const error = loginFieldError(field, state[field]);
      if (error) state.errors[field] = error;
    },
    hasErrors(): boolean {
      return Object.values(state.errors).some((error) => error !== undefined);
    },
    async submit(): Promise<SubmitOutcome> {
      if (state.status.status === 'submitting') return { outcome: 'busy' };
      const errors: Partial<Record<LoginField, string>> = {};
      for (const field of ['email', 'password'] as const) {
        const error = loginFieldError(field, state[field]);
        if (error) errors[field] = error;
      }
      state.errors = errors;
      const firstInvalid = (['email', 'password'] as const).find((field) => errors[field] !== undefined);
      if (firstInvalid) return { outcome: 'invalid', firstInvalid };

      state.status = { status: 'submitting' };
      try {
        const location = await deps.readLocation();
        const answer = await deps.login({
          email: state.email.trim(),
          password: state.password,
          rememberMe: state.rememberMe,
          latitude: location.latitude,
          longitude: location.longitude,
        });
        const area = state.rememberMe ? 'local' : 'session';
        if ('secondStepRequired' in answer) {
          state.password = '';
          state.status = { status: 'idle' };
          deps.onSecondStep?.(answer, area);
          return { outcome: 'second-step' };
        }
        await deps.signIn({ token: answer.token, user: answer.user, area });
        state.password = '';
        state.status = { status: 'idle' };
        return { outcome: 'signed-in' };
      } catch (error) {
        if ((error as { errorType?: string } | null)?.errorType === TOKEN_MISSING) {
          state.password = '';
          state.status = { status: 'idle' };
          return { outcome: 'token-missing' };
        }
        const message = loginErrorMessage(error);
        const failure = error as { errorType?: string; body?: { restriction?: RestrictedAccount } } | null;
        const restriction = failure?.errorType === 'ACCOUNT_RESTRICTED' ? failure.body?.restriction : undefined;
        state.status = restriction ? { status: 'error', message, restriction } : { status: 'error', message };
        return { outcome: 'failed', message };
      }
    },
  };
}

export type LoginStore = ReturnType<typeof createLoginStore>;
