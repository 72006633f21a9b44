import { type FormEvent, useCallback, useState } from 'react';

export type FormAction = {
  /** The form's error line (FormAlert), or null. */
  error: string | null;
  /** True while the submitted action runs (the submit button's `isLoading`). */
  isBusy: boolean;
  /** Shows a message of the form's own (a field left empty). */
  setError(message: string | null): void;
  /**
   * The form's `onSubmit`: no page submit; `check` may refuse with a message (nothing is sent);
   * otherwise `action` runs with the form busy, and its failure becomes the error line.
   */
  onSubmit(action: () => Promise<void>, check?: () => string | null): (event: FormEvent) => void;
  /** Wraps a field's setter so that editing the field clears the error line. */
  edits<T>(set: (value: T) => void): (value: T) => void;
};

/**
 * The busy / error / submit shape the security dialogs share (two-step setup, disabling it, new
 * recovery codes, adding a passkey). `toMessage` turns a failure into the Spanish error line.
 */
export function useFormAction(toMessage: (failure: unknown) => string): FormAction {
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const onSubmit = useCallback(
    (action: () => Promise<void>, check?: () => string | null) => (event: FormEvent) => {
      event.preventDefault();
      const refusal = check?.() ?? null;
      if (refusal !== null) return setError(refusal);
      setIsBusy(true);
      void action()
        .catch((failure: unknown) => setError(toMessage(failure)))
        .finally(() => setIsBusy(false));
    },
    [toMessage],
  );
  const edits = useCallback(
    <T>(set: (value: T) => void) =>
      (value: T) => {
        set(value);
        setError(null);
      },
    [],
  );
  return { error, isBusy, setError, onSubmit, edits };
}
