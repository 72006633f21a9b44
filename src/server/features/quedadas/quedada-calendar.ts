import { createEvent } from 'ics';
import type { Quedada } from '#shared/quedadas/quedada-schemas';
import { quedadaWhen } from '#shared/quedadas/quedada-time';

/**
 * The `.ics` of an accepted quedada (issue #21, docs/decisions/0029), made with `ics`: the start
 * as a UTC instant (every calendar shows it in its own zone, so a Madrid session is right
 * wherever the phone is), the gym and its address as the location, and a display alarm at the
 * user's reminder time. The description also states the Madrid time in words.
 */
export function quedadaCalendar(
  quedada: Quedada,
  options: { otherName: string; reminderMinutes: number; url: string },
): string {
  const startMs = new Date(quedada.startsAt).getTime();
  const location = quedada.gymAddress ? `${quedada.gymName}, ${quedada.gymAddress}` : quedada.gymName;
  const when = `${quedadaWhen(startMs)} (hora de Madrid)`;
  const lines = [`Entreno con ${options.otherName}: ${quedada.activity}.`, when];
  if (quedada.note) lines.push(quedada.note);
  const { error, value } = createEvent({
    uid: `quedada-${quedada._id}@entreno.app`,
    productId: 'entreno/quedadas',
    start: startMs,
    startInputType: 'utc',
    startOutputType: 'utc',
    duration: { hours: Math.floor(quedada.durationMin / 60), minutes: quedada.durationMin % 60 },
    title: `Entreno con ${options.otherName} · ${quedada.activity}`,
    description: lines.join('\n'),
    location,
    url: options.url,
    status: 'CONFIRMED',
    busyStatus: 'BUSY',
    alarms: [
      {
        action: 'display',
        description: `Entreno con ${options.otherName} en ${quedada.gymName}`,
        trigger: { minutes: options.reminderMinutes, before: true },
      },
    ],
  });
  if (error || !value) throw error ?? new Error('ics: no calendar produced');
  return value;
}
