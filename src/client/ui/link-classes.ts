/** An inline text link in the brand colour, readable on light and dark surfaces. */
export const textLinkClasses =
  'rounded font-semibold text-brand-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:text-brand-400 dark:focus-visible:outline-brand-400';
