import type { SwipeAction } from '#shared/discovery/discovery-schemas';
import type { ReactNode } from 'react';
import { cx } from '../../ui/cx.ts';
import { CloseIcon, HeartIcon, ZapIcon } from '../../ui/icons.tsx';

const ACTION_CIRCLE =
  'grid place-items-center rounded-full bg-white shadow-lg ring-1 ring-stone-900/8 transition duration-150 ' +
  'group-enabled:group-hover:scale-105 group-enabled:group-active:scale-95 motion-reduce:transition-none motion-reduce:group-enabled:group-hover:scale-100 ' +
  'group-disabled:opacity-50 dark:bg-stone-900 dark:ring-white/10';
const ACTION_BUTTON =
  'group flex flex-col items-center gap-1 rounded-2xl ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400';
const ACTION_LABEL = 'text-xs font-semibold text-stone-700 dark:text-stone-200';

/** The three actions, named under their icons (issue #34: ⚡ alone said nothing). */
const ACTIONS: readonly { action: SwipeAction; label: string; circle: string; icon: ReactNode }[] = [
  {
    action: 'dislike',
    label: 'Rechazar',
    circle: 'size-16 text-rose-600 dark:text-rose-400',
    icon: <CloseIcon className="size-8" strokeWidth={2.5} />,
  },
  {
    action: 'superlike',
    // One spelling everywhere: the button, its toast and its name (docs/decisions/0051).
    label: 'Super Entreno',
    circle: 'size-13 text-amber-600 dark:text-amber-400',
    icon: <ZapIcon filled className="size-6" />,
  },
  {
    action: 'like',
    label: 'Entreno',
    circle: 'size-16 text-emerald-600 dark:text-emerald-400',
    icon: <HeartIcon filled className="size-8" />,
  },
];

/**
 * Rechazar / Super Entreno / Entreno (spec 001 §2, QUALITY 29: every gesture has a button): under
 * the deck's card and inside the full profile, so a person decides where they are reading.
 */
export function DecisionButtons({
  isEnabled = true,
  isHidden = false,
  onDecide,
  className,
}: {
  isEnabled?: boolean;
  isHidden?: boolean;
  onDecide: (action: SwipeAction) => void;
  className?: string;
}) {
  return (
    <div className={cx('flex items-end justify-center gap-5 pb-1', isHidden && 'invisible', className)}>
      {ACTIONS.map(({ action, label, circle, icon }) => (
        <button
          key={action}
          type="button"
          disabled={!isEnabled}
          onClick={() => onDecide(action)}
          className={ACTION_BUTTON}
        >
          <span className={cx(ACTION_CIRCLE, circle)}>{icon}</span>
          <span className={ACTION_LABEL}>{label}</span>
        </button>
      ))}
    </div>
  );
}
