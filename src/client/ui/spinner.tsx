import { cx } from './cx.ts';

export type SpinnerSize = 'sm' | 'md' | 'lg';

export type SpinnerProps = {
  size?: SpinnerSize;
  /** Text for screen readers; `null` makes the spinner decorative (its parent already says it). */
  label?: string | null;
  className?: string;
};

const SIZES: Record<SpinnerSize, string> = { sm: 'size-4', md: 'size-6', lg: 'size-10' };

/** A loading indicator that announces itself politely (role="status"). */
export function Spinner({ size = 'md', label = 'Cargando...', className }: SpinnerProps) {
  const circle = (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      fill="none"
      aria-hidden="true"
      focusable="false"
      className={cx('animate-spin', SIZES[size], className)}
    >
      <circle cx="12" cy="12" r="9.5" stroke="currentColor" strokeOpacity="0.2" strokeWidth="3" />
      <path d="M21.5 12A9.5 9.5 0 0 0 12 2.5" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
  if (label === null) return circle;
  return (
    <span role="status" className="inline-flex items-center">
      {circle}
      <span className="sr-only">{label}</span>
    </span>
  );
}
