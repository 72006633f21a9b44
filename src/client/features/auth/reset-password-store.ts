import { proxy } from 'valtio';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import { passwordProblems } from '#shared/auth/password';
import { AUTH_SCREEN_TEXTS } from './auth-texts.ts';

/** Spec 000 §4, "Reset link": loading, valid, expired, success. */
export type ResetLinkStatus = 'loading' | 'valid' | 'expired' | 'success';

export type ResendStatus = { status: 'idle' } | { status: 'sending' } | { status: 'sent' } | { status: 'error' };

export type ResetPasswordState = {
  link: ResetLinkStatus;
  /** Why the link is unusable, shown on the expired screen. */
  expiredMessage: string;
  password: string;
  confirmation: string;
  /** A rule the new password breaks, or the server's refusal. */
  formError: string | undefined;
  isSubmitting: boolean;
  resend: ResendStatus;
};

export type ResetPasswordDependencies = {
  validateLink(token: string, email: string): Promise<boolean>;
  resetPassword(body: { token: string; email: string; newPassword: string }): Promise<unknown>;
  requestReset(email: string): Promise<unknown>;
};

/** How a refused reset reads (spec 000 §8); `expired` sends the screen to its expired state. */
export function resetErrorOutcome(error: unknown): { isExpired: boolean; message: string } {
  const failure = error as { kind?: string; message?: string; errorType?: string } | null;
  const message = failure?.kind === 'http' ? (failure.message ?? '') : '';
  if (message.includes('expirado') || failure?.errorType === 'RESET_LINK_EXPIRED') {
    return { isExpired: true, message: AUTH_MESSAGES.resetLinkExpired };
  }
  if (failure?.errorType === 'RESET_LINK_INVALID') return { isExpired: true, message: AUTH_MESSAGES.resetLinkInvalid };
  if (message.includes('diferente a la actual'))
    return { isExpired: false, message: AUTH_MESSAGES.passwordSameAsCurrent };
  if (failure?.kind === 'network' || failure?.kind === 'timeout') {
    return { isExpired: false, message: AUTH_SCREEN_TEXTS.connectionError };
  }
  return { isExpired: false, message: message || AUTH_SCREEN_TEXTS.resetDefaultError };
}

/** True when the form may be sent: both fields filled and equal (spec 000 §2). */
export function canSubmitReset(state: Pick<ResetPasswordState, 'password' | 'confirmation' | 'isSubmitting'>): boolean {
  return !state.isSubmitting && state.password !== '' && state.password === state.confirmation;
}

/** The reset screen for one link (token and e-mail from its address). */
export function createResetPasswordStore(
  link: { token: string | undefined; email: string | undefined },
  deps: ResetPasswordDependencies,
) {
  const state = proxy<ResetPasswordState>({
    link: 'loading',
    expiredMessage: AUTH_MESSAGES.resetLinkInvalid,
    password: '',
    confirmation: '',
    formError: undefined,
    isSubmitting: false,
    resend: { status: 'idle' },
  });

  const expire = (message: string) => {
    state.expiredMessage = message;
    state.link = 'expired';
  };

  return {
    state,
    /** Validates the link; a missing token or e-mail, a refusal or any error means expired. */
    async validate(): Promise<ResetLinkStatus> {
      if (!link.token || !link.email) {
        expire(AUTH_MESSAGES.resetLinkInvalid);
        return state.link;
      }
      try {
        const isValid = await deps.validateLink(link.token, link.email);
        if (isValid) state.link = 'valid';
        else expire(AUTH_MESSAGES.resetLinkInvalid);
      } catch {
        expire(AUTH_MESSAGES.resetLinkInvalid);
      }
      return state.link;
    },
    setPassword(value: string) {
      state.password = value;
      state.formError = undefined;
    },
    setConfirmation(value: string) {
      state.confirmation = value;
      state.formError = undefined;
    },
    async submit(): Promise<ResetLinkStatus | 'invalid'> {
      if (!canSubmitReset(state) || !link.token || !link.email) return 'invalid';
      const [problem] = passwordProblems(state.password);
      if (problem) {
        state.formError = problem.message;
        return 'invalid';
      }
      state.isSubmitting = true;
      try {
        await deps.resetPassword({ token: link.token, email: link.email, newPassword: state.password });
        state.password = '';
        state.confirmation = '';
        state.link = 'success';
      } catch (error) {
        const outcome = resetErrorOutcome(error);
        if (outcome.isExpired) expire(outcome.message);
        else state.formError = outcome.message;
      } finally {
        state.isSubmitting = false;
      }
      return state.link;
    },
    /** "Solicitar nuevo enlace": a new e-mail for the same address. */
    async resend(): Promise<ResendStatus['status']> {
      if (!link.email || state.resend.status === 'sending') return state.resend.status;
      state.resend = { status: 'sending' };
      try {
        await deps.requestReset(link.email);
        state.resend = { status: 'sent' };
      } catch {
        state.resend = { status: 'error' };
      }
      return state.resend.status;
    },
  };
}

export type ResetPasswordStore = ReturnType<typeof createResetPasswordStore>;
