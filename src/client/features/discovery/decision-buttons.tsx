import type { SwipeAction } from '#shared/discovery/discovery-schemas';
import { cx } from '../../ui/cx.ts';
import { CloseIcon, HeartIcon, ZapIcon } from '../../ui/icons.tsx';

const ACTION_BUTTON =
  'grid place-items-center rounded-full bg-white shadow-lg ring-1 ring-stone-900/8 transition duration-150 ' +
  'enabled:hover:scale-105 enabled:active:scale-95 disabled:opacity-50 motion-reduce:transition-none motion-reduce:enabled:hover:scale-100 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:bg-stone-900 dark:ring-white/10 dark:focus-visible:outline-brand-400';

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
    <div className={cx('flex items-center justify-center gap-5 pb-1', isHidden && 'invisible', className)}>
      <button
        type="button"
        aria-label="Rechazar"
        title="Rechazar"
        disabled={!isEnabled}
        onClick={() => onDecide('dislike')}
        className={cx(ACTION_BUTTON, 'size-16 text-rose-600 dark:text-rose-400')}
      >
        <CloseIcon className="size-8" strokeWidth={2.5} />
      </button>
      <button
        type="button"
        aria-label="Super Entreno"
        title="Super Entreno"
        disabled={!isEnabled}
        onClick={() => onDecide('superlike')}
        className={cx(ACTION_BUTTON, 'size-13 text-amber-600 dark:text-amber-400')}
      >
        <ZapIcon className="size-6 fill-current" />
      </button>
      <button
        type="button"
        aria-label="Entreno"
        title="Entreno"
        disabled={!isEnabled}
        onClick={() => onDecide('like')}
        className={cx(ACTION_BUTTON, 'size-16 text-emerald-600 dark:text-emerald-400')}
      >
        <HeartIcon className="size-8 fill-current" />
      </button>
    </div>
  );
}
