import { proxy } from 'valtio';
import * as v from 'valibot';
import { LoginEmailSchema } from '#shared/auth/auth-schemas';
import { AUTH_SCREEN_TEXTS } from './auth-texts.ts';

/** Spec 000 §2: idle, loading, sent, error. */
export type ForgotPasswordStatus =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'sent'; email: string }
  | { status: 'error'; message: string };

export type ForgotPasswordState = { email: string; emailError: string | undefined; status: ForgotPasswordStatus };

/** The message a failed request shows: a throttling answer explains itself, anything else is §8's text. */
export function forgotPasswordErrorMessage(error: unknown): string {
  const failure = error as { kind?: string; status?: number; message?: string } | null;
  if (failure?.kind === 'http' && failure.status === 429 && failure.message) return failure.message;
  return AUTH_SCREEN_TEXTS.forgotFailed;
}

/** The forgot-password screen's state and its one call. */
export function createForgotPasswordStore(deps: { requestReset(email: string): Promise<unknown> }) {
  const state = proxy<ForgotPasswordState>({ email: '', emailError: undefined, status: { status: 'idle' } });
  return {
    state,
    setEmail(value: string) {
      state.email = value;
      state.emailError = undefined;
      if (state.status.status === 'error') state.status = { status: 'idle' };
    },
    /** Back to the form, keeping the address ("retry if nothing arrives"). */
    retry() {
      state.status = { status: 'idle' };
    },
    async submit(): Promise<ForgotPasswordStatus['status'] | 'invalid'> {
      if (state.status.status === 'loading') return 'loading';
      const parsed = v.safeParse(LoginEmailSchema, state.email);
      if (!parsed.success) {
        state.emailError = parsed.issues[0].message;
        return 'invalid';
      }
      state.status = { status: 'loading' };
      try {
        await deps.requestReset(parsed.output);
        state.status = { status: 'sent', email: parsed.output };
      } catch (error) {
        state.status = { status: 'error', message: forgotPasswordErrorMessage(error) };
      }
      return state.status.status;
    },
  };
}

export type ForgotPasswordStore = ReturnType<typeof createForgotPasswordStore>;
