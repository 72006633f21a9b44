import { type OpenSession, openSessionLevelLabel } from '#shared/open-sessions/open-session-schemas';
import { quedadaWhen } from '#shared/quedadas/quedada-time';
import { calendarFile } from '../../infra/icalendar.ts';

/**
 * The `.ics` of an open session for one of its people (issue #35): whose session, what, when in
 * Madrid's words, the note; the gym and its address as the location; an alarm when the reminder
 * notification comes (`reminderMinutes`). The version is the SEQUENCE, so a changed session
 * replaces the event in a calendar instead of adding one.
 */
export function openSessionCalendar(
  session: OpenSession,
  options: { reminderMinutes: number; url: string; changedAt: Date },
): string {
  const start = new Date(session.startsAt);
  const host = session.myState === 'host' ? 'Tu entreno abierto' : `Entreno abierto de ${session.host.name}`;
  const lines = [
    `${host}: ${session.activity} (${openSessionLevelLabel(session.level)}).`,
    `${quedadaWhen(start.getTime())} (hora de Madrid)`,
  ];
  if (session.note) lines.push(session.note);
  return calendarFile({
    uid: `open-session-${session._id}@entreno.app`,
    product: 'Entrenos abiertos',
    sequence: session.version,
    changedAt: options.changedAt,
    startsAt: start,
    durationMin: session.durationMin,
    summary: `Entreno abierto · ${session.activity}`,
    description: lines.join('\n'),
    location: session.gymAddress ? `${session.gymName}, ${session.gymAddress}` : session.gymName,
    url: options.url,
    alarm: { text: `Entreno abierto en ${session.gymName}`, minutesBefore: options.reminderMinutes },
  });
}
