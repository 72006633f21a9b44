/**
 * iCalendar files (RFC 5545) for a training session: a quedada's, an open session's. Written here
 * rather than by a library so that every TEXT property is escaped the same way (`icalText`).
 */
/**
 * A TEXT value as RFC 5545 §3.3.11 writes it: backslash, semicolon and comma escaped, a line
 * break as `\n`. People type these fields, and a raw CR or LF would end the property and start
 * another (a second VEVENT, a rewritten SUMMARY): every TEXT property of the file goes through
 * here. The inputs refuse control characters already (quedada and open-session schemas); should one reach this
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

/** One session as a calendar shows it. */
export type CalendarEvent = {
  /** Stable across changes, so a calendar updates the event instead of adding one: `quedada-<id>@entreno.app`. */
  uid: string;
  /** The PRODID's product: `Quedadas`, `Entrenos abiertos`. */
  product: string;
  /** Grows with each change of the session. */
  sequence: number;
  changedAt: Date;
  startsAt: Date;
  durationMin: number;
  summary: string;
  description: string;
  location: string;
  url: string;
  /** The alarm's text and how long before the start it rings. */
  alarm: { text: string; minutesBefore: number };
};

/**
 * The `.ics` of one session: the start as a UTC instant (every calendar shows it in its own zone,
 * so a Madrid session is right wherever the phone is), its duration, and a display alarm.
 */
export function calendarFile(event: CalendarEvent): string {
  const hours = Math.floor(event.durationMin / 60);
  const minutes = event.durationMin % 60;
  const properties = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//Entreno//${event.product}//ES`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${utc(event.changedAt)}`,
    `DTSTART:${utc(event.startsAt)}`,
    `DURATION:PT${hours ? `${hours}H` : ''}${minutes || !hours ? `${minutes}M` : ''}`,
    `SUMMARY:${icalText(event.summary)}`,
    `DESCRIPTION:${icalText(event.description)}`,
    `LOCATION:${icalText(event.location)}`,
    `URL:${event.url}`,
    'STATUS:CONFIRMED',
    'TRANSP:OPAQUE',
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    `DESCRIPTION:${icalText(event.alarm.text)}`,
    `TRIGGER:-PT${event.alarm.minutesBefore}M`,
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${properties.map(foldLine).join('\r\n')}\r\n`;
}
