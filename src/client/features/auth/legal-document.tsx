import type { ReactNode } from 'react';
import { usePageTitle } from '../../ui/use-page-title.ts';

export type LegalSection = { title: string; body: ReactNode };

/** A readable legal text: title, date, short summary and numbered sections with their own anchors. */
export function LegalDocument({
  title,
  updated,
  summary,
  sections,
}: {
  title: string;
  updated: string;
  summary: ReactNode;
  sections: readonly LegalSection[];
}) {
  usePageTitle(title);
  return (
    <article className="flex flex-col gap-8">
      <header>
        <p className="text-sm font-semibold uppercase tracking-wider text-brand-700 dark:text-brand-400">Entreno</p>
        <h1 className="mt-2 text-balance text-3xl font-extrabold tracking-tight text-stone-900 sm:text-4xl dark:text-white">
          {title}
        </h1>
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">Última actualización: {updated}</p>
        <div className="mt-6 rounded-3xl bg-brand-50 p-5 text-[0.9375rem] leading-relaxed text-brand-950 ring-1 ring-inset ring-brand-200/70 sm:p-6 dark:bg-brand-500/10 dark:text-brand-50 dark:ring-brand-500/25">
          {summary}
        </div>
      </header>
      <nav
        aria-label="Índice"
        className="rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8"
      >
        <ol className="grid gap-1.5 text-[0.9375rem] sm:grid-cols-2">
          {sections.map((section, index) => (
            <li key={section.title}>
              <a
                href={`#seccion-${index + 1}`}
                className="rounded font-medium text-stone-700 underline-offset-4 hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-300 dark:hover:text-brand-400"
              >
                {index + 1}. {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section, index) => (
        <section
          key={section.title}
          id={`seccion-${index + 1}`}
          aria-labelledby={`titulo-${index + 1}`}
          className="scroll-mt-20"
        >
          <h2 id={`titulo-${index + 1}`} className="text-xl font-bold tracking-tight text-stone-900 dark:text-white">
            {index + 1}. {section.title}
          </h2>
          <div className="mt-3 flex flex-col gap-3 text-pretty text-base leading-relaxed text-stone-700 dark:text-stone-300 [&_a]:font-semibold [&_a]:text-brand-700 [&_a]:underline-offset-4 hover:[&_a]:underline dark:[&_a]:text-brand-400 [&_li]:ml-5 [&_ul]:list-disc [&_ul]:flex [&_ul]:flex-col [&_ul]:gap-1.5 [&_strong]:font-semibold [&_strong]:text-stone-900 dark:[&_strong]:text-white">
            {section.body}
          </div>
        </section>
      ))}
    </article>
  );
}
