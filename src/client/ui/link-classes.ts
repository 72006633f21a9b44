/** An inline text link in the brand colour, readable on light and dark surfaces. */
export const textLinkClasses =
  'rounded font-semibold text-brand-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:text-brand-400 dark:focus-visible:outline-brand-400';

/** The round «Volver a …» arrow at the start of a screen's title row (it carries its own aria-label). */
export const backLinkClasses =
  '-ml-2 grid size-10 shrink-0 place-items-center rounded-full text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-200 dark:hover:bg-white/8';
