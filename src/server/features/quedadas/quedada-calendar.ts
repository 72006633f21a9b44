import type { Quedada } from '#shared/quedadas/quedada-schemas';
import { quedadaWhen } from '#shared/quedadas/quedada-time';
import { calendarFile } from '../../infra/icalendar.ts';

/**
 * The `.ics` of an accepted quedada (issue #21, docs/decisions/0029, 0043): the gym and its
 * address as the location, and a display alarm at the user's reminder time. The description also
 * states the Madrid time in words.
 */
export function quedadaCalendar(
  quedada: Quedada,
  options: { otherName: string; reminderMinutes: number; url: string },
): string {
  const start = new Date(quedada.startsAt);
  const lines = [
    `Entreno con ${options.otherName}: ${quedada.activity}.`,
    `${quedadaWhen(start.getTime())} (hora de Madrid)`,
  ];
  if (quedada.note) lines.push(quedada.note);
  return calendarFile({
    uid: `quedada-${quedada._id}@entreno.app`,
    product: 'Quedadas',
    sequence: quedada.version,
    changedAt: new Date(quedada.updatedAt),
    startsAt: start,
    durationMin: quedada.durationMin,
    summary: `Entreno con ${options.otherName} · ${quedada.activity}`,
    description: lines.join('\n'),
    location: quedada.gymAddress ? `${quedada.gymName}, ${quedada.gymAddress}` : quedada.gymName,
    url: options.url,
    alarm: { text: `Entreno con ${options.otherName} en ${quedada.gymName}`, minutesBefore: options.reminderMinutes },
  });
}
