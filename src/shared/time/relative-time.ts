/**
 * The Spanish relative dates of spec 001 (§2 notification cards, §9 relative time). Every
 * function takes `now`, so the same instant always reads the same; an invalid date reads "".
 */
import {
  type DateInput,
  LOCALE,
  longSpanishDate,
  madridClock,
  madridDaysBetween,
  TIME_ZONE,
  toDate,
} from './madrid-calendar.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const shortDateFormat = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

function plural(count: number, singular: string, pluralForm: string): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

function elapsed(value: DateInput, now: DateInput): number | null {
  const date = toDate(value).getTime();
  const current = toDate(now).getTime();
  return Number.isNaN(date) || Number.isNaN(current) ? null : current - date;
}

/**
 * Relative time in lists (conversations, matches): "Ahora", "Hace 5 min", "Hace 3 h", "Ayer",
 * "Hace 4 días", "Hace 2 semanas" (up to 30 days), then "21/11/2024". Under 24 hours the hours are
 * the more precise answer; from then on it counts Madrid calendar days, so "Ayer" means yesterday.
 */
export function listRelativeTime(value: DateInput, now: DateInput): string {
  const ms = elapsed(value, now);
  if (ms === null) return '';
  // A timestamp slightly ahead of this device's clock is "now", not the future.
  if (ms < MINUTE_MS) return 'Ahora';
  if (ms < HOUR_MS) return `Hace ${Math.floor(ms / MINUTE_MS)} min`;
  const days = madridDaysBetween(value, now);
  if (ms < DAY_MS || days < 1) return `Hace ${Math.floor(ms / HOUR_MS)} h`;
  if (days === 1) return 'Ayer';
  if (days < 7) return `Hace ${days} días`;
  if (days <= 30) return `Hace ${plural(Math.floor(days / 7), 'semana', 'semanas')}`;
  return shortDateFormat.format(toDate(value));
}

/**
 * Relative time of a notification: "Hace un momento", "Hace 5 minutos", "Hace 3 horas",
 * "Hace 2 días" (up to 6 days), then "21 de noviembre" (with the year when it is not this year).
 */
export function notificationRelativeTime(value: DateInput, now: DateInput): string {
  const ms = elapsed(value, now);
  if (ms === null) return '';
  if (ms < MINUTE_MS) return 'Hace un momento';
  if (ms < HOUR_MS) return `Hace ${plural(Math.floor(ms / MINUTE_MS), 'minuto', 'minutos')}`;
  if (ms < DAY_MS) return `Hace ${plural(Math.floor(ms / HOUR_MS), 'hora', 'horas')}`;
  const days = Math.floor(ms / DAY_MS);
  if (days <= 6) return `Hace ${plural(days, 'día', 'días')}`;
  return longSpanishDate(value, now);
}

/**
 * The date line of a notification card (spec 001 §2): "Hoy a las 09:05", "Ayer a las 23:40",
 * otherwise "21 de noviembre", with the year only when it is not the current year.
 */
export function notificationDateText(value: DateInput, now: DateInput): string {
  if (elapsed(value, now) === null) return '';
  const days = madridDaysBetween(value, now);
  if (days === 0) return `Hoy a las ${madridClock(value)}`;
  if (days === 1) return `Ayer a las ${madridClock(value)}`;
  return longSpanishDate(value, now);
}
