import { formatBadgeCount } from '#shared/badge-count';
import { cx } from './cx.ts';

export type CountBadgeProps = {
  count: number;
  /** Above this the badge reads `${max}+` (9 for the bell, 99 for messages: spec 001 §2). */
  max: number;
  /** What the count means, for screen readers: '3 sin leer'. */
  srSuffix?: string;
  className?: string;
};

/** A small red counter; renders nothing when the count is 0. */
export function CountBadge({ count, max, srSuffix = 'sin leer', className }: CountBadgeProps) {
  const text = formatBadgeCount(count, max);
  if (text === null) return null;
  return (
    <span
      className={cx(
        'inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1.5 text-[0.6875rem] font-bold leading-none tabular-nums text-white',
        className,
      )}
    >
      <span aria-hidden="true">{text}</span>
      <span className="sr-only">{`: ${text} ${srSuffix}`}</span>
    </span>
  );
}
