import * as v from 'valibot';
import { PHONE_DIGITS, SMS_RESEND_COOLDOWN_S } from '#shared/auth/auth-constants';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import { type AuthUser, LastNameSchema, NameSchema, RegistrationEmailSchema } from '#shared/auth/auth-schemas';
import { meetsPasswordRules } from '#shared/auth/password';
import { readPhoneField } from '#shared/auth/phone';
import { proxy } from 'valtio';
import { signIn } from '../../services/session.ts';
import { type TokenStorage, tokenStorage } from '../../services/token-storage.ts';
import { codeValue, isCodeComplete } from './code-input-logic.ts';
import { type RegistrationApi, readSession, registrationApi, toCallFailure, toE164 } from './registration-api.ts';
import { formatNational, keepPhoneCharacters, phoneFieldError, validPhoneDigits } from './phone-field.ts';
import { wizardSendCodeMessage } from './send-code-errors.ts';
import { initialWizardState, type WizardEvent, type WizardState, wizardReducer } from './wizard-machine.ts';

export type WizardField = 'name' | 'lastName' | 'email' | 'phone' | 'code' | 'password' | 'form';
export type WizardAction = 'check-email' | 'send-code' | 'resend-code' | 'verify-code' | 'register';

/** The one call in flight, if any; every button of the step reads it. */
export type WizardRequest = { status: 'idle' } | { status: 'busy'; action: WizardAction };

export type RegistrationState = {
  wizard: WizardState;
  form: {
    name: string;
    lastName: string;
    email: string;
    /** The phone field as typed or pasted; `phoneDigits` is what it reads as. */
    phone: string;
    /** The 9 national digits of a valid Spanish mobile read from `phone`, else ''. */
    phoneDigits: string;
    password: string;
  };
  errors: Partial<Record<WizardField, string>>;
  request: WizardRequest;
  /** When resending becomes possible (epoch ms), or null before the first send. */
  resendAvailableAt: number | null;
  /** Register succeeded but the login after it did not: a retry only logs in again. */
  isAccountCreated: boolean;
};

/** Texts of spec 000 §5, §8 that the shared catalogue does not hold. */
export const WIZARD_MESSAGES = {
  emailCheckFailed: 'Error al verificar la disponibilidad del Correo. Si el error persiste, contacta con soporte',
  codeVerifyFailed: 'Error al verificar el código',
  /** §8 "Defaults when the server gives no message": verify-code answered, but said nothing. */
  codeVerifyDefault: 'Error en la verificación',
  registerFailed: 'Error en el registro',
  registerUnexpected: 'Error desconocido al registrar el usuario',
  completeFailed: 'Error al completar el registro',
} as const;

/** Post-registration pauses (spec 000 §4, §9). */
export const BEFORE_LOGIN_MS = 1000;
export const BEFORE_SUCCESS_STEP_MS = 500;

export type RegistrationStoreDeps = {
  api: RegistrationApi;
  storage: Pick<TokenStorage, 'save'>;
  /**
   * The session layer's sign-in on the stored session (spec 000 §4 "Sign-in"): its listeners (the
   * socket, the unread counts) and the login streak, so the layout says «¡Primer día!» at once.
   */
  signIn(session: { token: string; user: AuthUser; area: 'local' }): Promise<unknown>;
  wait: (ms: number) => Promise<void>;
  now: () => number;
};

const freshState = (): RegistrationState => ({
  wizard: initialWizardState,
  form: { name: '', lastName: '', email: '', phone: '', phoneDigits: '', password: '' },
  errors: {},
  request: { status: 'idle' },
  resendAvailableAt: null,
  isAccountCreated: false,
});

const firstIssue = (result: v.SafeParseResult<v.GenericSchema>) =>
  result.success ? undefined : result.issues[0]?.message;

/** The wizard's store and actions; the app uses `registration`, tests build their own with fakes. */
export function createRegistrationStore(deps: RegistrationStoreDeps) {
  const state = proxy<RegistrationState>(freshState());

  const dispatch = (event: WizardEvent) => {
    state.wizard = wizardReducer(state.wizard, event);
  };
  const isBusy = () => state.request.status === 'busy';
  const run = async (action: WizardAction, task: () => Promise<void>) => {
    if (isBusy()) return;
    state.request = { status: 'busy', action };
    try {
      await task();
    } finally {
      state.request = { status: 'idle' };
    }
  };
  const phone = () => toE164(state.form.phoneDigits);

  const sendCode = async (field: WizardField) => {
    try {
      await deps.api.sendCode(phone());
      state.resendAvailableAt = deps.now() + SMS_RESEND_COOLDOWN_S * 1000;
      dispatch({ type: 'CODE_SENT' });
    } catch (error) {
      state.errors[field] = wizardSendCodeMessage(toCallFailure(error));
    }
  };

  const actions = {
    reset() {
      Object.assign(state, freshState());
    },

    setField(field: 'name' | 'lastName' | 'email' | 'password', value: string) {
      state.form[field] = value;
      delete state.errors[field];
      delete state.errors.form;
    },

    /**
     * Keeps what was typed or pasted and reads the number from it (spaces, dots, dashes and a
     * +34 or 0034 prefix taken out, never cut to 9 digits); a verified number cannot change.
     */
    setPhone(value: string) {
      if (state.wizard.isPhoneVerified) return;
      state.form.phone = keepPhoneCharacters(value);
      state.form.phoneDigits = validPhoneDigits(state.form.phone);
      delete state.errors.phone;
    },

    /** On leaving the phone field: a partly typed number says what is missing. */
    checkPhoneDigits() {
      const field = readPhoneField(state.form.phone);
      if (field.problem !== null && field.problem !== 'empty') state.errors.phone = phoneFieldError(state.form.phone);
      // A valid number reads the way people say it, beside the +34 already shown: 612 483 792.
      if (field.problem === null) state.form.phone = formatNational(field.digits);
    },

    setCode(code: readonly string[]) {
      dispatch({ type: 'CODE_CHANGED', code });
      delete state.errors.code;
    },

    submitName() {
      const name = firstIssue(v.safeParse(NameSchema, state.form.name));
      const lastName = firstIssue(v.safeParse(LastNameSchema, state.form.lastName));
      state.errors.name = name;
      state.errors.lastName = lastName;
      if (name === undefined && lastName === undefined) dispatch({ type: 'NAME_ACCEPTED' });
    },

    submitEmail: () =>
      run('check-email', async () => {
        const parsed = v.safeParse(RegistrationEmailSchema, state.form.email);
        if (!parsed.success) {
          state.errors.email = firstIssue(parsed);
          return;
        }
        try {
          const { exists } = await deps.api.checkEmail(parsed.output);
          if (exists) state.errors.email = AUTH_MESSAGES.emailTaken;
          else dispatch({ type: 'EMAIL_ACCEPTED' });
        } catch {
          state.errors.email = WIZARD_MESSAGES.emailCheckFailed;
        }
      }),

    /** Step 3's verify button (a verified phone just moves on). */
    submitPhone: () =>
      run('send-code', async () => {
        if (state.wizard.isPhoneVerified) {
          dispatch({ type: 'PHONE_CONTINUE' });
          return;
        }
        if (state.form.phoneDigits.length !== PHONE_DIGITS) {
          state.errors.phone = phoneFieldError(state.form.phone);
          return;
        }
        await sendCode('phone');
      }),

    resendCode: () =>
      run('resend-code', async () => {
        if (state.resendAvailableAt !== null && deps.now() < state.resendAvailableAt) return;
        delete state.errors.code;
        await sendCode('code');
      }),

    submitCode: () =>
      run('verify-code', async () => {
        if (!isCodeComplete(state.wizard.code)) {
          state.errors.code = AUTH_MESSAGES.codeDigits;
          return;
        }
        try {
          await deps.api.verifyCode(phone(), codeValue(state.wizard.code));
          dispatch({ type: 'CODE_ACCEPTED' });
        } catch (error) {
          const failure = toCallFailure(error);
          if (failure.kind === 'http' && failure.status === 400) {
            // Expired or exhausted codes say so; any other refusal is the wizard's 'Código inválido'.
            const isCodeSpent = failure.errorType === 'CODE_EXPIRED' || failure.errorType === 'CODE_ATTEMPTS_EXCEEDED';
            state.errors.code = isCodeSpent && failure.message ? failure.message : AUTH_MESSAGES.codeInvalid;
          } else if (failure.kind === 'http') {
            state.errors.code = failure.message || WIZARD_MESSAGES.codeVerifyDefault;
          } else {
            // No answer at all: the screen's own text (§8 "otherwise message or …").
            state.errors.code = WIZARD_MESSAGES.codeVerifyFailed;
          }
        }
      }),

    /** Step 5: register, wait 1 s, log in with phone and password, store, wait 500 ms, step 6. */
    submitPassword: () =>
      run('register', async () => {
        if (!meetsPasswordRules(state.form.password)) {
          state.errors.password = AUTH_MESSAGES.passwordRequirements;
          return;
        }
        delete state.errors.form;
        const { name, lastName, email, password } = state.form;
        if (!state.isAccountCreated) {
          try {
            await deps.api.register({
              name: name.trim(),
              lastName: lastName.trim(),
              email: email.trim().toLowerCase(),
              phone: phone(),
              password,
            });
            state.isAccountCreated = true;
          } catch (error) {
            const failure = toCallFailure(error);
            state.errors.form =
              failure.kind === 'http'
                ? failure.message || WIZARD_MESSAGES.registerFailed
                : WIZARD_MESSAGES.registerUnexpected;
            return;
          }
          await deps.wait(BEFORE_LOGIN_MS);
        }
        try {
          const session = readSession(await deps.api.completeRegistration(phone(), password));
          if (!session) throw new Error(WIZARD_MESSAGES.completeFailed);
          deps.storage.save({ token: session.token, user: session.user, area: 'local' });
          // Not awaited: the 500 ms before step 6 is the spec's; a listener's failure is logged there.
          void deps.signIn({ token: session.token, user: session.user, area: 'local' });
        } catch (error) {
          state.errors.form = toCallFailure(error).message || WIZARD_MESSAGES.completeFailed;
          return;
        }
        await deps.wait(BEFORE_SUCCESS_STEP_MS);
        dispatch({ type: 'REGISTERED' });
      }),

    goBack() {
      if (isBusy()) return;
      state.errors = {};
      dispatch({ type: 'BACK' });
    },
  };

  return { state, actions };
}

export type RegistrationStore = ReturnType<typeof createRegistrationStore>;

/** The app's wizard store. */
export const registration: RegistrationStore = createRegistrationStore({
  api: registrationApi,
  storage: tokenStorage,
  // A failure here must not undo a registration that succeeded: logged, as the streak's is.
  signIn: (session) => signIn(session).catch((error: unknown) => console.warn('sign-in after registration', error)),
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
});
