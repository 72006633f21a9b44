const DATE_TIME = new Intl.DateTimeFormat('es-ES', {
  timeZone: 'Europe/Madrid',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** A moment as the console shows it: Madrid time, e.g. "25 nov 2026, 12:40". */
export function formatModerationDate(iso: string): string {
  return DATE_TIME.format(new Date(iso));
}

/** The console's card and its heading (the queue, a report's sections). */
export const CONSOLE_CARD = 'rounded-2xl bg-white p-4 ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-white/10';
export const CONSOLE_H2 = 'text-lg font-semibold text-stone-900 dark:text-stone-50';
