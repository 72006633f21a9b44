import type { ReactNode } from 'react';
import { usePageTitle } from './use-page-title.ts';

export type StatusPageProps = {
  /** A large decorative code such as '404' (hidden from screen readers). */
  code?: string;
  icon: ReactNode;
  title: string;
  description: ReactNode;
  /** Links or buttons under the text. */
  actions?: ReactNode;
  /** Above the card, usually the logo. */
  header?: ReactNode;
};

/** A full-screen page for a state rather than content: not found, unauthorised, broken. */
export function StatusPage({ code, icon, title, description, actions, header }: StatusPageProps) {
  usePageTitle(title);
  return (
    <main className="relative isolate flex min-h-dvh flex-col items-center justify-center overflow-hidden px-6 py-12 text-center">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute left-1/2 top-[18%] -z-10 size-[36rem] -translate-x-1/2 rounded-full bg-brand-500/15 blur-3xl dark:bg-brand-500/12"
      />
      {header !== undefined && <div className="mb-10">{header}</div>}
      <div className="flex w-full max-w-md flex-col items-center">
        <div className="relative mb-7">
          {code !== undefined && (
            <span
              aria-hidden="true"
              className="block select-none bg-gradient-to-b from-brand-500 to-brand-700 bg-clip-text text-[6.5rem] font-black leading-none tracking-tighter text-transparent sm:text-[8rem] dark:from-brand-300 dark:to-brand-600"
            >
              {code}
            </span>
          )}
          <span
            aria-hidden="true"
            className={
              code !== undefined
                ? 'absolute -bottom-3 left-1/2 grid size-14 -translate-x-1/2 place-items-center rounded-2xl bg-white text-brand-700 shadow-lg ring-1 ring-stone-900/5 dark:bg-stone-800 dark:text-brand-400 dark:ring-white/10'
                : 'grid size-20 place-items-center rounded-3xl bg-white text-brand-700 shadow-lg ring-1 ring-stone-900/5 dark:bg-stone-800 dark:text-brand-400 dark:ring-white/10'
            }
          >
            {icon}
          </span>
        </div>
        <h1 className="mt-4 text-balance text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl dark:text-white">
          {title}
        </h1>
        <p className="mt-3 text-pretty text-base leading-relaxed text-stone-600 dark:text-stone-300">{description}</p>
        {actions !== undefined && (
          <div className="mt-8 flex w-full flex-col items-stretch gap-3 sm:w-auto sm:flex-row sm:items-center sm:justify-center">
            {actions}
          </div>
        )}
      </div>
    </main>
  );
}
