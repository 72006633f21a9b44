import { type CodeDigits, emptyCode } from './code-input-logic.ts';

/**
 * The e-mail registration wizard's steps and moves (spec 000 §2, §4) as a pure reducer: five
 * labelled steps and the success step. Side effects (calls, timers) live in the store, which
 * dispatches an event only once the server has said yes.
 */
export type WizardStep = 1 | 2 | 3 | 4 | 5 | 6;

export const WIZARD_STEPS = [
  { step: 1, label: 'Nombre' },
  { step: 2, label: 'Correo' },
  { step: 3, label: 'Teléfono' },
  { step: 4, label: 'Verificación' },
  { step: 5, label: 'Contraseña' },
] as const satisfies ReadonlyArray<{ step: WizardStep; label: string }>;

export type WizardState = {
  readonly step: WizardStep;
  /** Set by a code the server accepted; stays set on later visits to step 3 (spec 000 §4). */
  readonly isPhoneVerified: boolean;
  readonly code: CodeDigits;
};

export type WizardEvent =
  | { type: 'NAME_ACCEPTED' }
  | { type: 'EMAIL_ACCEPTED' }
  /** Step 3's forward move, allowed only with a verified phone (otherwise a code must be sent). */
  | { type: 'PHONE_CONTINUE' }
  | { type: 'CODE_SENT' }
  | { type: 'CODE_CHANGED'; code: CodeDigits }
  | { type: 'CODE_ACCEPTED' }
  | { type: 'REGISTERED' }
  | { type: 'BACK' };

export const initialWizardState: WizardState = { step: 1, isPhoneVerified: false, code: emptyCode() };

/** Where the back button leads, or null where there is none (step 1, and step 6: the account exists). */
export function backTarget(state: WizardState): WizardStep | null {
  switch (state.step) {
    case 1:
    case 6:
      return null;
    case 5:
      return state.isPhoneVerified ? 3 : 4;
    case 4:
      return 3;
    default:
      return (state.step - 1) as WizardStep;
  }
}

export function wizardReducer(state: WizardState, event: WizardEvent): WizardState {
  switch (event.type) {
    case 'NAME_ACCEPTED':
      return state.step === 1 ? { ...state, step: 2 } : state;
    case 'EMAIL_ACCEPTED':
      return state.step === 2 ? { ...state, step: 3 } : state;
    case 'PHONE_CONTINUE':
      return state.step === 3 && state.isPhoneVerified ? { ...state, step: 5 } : state;
    case 'CODE_SENT':
      // A resend on step 4 also lands here: the boxes empty for the new code.
      return state.step === 3 || state.step === 4 ? { ...state, step: 4, code: emptyCode() } : state;
    case 'CODE_CHANGED':
      return state.step === 4 ? { ...state, code: [...event.code] } : state;
    case 'CODE_ACCEPTED':
      return state.step === 4 ? { ...state, step: 5, isPhoneVerified: true } : state;
    case 'REGISTERED':
      return state.step === 5 ? { ...state, step: 6 } : state;
    case 'BACK': {
      const target = backTarget(state);
      if (target === null) return state;
      // Leaving the code step forgets the code and the verification (spec 000 §4).
      if (state.step === 4) return { step: target, isPhoneVerified: false, code: emptyCode() };
      return { ...state, step: target };
    }
  }
}
