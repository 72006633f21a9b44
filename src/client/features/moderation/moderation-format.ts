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
