import { type ClipboardEvent, type KeyboardEvent, type Ref, useImperativeHandle, useRef } from 'react';
import { cx } from '../../ui/cx.ts';
import { backspaceInCode, type CodeDigits, pasteIntoCode, typeIntoCode } from './code-input-logic.ts';

/** The boxes never reorder, so their position is their identity. */
const BOX_KEYS = ['box-1', 'box-2', 'box-3', 'box-4', 'box-5', 'box-6', 'box-7', 'box-8'];

function focusInput(inputs: ReadonlyArray<HTMLInputElement | null>, index: number) {
  const input = inputs[index];
  if (!input) return;
  input.focus();
  input.select();
}

export type CodeInputHandle = { focus(index?: number): void };

export type CodeInputProps = {
  digits: CodeDigits;
  onChange: (digits: string[]) => void;
  /** Visible label of the group ("Código de verificación"). */
  label: string;
  /** Id of the error text, read with every box. */
  errorId?: string;
  hasError?: boolean;
  disabled?: boolean;
  /** Marks the first box as the step's focus target (`data-autofocus`). */
  isFocusTarget?: boolean;
  ref?: Ref<CodeInputHandle>;
};

/**
 * Six single-digit boxes (spec 000 §5): numeric, auto-advance, backspace shifts the digits left, a
 * pasted or autofilled code fills them all. Each box is labelled 'Dígito N de 6'.
 */
export function CodeInput({
  digits,
  onChange,
  label,
  errorId,
  hasError = false,
  disabled,
  isFocusTarget = false,
  ref,
}: CodeInputProps) {
  const inputs = useRef<Array<HTMLInputElement | null>>([]);

  const focusBox = (index: number) => focusInput(inputs.current, index);

  useImperativeHandle(ref, () => ({ focus: (index = 0) => focusInput(inputs.current, index) }), []);

  const apply = (edit: { digits: string[]; focusIndex: number }) => {
    onChange(edit.digits);
    // At once, not after the re-render: a fast typist's next key must land in the next box.
    focusBox(edit.focusIndex);
  };

  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace') {
      event.preventDefault();
      apply(backspaceInCode(digits, index));
    } else if (event.key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight' && index < digits.length - 1) {
      event.preventDefault();
      focusBox(index + 1);
    }
  };

  const onPaste = (index: number) => (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    apply(pasteIntoCode(digits, index, event.clipboardData.getData('text')));
  };

  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-medium text-stone-800 dark:text-stone-200">{label}</legend>
      <div className="grid grid-cols-6 gap-2 sm:gap-2.5">
        {digits.map((digit, index) => (
          <input
            key={BOX_KEYS[index]}
            ref={(element) => {
              inputs.current[index] = element;
            }}
            type="text"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete={index === 0 ? 'one-time-code' : 'off'}
            enterKeyHint={index === digits.length - 1 ? 'done' : 'next'}
            value={digit}
            disabled={disabled}
            aria-label={`Dígito ${index + 1} de ${digits.length}`}
            aria-invalid={hasError || undefined}
            aria-describedby={errorId}
            data-autofocus={isFocusTarget && index === 0 ? '' : undefined}
            onChange={(event) => apply(typeIntoCode(digits, index, event.target.value))}
            onKeyDown={onKeyDown(index)}
            onPaste={onPaste(index)}
            onFocus={(event) => event.target.select()}
            className={cx(
              'h-14 w-full min-w-0 rounded-xl bg-white text-center text-2xl font-bold tabular-nums text-stone-900 caret-brand-600 outline-none ring-1 ring-inset transition-shadow duration-150 motion-reduce:transition-none sm:h-16',
              'focus:ring-2 disabled:cursor-not-allowed disabled:opacity-60 dark:bg-stone-950 dark:text-white dark:caret-brand-400',
              hasError
                ? 'ring-red-600 focus:ring-red-600 dark:ring-red-400'
                : digit
                  ? 'ring-stone-400 focus:ring-brand-600 dark:ring-stone-500 dark:focus:ring-brand-400'
                  : 'ring-stone-300 focus:ring-brand-600 dark:ring-stone-700 dark:focus:ring-brand-400',
            )}
          />
        ))}
      </div>
    </fieldset>
  );
}
