import type { ReactNode } from 'react';
import { SparklesIcon } from './icons.tsx';
import { usePageTitle } from './use-page-title.ts';

export type PagePlaceholderProps = {
  title: string;
  icon: ReactNode;
  /** What this screen will do, in a sentence or two. */
  description: ReactNode;
  /** What is coming, as a short list. */
  upcoming?: readonly string[];
  /** Links or controls that already work. */
  children?: ReactNode;
};

/**
 * An honest stand-in for a screen still being built: its title, what it will do and what is
 * coming, so a person trying the app knows it is on the way and not broken.
 */
export function PagePlaceholder({ title, icon, description, upcoming, children }: PagePlaceholderProps) {
  usePageTitle(title);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl dark:text-white">{title}</h1>
      <section className="relative overflow-hidden rounded-3xl bg-white p-6 shadow-sm ring-1 ring-stone-900/6 sm:p-8 dark:bg-stone-900 dark:ring-white/8">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -right-16 -top-16 size-56 rounded-full bg-brand-500/12 blur-2xl dark:bg-brand-500/10"
        />
        <div className="@container relative flex flex-col gap-5">
          <div className="flex items-center gap-3">
            <span
              aria-hidden="true"
              className="grid size-13 place-items-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-200 dark:bg-brand-500/12 dark:text-brand-300 dark:ring-brand-500/25"
            >
              {icon}
            </span>
            <span className="inline-flex items-center gap-1.5 rounded-full bg-stone-100 px-3 py-1 text-xs font-bold uppercase tracking-wide text-stone-700 dark:bg-stone-800 dark:text-stone-200">
              <SparklesIcon className="size-3.5 text-brand-700 dark:text-brand-400" />
              Próximamente
            </span>
          </div>
          <p className="max-w-prose text-pretty text-base leading-relaxed text-stone-700 dark:text-stone-200">
            {description}
          </p>
          {upcoming !== undefined && upcoming.length > 0 && (
            <ul className="grid gap-2.5 @lg:grid-cols-2">
              {upcoming.map((item) => (
                <li
                  key={item}
                  className="flex items-start gap-2.5 rounded-2xl bg-stone-50 px-3.5 py-3 text-sm leading-snug text-stone-700 ring-1 ring-stone-900/5 dark:bg-stone-800/60 dark:text-stone-200 dark:ring-white/6"
                >
                  <span aria-hidden="true" className="mt-1.5 size-1.5 shrink-0 rounded-full bg-brand-500" />
                  {item}
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
      {children}
    </div>
  );
}
