import type { ReactNode, Ref } from 'react';
import { cx } from '../../ui/cx.ts';
import { AlertCircleIcon, CheckCircleIcon, MailIcon } from '../../ui/icons.tsx';
import { SUPPORT_EMAIL } from './auth-texts.ts';

/** The icon tile, title and subtitle at the top of an access screen. */
export function ScreenHeader({
  icon,
  title,
  subtitle,
  tone = 'brand',
  titleRef,
}: {
  icon: ReactNode;
  title: string;
  subtitle?: ReactNode;
  tone?: 'brand' | 'success' | 'danger';
  titleRef?: Ref<HTMLHeadingElement>;
}) {
  return (
    <div className="flex flex-col items-center text-center lg:items-start lg:text-left">
      <span
        aria-hidden="true"
        className={cx(
          'mb-5 grid size-14 place-items-center rounded-2xl shadow-md ring-1',
          tone === 'brand' &&
            'bg-white text-brand-700 ring-stone-900/5 dark:bg-stone-800 dark:text-brand-400 dark:ring-white/10',
          tone === 'success' &&
            'bg-emerald-50 text-emerald-700 ring-emerald-200 dark:bg-emerald-500/12 dark:text-emerald-300 dark:ring-emerald-400/25',
          tone === 'danger' &&
            'bg-red-50 text-red-700 ring-red-200 dark:bg-red-500/12 dark:text-red-300 dark:ring-red-400/25',
        )}
      >
        {icon}
      </span>
      <h1
        ref={titleRef}
        tabIndex={-1}
        className="text-balance text-3xl font-extrabold tracking-tight text-stone-900 outline-none dark:text-white"
      >
        {title}
      </h1>
      {subtitle !== undefined && (
        <p className="mt-2 text-pretty text-base leading-relaxed text-stone-600 dark:text-stone-300">{subtitle}</p>
      )}
    </div>
  );
}

/** The white card that holds a form or a message. */
export function ScreenCard({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      className={cx(
        'rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-900/6 sm:p-6 dark:bg-stone-900 dark:ring-white/8',
        className,
      )}
    >
      {children}
    </div>
  );
}

/** An inline message: an error (role=alert) or a confirmation (role=status). */
export function InlineMessage({ tone, children }: { tone: 'error' | 'success'; children: ReactNode }) {
  const Icon = tone === 'error' ? AlertCircleIcon : CheckCircleIcon;
  return (
    <p
      role={tone === 'error' ? 'alert' : 'status'}
      className={cx(
        'flex items-start gap-2.5 rounded-2xl px-4 py-3 text-sm font-medium ring-1 ring-inset',
        tone === 'error'
          ? 'bg-red-50 text-red-800 ring-red-200 dark:bg-red-500/10 dark:text-red-200 dark:ring-red-400/25'
          : 'bg-emerald-50 text-emerald-900 ring-emerald-200 dark:bg-emerald-500/10 dark:text-emerald-100 dark:ring-emerald-400/25',
      )}
    >
      <Icon className="mt-0.5 size-4.5 shrink-0" />
      <span>{children}</span>
    </p>
  );
}

/** "¿Necesitas ayuda?" with the support address (spec 000 §2: support contact). */
export function SupportContact({ className }: { className?: string }) {
  return (
    <p className={cx('text-pretty text-center text-sm leading-relaxed text-stone-600 dark:text-stone-400', className)}>
      <MailIcon className="mr-1.5 inline size-4 align-[-3px]" />
      ¿Necesitas ayuda? Escríbenos a{' '}
      <a
        href={`mailto:${SUPPORT_EMAIL}`}
        className="rounded font-semibold text-brand-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-400"
      >
        {SUPPORT_EMAIL}
      </a>
    </p>
  );
}
