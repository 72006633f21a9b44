import type { ReactNode } from 'react';
import { cx } from './cx.ts';

/**
 * The connection's state as one small pill (issue #34): "Sin conexión" looks the same wherever it
 * shows (the frame, the deck, Mensajes, a conversation) — neutral grey, never an error's red: being
 * offline is a state the app handles, not a failure. Amber while working on it, green when fine.
 */
export type StatusTone = 'offline' | 'working' | 'fine';

const TONES: Record<StatusTone, { pill: string; dot: string }> = {
  offline: {
    pill: 'bg-stone-100 text-stone-800 ring-stone-300 dark:bg-stone-800 dark:text-stone-100 dark:ring-stone-700',
    dot: 'bg-stone-500 dark:bg-stone-400',
  },
  working: {
    pill: 'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-500/10 dark:text-amber-200 dark:ring-amber-500/25',
    dot: 'bg-amber-500',
  },
  fine: {
    pill: 'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-500/10 dark:text-emerald-200 dark:ring-emerald-500/25',
    dot: 'bg-emerald-500',
  },
};

export function StatusPill({
  tone,
  testId,
  isPulsing = false,
  className,
  children,
}: {
  tone: StatusTone;
  testId: string;
  isPulsing?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <p
      role="status"
      data-testid={testId}
      data-tone={tone}
      className={cx(
        'inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-xs font-semibold ring-1 ring-inset',
        TONES[tone].pill,
        className,
      )}
    >
      <span
        aria-hidden="true"
        className={cx(
          'size-2 shrink-0 rounded-full',
          TONES[tone].dot,
          isPulsing && 'animate-pulse motion-reduce:animate-none',
        )}
      />
      {children}
    </p>
  );
}
