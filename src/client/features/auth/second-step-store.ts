import { proxy } from 'valtio';
import type { LoginResponse } from '#shared/auth/auth-schemas';
import type {
  SecondStepChallenge,
  SecondStepMethod,
  SecondStepRequest,
  SignedInResponse,
} from '#shared/security/security-schemas';
import { loginErrorMessage } from './login-store.ts';

export type SecondStepStatus =
  | { status: 'idle' }
  | { status: 'submitting' }
  | { status: 'sending' }
  | { status: 'sent'; message: string }
  | { status: 'error'; message: string };

export type SecondStepState = {
  /** The pending sign-in; null while no second step is asked for. */
  challenge: SecondStepChallenge | null;
  /** Where the session goes once complete (as "Recuérdame" said, or local for Google). */
  area: 'local' | 'session';
  method: SecondStepMethod;
  code: string;
  rememberDevice: boolean;
  status: SecondStepStatus;
};

export type SecondStepDependencies = {
  complete(body: SecondStepRequest): Promise<SignedInResponse>;
  sendSms(pendingToken: string): Promise<{ message: string }>;
  signIn(input: { token: string; user: LoginResponse['user']; area: 'local' | 'session' }): Promise<unknown>;
};

export const CODE_REQUIRED = 'Introduce el código';

/** The second step of a sign-in (docs/decisions/0032): app code, recovery code or SMS code. */
export function createSecondStepStore(deps: SecondStepDependencies) {
  const state = proxy<SecondStepState>({
    challenge: null,
    area: 'session',
    method: 'totp',
    code: '',
    rememberDevice: false,
    status: { status: 'idle' },
  });

  return {
    state,
    start(challenge: SecondStepChallenge, area: 'local' | 'session') {
      Object.assign(state, { challenge, area, method: 'totp', code: '', rememberDevice: false });
      state.status = { status: 'idle' };
    },
    cancel() {
      state.challenge = null;
      state.code = '';
      state.status = { status: 'idle' };
    },
    setMethod(method: SecondStepMethod) {
      state.method = method;
      state.code = '';
      state.status = { status: 'idle' };
    },
    setCode(code: string) {
      state.code = code;
      if (state.status.status === 'error') state.status = { status: 'idle' };
    },
    setRememberDevice(value: boolean) {
      state.rememberDevice = value;
    },
    /** Texts the fallback code and switches to typing it. */
    async sendSms(): Promise<void> {
      if (!state.challenge || state.status.status === 'sending') return;
      state.method = 'sms';
      state.code = '';
      state.status = { status: 'sending' };
      try {
        const answer = await deps.sendSms(state.challenge.pendingToken);
        state.status = { status: 'sent', message: answer.message };
      } catch (error) {
        state.status = { status: 'error', message: loginErrorMessage(error) };
      }
    },
    async submit(): Promise<'signed-in' | 'failed' | 'busy'> {
      const challenge = state.challenge;
      if (!challenge || state.status.status === 'submitting') return 'busy';
      if (state.code.trim() === '') {
        state.status = { status: 'error', message: CODE_REQUIRED };
        return 'failed';
      }
      state.status = { status: 'submitting' };
      try {
        const answer = await deps.complete({
          pendingToken: challenge.pendingToken,
          method: state.method,
          code: state.code.trim(),
          rememberDevice: state.rememberDevice,
        });
        await deps.signIn({ token: answer.token, user: answer.user, area: state.area });
        state.challenge = null;
        state.code = '';
        state.status = { status: 'idle' };
        return 'signed-in';
      } catch (error) {
        state.status = { status: 'error', message: loginErrorMessage(error) };
        return 'failed';
      }
    },
  };
}

export type SecondStepStore = ReturnType<typeof createSecondStepStore>;
