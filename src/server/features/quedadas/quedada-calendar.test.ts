import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { Quedada } from '#shared/quedadas/quedada-schemas';
import { foldLine, icalText } from '../../infra/icalendar.ts';
import { quedadaCalendar } from './quedada-calendar.ts';

const base: Quedada = {
  _id: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  conversationId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  proposerId: 'a',
  proposedBy: 'a',
  status: 'accepted',
  gymName: 'McFit',
  gymAddress: null,
  startsAt: '2026-03-12T18:30:00.000Z',
  durationMin: 90,
  activity: 'Pierna',
  note: null,
  history: [],
  cancelledBy: null,
  isLateCancel: false,
  confirmations: {},
  version: 3,
  clientId: 'c1',
  createdAt: '2026-03-10T09:00:00.000Z',
  updatedAt: '2026-03-10T09:05:00.000Z',
};

const options = { otherName: 'Carla', reminderMinutes: 120, url: 'https://entreno.example/messages/x' };

/** The file as a calendar reads it: its VEVENTs (and the first one's alarm). */
const parse = (ics: string) => {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const events = calendar.getAllSubcomponents('vevent');
  const [event] = events;
  return {
    events,
    summary: event?.getFirstPropertyValue('summary'),
    description: event?.getFirstPropertyValue('description'),
    location: event?.getFirstPropertyValue('location'),
    alarm: event?.getFirstSubcomponent('valarm')?.getFirstPropertyValue('description'),
  };
};

/** What the text becomes when it reaches the file (control characters: a CR as a line break, the others dropped). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the same rule as icalText's.
const asWritten = (text: string) => text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '');

describe('the .ics of a quedada (RFC 5545)', () => {
  it('escapes TEXT as §3.3.11 says', () => {
    expect(icalText('a\\b;c,d\ne')).toBe('a\\\\b\\;c\\,d\\ne');
    expect(icalText('Nota\rEND:VEVENT\rBEGIN:VEVENT\rSUMMARY:X')).toBe('Nota\\nEND:VEVENT\\nBEGIN:VEVENT\\nSUMMARY:X');
  });

  it('folds at 75 octets without splitting a character', () => {
    const line = `DESCRIPTION:${'ñ'.repeat(100)}💪${'a'.repeat(80)}`;
    const folded = foldLine(line);
    for (const part of folded.split('\r\n')) expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(line);
  });

  it('a bare carriage return in a note starts no second event', () => {
    const ics = quedadaCalendar({ ...base, note: 'Nota\rEND:VEVENT\r\nBEGIN:VEVENT\rSUMMARY:X' }, options);
    const parsed = parse(ics);
    expect(parsed.events).toHaveLength(1);
    expect(parsed.summary).toBe('Entreno con Carla · Pierna');
    expect(parsed.description).toContain('Nota\nEND:VEVENT\nBEGIN:VEVENT\nSUMMARY:X');
  });

  it('whatever the text, the file parses to exactly one VEVENT with the fields sent', () => {
    const anyText = fc.string({ unit: 'binary', minLength: 1, maxLength: 120 });
    fc.assert(
      fc.property(
        anyText,
        anyText,
        anyText,
        fc.option(anyText),
        fc.option(anyText),
        (gymName, activity, otherName, address, note) => {
          const quedada = { ...base, gymName, activity, gymAddress: address, note };
          const parsed = parse(quedadaCalendar(quedada, { ...options, otherName }));
          expect(parsed.events).toHaveLength(1);
          expect(parsed.summary).toBe(asWritten(`Entreno con ${otherName} · ${activity}`));
          expect(parsed.location).toBe(asWritten(address ? `${gymName}, ${address}` : gymName));
          expect(parsed.description).toMatch(/^Entreno con /);
          if (note) expect((parsed.description as string).endsWith(`\n${asWritten(note)}`)).toBe(true);
          expect(parsed.alarm).toBe(asWritten(`Entreno con ${otherName} en ${gymName}`));
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);
});
