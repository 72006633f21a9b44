import type { ReactNode } from 'react';
import { SparklesIcon } from './icons.tsx';
import { usePageTitle } from './use-page-title.ts';

export type AuthPlaceholderProps = {
  title: string;
  /** A line under the title, such as the login tagline. */
  subtitle?: ReactNode;
  icon: ReactNode;
  /** What this screen will do. */
  description: ReactNode;
  /** Links that already work (to other access screens). */
  children?: ReactNode;
};

/** An honest stand-in for an access screen still being built, sized for the auth layout. */
export function AuthPlaceholder({ title, subtitle, icon, description, children }: AuthPlaceholderProps) {
  usePageTitle(title);
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col items-center text-center lg:items-start lg:text-left">
        <span
          aria-hidden="true"
          className="mb-5 grid size-14 place-items-center rounded-2xl bg-white text-brand-700 shadow-md ring-1 ring-stone-900/5 dark:bg-stone-800 dark:text-brand-400 dark:ring-white/10"
        >
          {icon}
        </span>
        <h1 className="text-balance text-3xl font-extrabold tracking-tight text-stone-900 dark:text-white">{title}</h1>
        {subtitle !== undefined && <p className="mt-2 text-base text-stone-600 dark:text-stone-300">{subtitle}</p>}
      </div>
      <div className="rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-900/6 sm:p-6 dark:bg-stone-900 dark:ring-white/8">
        <span className="inline-flex items-center gap-1.5 rounded-full bg-stone-100 px-3 py-1 text-xs font-bold uppercase tracking-wide text-stone-700 dark:bg-stone-800 dark:text-stone-200">
          <SparklesIcon className="size-3.5 text-brand-700 dark:text-brand-400" />
          Próximamente
        </span>
        <p className="mt-3 text-pretty text-[0.9375rem] leading-relaxed text-stone-700 dark:text-stone-200">
          {description}
        </p>
      </div>
      {children !== undefined && <div className="flex flex-col gap-4">{children}</div>}
    </div>
  );
}
