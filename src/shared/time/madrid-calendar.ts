/**
 * Calendar arithmetic in the product's time zone. Every date the user reads ("Hoy", "Ayer",
 * separators, ages) is a day in Madrid, whatever zone the device or the server runs in.
 */

export const LOCALE = 'es-ES';
export const TIME_ZONE = 'Europe/Madrid';

const MS_PER_DAY = 86_400_000;

/**
 * A value built on its first use and kept. A DateTimeFormat costs milliseconds to build (its
 * locale's and time zone's data are loaded then), and the app's start formats no date: built at
 * load, these four were most of the login page's start, after its first paint (issue 34).
 */
function builtOnFirstUse<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= build();
    return value;
  };
}

const dayKeyFormat = builtOnFirstUse(
  () => new Intl.DateTimeFormat('en-US', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }),
);
const clockFormat = builtOnFirstUse(
  () => new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
);
const longDateFormat = builtOnFirstUse(
  () => new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, day: 'numeric', month: 'long' }),
);
const longDateWithYearFormat = builtOnFirstUse(
  () => new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, day: 'numeric', month: 'long', year: 'numeric' }),
);

/** A date given as a Date, epoch milliseconds or an ISO string. */
export type DateInput = Date | number | string;

export function toDate(value: DateInput): Date {
  return value instanceof Date ? value : new Date(value);
}

const lastDayKey = { minute: Number.NaN, key: '' };
const SINCE_WHOLE_MINUTE_OFFSETS = Date.UTC(1901, 1, 1);

/** The Madrid calendar day of an instant as "YYYY-MM-DD". */
export function madridDayKey(value: DateInput): string {
  const date = toDate(value);
  // Since 1901 Madrid's day changes on a whole minute (before, local mean time was -0:14:44): the
  // key of the last minute asked is kept (a deck page asks for today's key once per card, and
  // formatToParts costs microseconds each time).
  const minute = date.getTime() >= SINCE_WHOLE_MINUTE_OFFSETS ? Math.floor(date.getTime() / 60_000) : Number.NaN;
  if (minute === lastDayKey.minute) return lastDayKey.key;
  const parts = dayKeyFormat().formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const key = `${part('year')}-${part('month')}-${part('day')}`;
  if (!Number.isNaN(minute)) {
    lastDayKey.minute = minute;
    lastDayKey.key = key;
  }
  return key;
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a "YYYY-MM-DD" calendar day; NaN when it is not a real date. */
export function dayNumber(dayKey: string): number {
  const match = ISO_DAY.exec(dayKey);
  if (!match) return Number.NaN;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  // Date.UTC rolls 02-31 over into March; a real date survives the round trip.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return Number.NaN;
  }
  return ms / MS_PER_DAY;
}

/** Whether a string is a real calendar date written "YYYY-MM-DD". */
export function isIsoDay(value: string): boolean {
  return !Number.isNaN(dayNumber(value));
}

/** How many Madrid calendar days `later` is after `earlier` (0 = same day, 1 = the day before…). */
export function madridDaysBetween(earlier: DateInput, later: DateInput): number {
  return dayNumber(madridDayKey(later)) - dayNumber(madridDayKey(earlier));
}

/** "HH:mm" on a 24-hour clock in Madrid. */
export function madridClock(value: DateInput): string {
  return clockFormat().format(toDate(value));
}

/** "21 de noviembre", plus " de 2023" when the year differs from `now`'s year in Madrid. */
export function longSpanishDate(value: DateInput, now: DateInput): string {
  const date = toDate(value);
  const sameYear = madridDayKey(date).slice(0, 4) === madridDayKey(now).slice(0, 4);
  return (sameYear ? longDateFormat : longDateWithYearFormat)().format(date);
}
