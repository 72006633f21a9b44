import { type ComponentPropsWithRef, type ReactNode, useId, useState } from 'react';
import { cx } from './cx.ts';
import { AlertCircleIcon, EyeIcon, EyeOffIcon } from './icons.tsx';

export type TextFieldProps = Omit<ComponentPropsWithRef<'input'>, 'size' | 'prefix'> & {
  label: ReactNode;
  /** Help shown under the field, read with it (aria-describedby). */
  hint?: ReactNode;
  /** Error shown under the field; marks it invalid and is read with it. */
  error?: ReactNode;
  /** Content fixed at the start of the field, such as the phone prefix '+34'. */
  prefix?: ReactNode;
  /** For type="password": a button that shows and hides the text (default true). */
  canReveal?: boolean;
  /** Hides the label visually while keeping it for screen readers. */
  isLabelHidden?: boolean;
  containerClassName?: string;
};

/** A labelled text input with hint and error text wired through aria-describedby. */
export function TextField({
  label,
  hint,
  error,
  prefix,
  canReveal = true,
  isLabelHidden = false,
  containerClassName,
  className,
  id,
  type = 'text',
  disabled,
  ...props
}: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const [isRevealed, setIsRevealed] = useState(false);
  const hasError = error !== undefined && error !== null && error !== false && error !== '';
  const isPassword = type === 'password';
  const describedBy = cx(props['aria-describedby'], hint !== undefined && hint !== null && hintId, hasError && errorId);

  return (
    <div className={cx('flex flex-col gap-1.5', containerClassName)}>
      <label
        htmlFor={inputId}
        className={cx('text-sm font-medium text-stone-800 dark:text-stone-200', isLabelHidden && 'sr-only')}
      >
        {label}
      </label>
      <div
        className={cx(
          'group flex items-center rounded-xl bg-white ring-1 ring-inset transition-shadow duration-150 motion-reduce:transition-none',
          'focus-within:ring-2 dark:bg-stone-900',
          hasError
            ? 'ring-red-600 focus-within:ring-red-600 dark:ring-red-400 dark:focus-within:ring-red-400'
            : 'ring-stone-300 focus-within:ring-brand-600 dark:ring-stone-700 dark:focus-within:ring-brand-400',
          disabled && 'opacity-60',
        )}
      >
        {prefix !== undefined && (
          <span className="flex h-full select-none items-center border-r border-stone-200 pl-3.5 pr-3 text-[0.9375rem] font-medium text-stone-700 dark:border-stone-700 dark:text-stone-300">
            {prefix}
          </span>
        )}
        <input
          id={inputId}
          type={isPassword && isRevealed ? 'text' : type}
          disabled={disabled}
          {...props}
          aria-invalid={hasError || undefined}
          // After the spread: a caller's own describedby is merged into this one, never replaces it.
          aria-describedby={describedBy || undefined}
          className={cx(
            'h-12 min-w-0 flex-1 rounded-xl bg-transparent px-3.5 text-base text-stone-900 outline-none',
            'placeholder:text-stone-500 disabled:cursor-not-allowed dark:text-stone-50 dark:placeholder:text-stone-400',
            className,
          )}
        />
        {isPassword && canReveal && (
          <button
            type="button"
            onClick={() => setIsRevealed((value) => !value)}
            disabled={disabled}
            aria-label={isRevealed ? 'Ocultar contraseña' : 'Mostrar contraseña'}
            aria-pressed={isRevealed}
            aria-controls={inputId}
            className="mr-1.5 grid size-9 place-items-center rounded-lg text-stone-600 hover:bg-stone-900/5 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-400 dark:hover:bg-white/8 dark:hover:text-stone-100 dark:focus-visible:outline-brand-400"
          >
            {isRevealed ? <EyeOffIcon /> : <EyeIcon />}
          </button>
        )}
      </div>
      {hint !== undefined && hint !== null && (
        <p id={hintId} className="text-sm text-stone-600 dark:text-stone-400">
          {hint}
        </p>
      )}
      {hasError && (
        <p id={errorId} className="flex items-start gap-1.5 text-sm font-medium text-red-700 dark:text-red-400">
          <AlertCircleIcon className="mt-0.5 size-4 shrink-0" />
          <span>{error}</span>
        </p>
      )}
    </div>
  );
}
