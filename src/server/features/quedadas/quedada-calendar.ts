import type { Quedada } from '#shared/quedadas/quedada-schemas';
import { quedadaWhen } from '#shared/quedadas/quedada-time';

/**
 * A TEXT value as RFC 5545 §3.3.11 writes it: backslash, semicolon and comma escaped, a line
 * break as `\n`. People type these fields, and a raw CR or LF would end the property and start
 * another (a second VEVENT, a rewritten SUMMARY): every TEXT property of the file goes through
 * here. The input refuses control characters already (quedada-schemas.ts); should one reach this
 * point anyway, a CR counts as a line break and the other controls (tab aside) are dropped.
 */
export function icalText(value: string): string {
  return (
    value
      .replace(/\r\n?/g, '\n')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: dropping them is the point.
      .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '')
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\n/g, '\\n')
  );
}

const LINE_OCTETS = 75;

/** A content line folded at 75 octets (RFC 5545 §3.1), never inside a UTF-8 sequence. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  // The first line holds 75 octets; each continuation starts with a space, leaving 74.
  let limit = LINE_OCTETS;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
      limit = LINE_OCTETS - 1;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** A UTC DATE-TIME: 20260310T090000Z. */
const utc = (date: Date) => `${date.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

/**
 * The `.ics` of an accepted quedada (issue #21, docs/decisions/0029, 0043): the start as a UTC
 * instant (every calendar shows it in its own zone, so a Madrid session is right wherever the
 * phone is), the gym and its address as the location, and a display alarm at the user's reminder
 * time. The description also states the Madrid time in words. Written here rather than by a
 * library so that every TEXT property is escaped the same way (`icalText`).
 */
export function quedadaCalendar(
  quedada: Quedada,
  options: { otherName: string; reminderMinutes: number; url: string },
): string {
  const start = new Date(quedada.startsAt);
  const location = quedada.gymAddress ? `${quedada.gymName}, ${quedada.gymAddress}` : quedada.gymName;
  const lines = [
    `Entreno con ${options.otherName}: ${quedada.activity}.`,
    `${quedadaWhen(start.getTime())} (hora de Madrid)`,
  ];
  if (quedada.note) lines.push(quedada.note);
  const hours = Math.floor(quedada.durationMin / 60);
  const minutes = quedada.durationMin % 60;
  const properties = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Entreno//Quedadas//ES',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:quedada-${quedada._id}@entreno.app`,
    `SEQUENCE:${quedada.version}`,
    `DTSTAMP:${utc(new Date(quedada.updatedAt))}`,
    `DTSTART:${utc(start)}`,
    `DURATION:PT${hours ? `${hours}H` : ''}${minutes || !hours ? `${minutes}M` : ''}`,
    `SUMMARY:${icalText(`Entreno con ${options.otherName} · ${quedada.activity}`)}`,
    `DESCRIPTION:${icalText(lines.join('\n'))}`,
    `LOCATION:${icalText(location)}`,
    `URL:${options.url}`,
    'STATUS:CONFIRMED',
    'TRANSP:OPAQUE',
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    `DESCRIPTION:${icalText(`Entreno con ${options.otherName} en ${quedada.gymName}`)}`,
    `TRIGGER:-PT${options.reminderMinutes}M`,
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${properties.map(foldLine).join('\r\n')}\r\n`;
}
