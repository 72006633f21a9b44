/**
 * Quedada times are Madrid wall-clock times (the product's zone), whatever zone the device is in:
 * the form's day and hour are read as Madrid time and sent as an instant; cards print instants
 * back in Madrid time.
 */
import { LOCALE, longSpanishDate, madridDaysBetween, TIME_ZONE } from '../time/madrid-calendar.ts';

const parts = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Madrid's offset from UTC at an instant, in minutes (60 in winter, 120 in summer). */
function madridOffsetMinutes(instantMs: number): number {
  const values: Record<string, number> = {};
  for (const part of parts.formatToParts(instantMs)) {
    if (part.type !== 'literal') values[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(
    values.year ?? 0,
    (values.month ?? 1) - 1,
    values.day ?? 1,
    values.hour ?? 0,
    values.minute ?? 0,
  );
  return Math.round((asUtc - Math.floor(instantMs / 60_000) * 60_000) / 60_000);
}

/**
 * The instant of a Madrid day ("2026-03-12") and time ("18:30"), or null when either is not
 * well formed. In the hour skipped in spring the result lands an hour later, as clocks do.
 */
export function madridLocalToInstant(day: string, time: string): Date | null {
  const dayMatch = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const timeMatch = /^(\d{2}):(\d{2})$/.exec(time);
  if (!dayMatch || !timeMatch) return null;
  const [hour, minute] = [Number(timeMatch[1]), Number(timeMatch[2])];
  if (hour > 23 || minute > 59) return null;
  const [year, month, date] = [Number(dayMatch[1]), Number(dayMatch[2]), Number(dayMatch[3])];
  const wall = Date.UTC(year, month - 1, date, hour, minute);
  // Date.UTC rolls "2026-13-01" over into the next year; a real day survives the round trip.
  const check = new Date(wall);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
  let instant = wall - madridOffsetMinutes(wall) * 60_000;
  instant = wall - madridOffsetMinutes(instant) * 60_000;
  return new Date(instant);
}

/** The Madrid day ("YYYY-MM-DD") and time ("HH:mm") of an instant: what the form shows. */
export function instantToMadridLocal(value: Date | string): { day: string; time: string } {
  const values: Record<string, string> = {};
  for (const part of parts.formatToParts(new Date(value))) values[part.type] = part.value;
  return { day: `${values.year}-${values.month}-${values.day}`, time: `${values.hour}:${values.minute}` };
}

const whenFormat = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const shortFormat = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "jueves, 12 de marzo, 18:00" */
export function quedadaWhen(value: Date | string | number): string {
  return whenFormat.format(new Date(value));
}

/** "jue, 12 mar, 18:00" */
export function quedadaWhenShort(value: Date | string): string {
  return shortFormat.format(new Date(value));
}

const weekdayFormat = new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, weekday: 'long' });

/** The day of a planned session as a sentence says it: "hoy", "mañana", "el lunes", "el 7 de diciembre". */
export function plannedDayText(startsAt: Date | string, now: Date): string {
  const days = madridDaysBetween(now, startsAt);
  if (days <= 0) return 'hoy';
  if (days === 1) return 'mañana';
  if (days < 7) return `el ${weekdayFormat.format(new Date(startsAt))}`;
  return `el ${longSpanishDate(startsAt, now)}`;
}

/**
 * Why "Proponer entreno" is disabled (issue #34), said beside it: one quedada at a time per pair
 * (docs/decisions/0029). An accepted one: «Ya tenéis un entreno el lunes»; one still being agreed:
 * «Ya hay un entreno propuesto para el lunes».
 */
export function busyReasonText(quedada: { status: string; startsAt: string }, now: Date): string {
  const day = plannedDayText(quedada.startsAt, now);
  return quedada.status === 'accepted' ? `Ya tenéis un entreno ${day}` : `Ya hay un entreno propuesto para ${day}`;
}

/** "1 h 30 min", "45 min", "2 h" */
export function durationText(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

const SLOT_DAY_INDEX: Record<string, number> = {
  Domingo: 0,
  Lunes: 1,
  Martes: 2,
  Miércoles: 3,
  Jueves: 4,
  Viernes: 5,
  Sábado: 6,
};
/** The hour a "mañana" or "tarde" slot suggests. */
const SLOT_HOURS: Record<string, string> = { mañana: '09:00', tarde: '18:30' };

/**
 * The next occurrences of availability slots ("Martes tarde") in the coming week, soonest first,
 * as Madrid day and time: the form's first suggestions.
 */
export function nextSlotTimes(
  slots: readonly string[],
  now: Date,
  limit = 4,
): { day: string; time: string; slot: string }[] {
  const found: { day: string; time: string; slot: string; at: number }[] = [];
  for (let offset = 0; offset <= 7; offset += 1) {
    const date = new Date(now.getTime() + offset * 86_400_000);
    const { day } = instantToMadridLocal(date);
    const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
    for (const slot of slots) {
      const [dayName, part] = slot.split(' ');
      if (!dayName || !part || SLOT_DAY_INDEX[dayName] !== weekday) continue;
      const time = SLOT_HOURS[part] ?? '18:30';
      const at = madridLocalToInstant(day, time)?.getTime() ?? 0;
      if (at > now.getTime() + 3_600_000) found.push({ day, time, slot, at });
    }
  }
  return found
    .sort((a, b) => a.at - b.at)
    .slice(0, limit)
    .map(({ day, time, slot }) => ({ day, time, slot }));
}

/** Tomorrow at 18:30 in Madrid: a planning form's starting point when nothing better is known. */
export function defaultStartLocal(now: Date): { day: string; time: string } {
  return { day: instantToMadridLocal(new Date(now.getTime() + 86_400_000)).day, time: '18:30' };
}
