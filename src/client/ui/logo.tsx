import { cx } from './cx.ts';
import { DumbbellIcon } from './icons.tsx';

export type LogoProps = {
  /** 'inverse' for dark surfaces whatever the theme. */
  tone?: 'default' | 'inverse';
  size?: 'sm' | 'md' | 'lg';
  /** Hide the word, keep the mark (the mark alone is decorative). */
  isMarkOnly?: boolean;
  className?: string;
};

const MARK_SIZES = { sm: 'size-8 rounded-[0.6rem]', md: 'size-10 rounded-xl', lg: 'size-14 rounded-2xl' } as const;
const ICON_SIZES = { sm: 'size-4.5', md: 'size-5.5', lg: 'size-8' } as const;
const WORD_SIZES = { sm: 'text-lg', md: 'text-xl', lg: 'text-3xl' } as const;

/** The Entreno mark (a dumbbell on the brand gradient) and word. */
export function Logo({ tone = 'default', size = 'md', isMarkOnly = false, className }: LogoProps) {
  return (
    <span className={cx('inline-flex items-center gap-2.5', className)}>
      <span
        aria-hidden="true"
        className={cx(
          'grid shrink-0 place-items-center bg-gradient-to-br from-brand-400 via-brand-500 to-brand-700 text-white shadow-md shadow-brand-700/30',
          MARK_SIZES[size],
        )}
      >
        <DumbbellIcon className={ICON_SIZES[size]} strokeWidth={2.5} />
      </span>
      {!isMarkOnly && (
        <span
          className={cx(
            'font-extrabold tracking-tight',
            WORD_SIZES[size],
            tone === 'inverse' ? 'text-white' : 'text-stone-900 dark:text-white',
          )}
        >
          Entreno
        </span>
      )}
    </span>
  );
}
