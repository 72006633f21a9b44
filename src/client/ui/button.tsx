import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cx } from './cx.ts';
import { Spinner } from './spinner.tsx';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

export type ButtonStyleOptions = {
  variant?: ButtonVariant;
  size?: ButtonSize;
  isFullWidth?: boolean;
  className?: string;
};

const BASE =
  'relative inline-flex shrink-0 items-center justify-center gap-2 rounded-xl font-semibold select-none whitespace-nowrap ' +
  'transition duration-150 ease-out active:scale-[0.98] motion-reduce:transition-none motion-reduce:active:scale-100 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400 ' +
  'disabled:cursor-not-allowed disabled:opacity-55 disabled:active:scale-100 aria-busy:cursor-wait';

// Filled buttons keep 4.5:1 contrast: white on brand-700 in light, near-black on brand-500 in dark.
const VARIANTS: Record<ButtonVariant, string> = {
  primary:
    'bg-brand-700 text-white shadow-sm shadow-brand-900/25 enabled:hover:bg-brand-800 ' +
    'dark:bg-brand-500 dark:text-stone-950 dark:shadow-none dark:enabled:hover:bg-brand-400',
  secondary:
    'bg-white text-stone-900 shadow-sm ring-1 ring-inset ring-stone-300 enabled:hover:bg-stone-50 ' +
    'dark:bg-stone-800 dark:text-stone-50 dark:ring-stone-700 dark:enabled:hover:bg-stone-700',
  ghost: 'bg-transparent text-stone-700 enabled:hover:bg-stone-900/5 dark:text-stone-200 dark:enabled:hover:bg-white/8',
  danger: 'bg-red-700 text-white shadow-sm enabled:hover:bg-red-800 dark:enabled:hover:bg-red-600',
};

const SIZES: Record<ButtonSize, string> = {
  sm: 'h-9 px-3.5 text-sm',
  md: 'h-11 px-5 text-[0.9375rem]',
  lg: 'h-13 px-6 text-base',
};

/** The classes of a button, for links that should look like one (a TanStack `<Link>`, an `<a>`). */
export function buttonClasses({
  variant = 'primary',
  size = 'md',
  isFullWidth = false,
  className,
}: ButtonStyleOptions = {}): string {
  return cx(BASE, VARIANTS[variant], SIZES[size], isFullWidth && 'w-full', className);
}

export type ButtonProps = ComponentPropsWithRef<'button'> &
  ButtonStyleOptions & {
    /** Shows a spinner, sets aria-busy and blocks clicks; the label stays so the width holds. */
    isLoading?: boolean;
    /** Replaces the label while loading (e.g. 'Enviando correo...'). */
    loadingText?: ReactNode;
    iconStart?: ReactNode;
    iconEnd?: ReactNode;
  };

export function Button({
  variant,
  size,
  isFullWidth,
  className,
  isLoading = false,
  loadingText,
  iconStart,
  iconEnd,
  disabled,
  type = 'button',
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || isLoading}
      aria-busy={isLoading || undefined}
      className={buttonClasses({ variant, size, isFullWidth, className })}
      {...props}
    >
      {isLoading ? <Spinner size="sm" label={null} /> : iconStart}
      {isLoading && loadingText ? loadingText : children}
      {!isLoading && iconEnd}
    </button>
  );
}
