import { SMS_LIMIT_LOCK_S, SMS_RESEND_COOLDOWN_S } from '#shared/auth/auth-constants';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import type { AuthUser } from '#shared/auth/auth-schemas';
import { phoneFieldMessage, readPhoneField } from '#shared/auth/phone';
import { proxy } from 'valtio';
import { signIn } from '../../services/session.ts';
import { type TokenStorage, tokenStorage } from '../../services/token-storage.ts';
import { codeValue, emptyCode, isCodeComplete } from './code-input-logic.ts';
import { formatMinutesAndSeconds } from './countdown.ts';
import type { GoogleRegistrationData } from './google-registration-data.ts';
import { keepPhoneCharacters, validPhoneDigits } from './phone-field.ts';
import { type RegistrationApi, readSession, registrationApi, toCallFailure, toE164 } from './registration-api.ts';
import { type CallFailure, classifySendCodeFailure, SEND_CODE_MESSAGES } from './send-code-errors.ts';

/** The Google registration texts (spec 000 §8). */
export const GOOGLE_REGISTRATION_MESSAGES = {
  accountExists:
    'Se ha encontrado una cuenta asociada a este correo de Google. Por favor, inicia sesión o usa otro correo.',
  emailCheckFailed: 'Error al verificar el email. Por favor, intenta de nuevo.',
  /** §8 "Defaults when the server gives no message": the check answered, but said nothing. */
  emailCheckDefault: 'Error al verificar el email',
  invalidData: 'Datos inválidos en el registro con Google',
  server: 'Error del servidor al procesar el registro. Por favor, intenta de nuevo más tarde',
  connection: 'Error de conexión. Verifica tu conexión a internet y vuelve a intentar',
  unknown: 'Error desconocido al procesar el registro con Google',
  googleFailure: 'Error al registrarse con Google. Por favor, intenta de nuevo más tarde.',
  incomplete: 'Error en la verificación: respuesta incompleta del servidor',
} as const;

/** The limit message with its live countdown (spec 000 §8: 'espera N minutos y S segundos antes...'). */
export function limitMessage(secondsLeft: number): string {
  return `Por seguridad, has alcanzado el límite de códigos SMS que puedes solicitar. Por favor, espera ${formatMinutesAndSeconds(secondsLeft)} antes de intentarlo de nuevo.`;
}

export type GoogleRegistrationStep = 'phone' | 'code' | 'success';

/** Phone error states of the Google flow (spec 000 §4). */
export type PhoneError =
  | { kind: 'none' }
  /** Empty or not 9 digits. */
  | { kind: 'invalid'; message: string }
  /** PHONE_BLOCKED: no timer, another number is needed. */
  | { kind: 'blocked'; message: string }
  /** MAX_ATTEMPTS: a 180 s wait; the message is built from the time left and clears at 0. */
  | { kind: 'limit'; until: number }
  | { kind: 'other'; message: string };

export type GoogleRegistrationRequest =
  | { status: 'idle' }
  | { status: 'busy'; action: 'send-code' | 'resend-code' | 'verify-code' };

export type GoogleRegistrationState = {
  data: GoogleRegistrationData | null;
  step: GoogleRegistrationStep;
  /** The phone field as typed or pasted. */
  phone: string;
  /** The 9 national digits of a valid Spanish mobile read from `phone`, else ''. */
  phoneDigits: string;
  phoneError: PhoneError;
  code: string[];
  codeError: string | null;
  /** Bumped on every refused code, so the view empties and refocuses the first box. */
  codeResets: number;
  request: GoogleRegistrationRequest;
  resendAvailableAt: number | null;
  /** The e-mail was checked free once; no need to ask again on every send. */
  isEmailChecked: boolean;
};

export type GoogleRegistrationDeps = {
  api: RegistrationApi;
  storage: Pick<TokenStorage, 'save' | 'readToken'>;
  /**
   * The session layer's sign-in on the stored session (spec 000 §2 "logs the user in from the
   * stored user and token"): its listeners and the login streak («¡Primer día!» at once).
   */
  signIn(session: { token: string; user: AuthUser; area: 'both' }): Promise<unknown>;
  now: () => number;
};

const fresh = (data: GoogleRegistrationData | null): GoogleRegistrationState => ({
  data,
  step: 'phone',
  phone: '',
  phoneDigits: '',
  phoneError: { kind: 'none' },
  code: emptyCode(),
  codeError: null,
  codeResets: 0,
  request: { status: 'idle' },
  resendAvailableAt: null,
  isEmailChecked: false,
});

/** A failed google/send-code as the phone error state it leads to. */
export function googleSendCodeError(failure: CallFailure, nowMs: number): PhoneError {
  if (failure.kind === 'http' && failure.status === 409) {
    return { kind: 'other', message: GOOGLE_REGISTRATION_MESSAGES.accountExists };
  }
  switch (classifySendCodeFailure(failure)) {
    case 'PHONE_BLOCKED':
      return { kind: 'blocked', message: SEND_CODE_MESSAGES.PHONE_BLOCKED };
    case 'MAX_ATTEMPTS':
      return { kind: 'limit', until: nowMs + SMS_LIMIT_LOCK_S * 1000 };
    case 'MULTIPLE':
      return { kind: 'other', message: SEND_CODE_MESSAGES.MULTIPLE };
    case 'OTHER':
      return { kind: 'other', message: failure.message || SEND_CODE_MESSAGES.UNKNOWN };
    case 'INVALID_PHONE':
      return { kind: 'other', message: SEND_CODE_MESSAGES.INVALID_PHONE };
    case 'CONNECTION':
      return { kind: 'other', message: SEND_CODE_MESSAGES.CONNECTION };
    default:
      return { kind: 'other', message: SEND_CODE_MESSAGES.UNKNOWN };
  }
}

/**
 * A failed e-mail check as its text (spec 000 §8): the server's own message when it answered with
 * one, the §8 default when it answered without one, and the modal's "failed check" text (which
 * asks to try again) when no answer came at all.
 */
export function googleEmailCheckError(failure: CallFailure): string {
  if (failure.kind !== 'http') return GOOGLE_REGISTRATION_MESSAGES.emailCheckFailed;
  return failure.message || GOOGLE_REGISTRATION_MESSAGES.emailCheckDefault;
}

/** A failed google/verify-code as its text (spec 000 §8, Google registration). */
export function googleVerifyError(failure: CallFailure): string {
  if (failure.kind !== 'http') return GOOGLE_REGISTRATION_MESSAGES.connection;
  switch (failure.status) {
    case 400:
      return failure.message || GOOGLE_REGISTRATION_MESSAGES.invalidData;
    case 401:
    case 403:
      return GOOGLE_REGISTRATION_MESSAGES.googleFailure;
    case 409:
      return GOOGLE_REGISTRATION_MESSAGES.accountExists;
    case 429:
      return failure.message || GOOGLE_REGISTRATION_MESSAGES.unknown;
    case 500:
      return GOOGLE_REGISTRATION_MESSAGES.server;
    default:
      return GOOGLE_REGISTRATION_MESSAGES.unknown;
  }
}

export function createGoogleRegistrationStore(deps: GoogleRegistrationDeps) {
  const state = proxy<GoogleRegistrationState>(fresh(null));
  const isBusy = () => state.request.status === 'busy';
  const isLimited = () => state.phoneError.kind === 'limit' && deps.now() < state.phoneError.until;

  const send = async (): Promise<boolean> => {
    const data = state.data;
    if (!data) return false;
    if (!state.isEmailChecked) {
      try {
        const { exists } = await deps.api.checkEmail(data.email);
        if (exists) {
          state.phoneError = { kind: 'other', message: GOOGLE_REGISTRATION_MESSAGES.accountExists };
          return false;
        }
        state.isEmailChecked = true;
      } catch (error) {
        state.phoneError = { kind: 'other', message: googleEmailCheckError(toCallFailure(error)) };
        return false;
      }
    }
    try {
      await deps.api.googleSendCode(toE164(state.phoneDigits), data.email, data.credential);
      state.resendAvailableAt = deps.now() + SMS_RESEND_COOLDOWN_S * 1000;
      state.phoneError = { kind: 'none' };
      return true;
    } catch (error) {
      state.phoneError = googleSendCodeError(toCallFailure(error), deps.now());
      return false;
    }
  };

  const refuseCode = (message: string) => {
    state.codeError = message;
    state.code = emptyCode();
    state.codeResets += 1;
  };

  const actions = {
    start(data: GoogleRegistrationData) {
      Object.assign(state, fresh(data));
    },

    /** Keeps what was typed or pasted and reads the number from it, as the e-mail wizard does. */
    setPhone(value: string) {
      state.phone = keepPhoneCharacters(value);
      state.phoneDigits = validPhoneDigits(state.phone);
      // A blocked number or a bad format is about this number; the limit is about the sender.
      if (state.phoneError.kind !== 'limit') state.phoneError = { kind: 'none' };
    },

    /** Called by the view when the limit's countdown reaches 0 (spec 000 §4: the message clears). */
    clearExpiredLimit() {
      if (state.phoneError.kind === 'limit' && !isLimited()) state.phoneError = { kind: 'none' };
    },

    async sendCode() {
      if (isBusy() || isLimited()) return;
      const field = readPhoneField(state.phone);
      if (field.problem === 'empty') {
        state.phoneError = { kind: 'invalid', message: AUTH_MESSAGES.phoneRequiredGoogle };
        return;
      }
      if (field.problem === 'short' || field.problem === 'long') {
        state.phoneError = { kind: 'invalid', message: AUTH_MESSAGES.phoneDigitsGoogle };
        return;
      }
      if (field.problem !== null) {
        state.phoneError = { kind: 'invalid', message: phoneFieldMessage(field) ?? AUTH_MESSAGES.phoneDigitsGoogle };
        return;
      }
      state.request = { status: 'busy', action: 'send-code' };
      try {
        if (await send()) {
          state.code = emptyCode();
          state.codeError = null;
          state.step = 'code';
        }
      } finally {
        state.request = { status: 'idle' };
      }
    },

    async resendCode() {
      if (isBusy() || (state.resendAvailableAt !== null && deps.now() < state.resendAvailableAt)) return;
      state.request = { status: 'busy', action: 'resend-code' };
      try {
        state.codeError = null;
        if (await send()) {
          state.code = emptyCode();
        } else {
          // The phone error states belong to step 1; on this step they read as the code's error.
          const error = state.phoneError;
          refuseCode(error.kind === 'limit' ? limitMessage(SMS_LIMIT_LOCK_S) : 'message' in error ? error.message : '');
        }
      } finally {
        state.request = { status: 'idle' };
      }
    },

    setCode(code: readonly string[]) {
      state.code = [...code];
      state.codeError = null;
    },

    async verifyCode() {
      const data = state.data;
      if (isBusy() || !data) return;
      if (!isCodeComplete(state.code)) {
        state.codeError = AUTH_MESSAGES.codeDigits;
        return;
      }
      state.request = { status: 'busy', action: 'verify-code' };
      try {
        const response = await deps.api.googleVerifyCode({
          phone: toE164(state.phoneDigits),
          code: codeValue(state.code),
          googleId: data.sub,
          email: data.email,
          firstName: data.firstName,
          lastName: data.lastName,
          credential: data.credential,
        });
        const session = readSession(response);
        if (!session) {
          refuseCode(GOOGLE_REGISTRATION_MESSAGES.incomplete);
          return;
        }
        // Spec 000 §4: both storages, and a new Google account has no profile yet.
        const user = { ...session.user, completeProfile: false };
        deps.storage.save({ token: session.token, user, area: 'both' });
        if (deps.storage.readToken()) {
          state.step = 'success';
          void deps.signIn({ token: session.token, user, area: 'both' });
        } else refuseCode(GOOGLE_REGISTRATION_MESSAGES.incomplete);
      } catch (error) {
        refuseCode(googleVerifyError(toCallFailure(error)));
      } finally {
        state.request = { status: 'idle' };
      }
    },

    /** Back is only on the code step, and never while a call runs (spec 000 §2). */
    goBack() {
      if (isBusy() || state.step !== 'code') return;
      state.step = 'phone';
      state.code = emptyCode();
      state.codeError = null;
    },
  };

  return { state, actions };
}

export type GoogleRegistrationStore = ReturnType<typeof createGoogleRegistrationStore>;

export const googleRegistration: GoogleRegistrationStore = createGoogleRegistrationStore({
  api: registrationApi,
  storage: tokenStorage,
  // A failure here must not undo a registration that succeeded: logged, as the streak's is.
  signIn: (session) => signIn(session).catch((error: unknown) => console.warn('sign-in after registration', error)),
  now: () => Date.now(),
});
