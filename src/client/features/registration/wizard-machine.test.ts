import { describe, expect, it } from 'vitest';
import { emptyCode } from './code-input-logic.ts';
import { backTarget, initialWizardState, type WizardEvent, type WizardState, wizardReducer } from './wizard-machine.ts';

const run = (events: WizardEvent[], from: WizardState = initialWizardState) => events.reduce(wizardReducer, from);
const CODE = ['1', '2', '3', '4', '5', '6'];

describe('forward moves', () => {
  it('walks the happy path 1 → 6', () => {
    const steps: number[] = [];
    let state = initialWizardState;
    for (const event of [
      { type: 'NAME_ACCEPTED' },
      { type: 'EMAIL_ACCEPTED' },
      { type: 'CODE_SENT' },
      { type: 'CODE_CHANGED', code: CODE },
      { type: 'CODE_ACCEPTED' },
      { type: 'REGISTERED' },
    ] satisfies WizardEvent[]) {
      state = wizardReducer(state, event);
      steps.push(state.step);
    }
    expect(steps).toEqual([2, 3, 4, 4, 5, 6]);
    expect(state.isPhoneVerified).toBe(true);
  });

  it('moves from 3 straight to 5 only with a verified phone', () => {
    const atThree = run([{ type: 'NAME_ACCEPTED' }, { type: 'EMAIL_ACCEPTED' }]);
    expect(wizardReducer(atThree, { type: 'PHONE_CONTINUE' }).step).toBe(3);
    const verifiedAtThree = { ...atThree, isPhoneVerified: true };
    expect(wizardReducer(verifiedAtThree, { type: 'PHONE_CONTINUE' }).step).toBe(5);
  });

  it('ignores events that do not belong to the current step', () => {
    expect(wizardReducer(initialWizardState, { type: 'EMAIL_ACCEPTED' })).toBe(initialWizardState);
    expect(wizardReducer(initialWizardState, { type: 'REGISTERED' })).toBe(initialWizardState);
    expect(wizardReducer(initialWizardState, { type: 'CODE_ACCEPTED' })).toBe(initialWizardState);
    expect(wizardReducer(initialWizardState, { type: 'CODE_CHANGED', code: CODE })).toBe(initialWizardState);
  });

  it('empties the boxes when a code is (re)sent', () => {
    const atFour = run([{ type: 'NAME_ACCEPTED' }, { type: 'EMAIL_ACCEPTED' }, { type: 'CODE_SENT' }]);
    const typed = wizardReducer(atFour, { type: 'CODE_CHANGED', code: CODE });
    expect(typed.code).toEqual(CODE);
    expect(wizardReducer(typed, { type: 'CODE_SENT' })).toEqual({ ...typed, code: emptyCode() });
  });
});

describe('back rules (spec 000 §4)', () => {
  it('has no back on step 1 nor on the success step', () => {
    expect(backTarget(initialWizardState)).toBeNull();
    expect(wizardReducer(initialWizardState, { type: 'BACK' })).toBe(initialWizardState);
    const done: WizardState = { step: 6, isPhoneVerified: true, code: CODE };
    expect(wizardReducer(done, { type: 'BACK' })).toBe(done);
  });

  it('goes one step back from 2 and 3', () => {
    expect(wizardReducer({ ...initialWizardState, step: 2 }, { type: 'BACK' }).step).toBe(1);
    expect(wizardReducer({ ...initialWizardState, step: 3 }, { type: 'BACK' }).step).toBe(2);
  });

  it('from 4 goes to 3 and clears the code and the verified flag', () => {
    const atFour: WizardState = { step: 4, isPhoneVerified: true, code: CODE };
    expect(wizardReducer(atFour, { type: 'BACK' })).toEqual({ step: 3, isPhoneVerified: false, code: emptyCode() });
  });

  it('from 5 goes to 3 with a verified phone, which stays verified', () => {
    const atFive: WizardState = { step: 5, isPhoneVerified: true, code: CODE };
    expect(wizardReducer(atFive, { type: 'BACK' })).toEqual({ ...atFive, step: 3 });
    // …and forward again skips the code step.
    expect(run([{ type: 'BACK' }, { type: 'PHONE_CONTINUE' }], atFive).step).toBe(5);
  });

  it('from 5 without a verified phone goes one step back', () => {
    expect(wizardReducer({ step: 5, isPhoneVerified: false, code: CODE }, { type: 'BACK' }).step).toBe(4);
  });
});
