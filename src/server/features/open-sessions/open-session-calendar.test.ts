import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { OpenSession } from '#shared/open-sessions/open-session-schemas';
import { openSessionCalendar } from './open-session-calendar.ts';

const session: OpenSession = {
  _id: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  host: { userId: 'h', name: 'Lucía', photo: null, isVerified: true },
  gymName: 'Altafit Argüelles',
  gymAddress: 'Calle de Alberto Aguilera, 142',
  startsAt: '2026-03-12T18:30:00.000Z',
  durationMin: 75,
  activity: 'Pierna',
  level: 'all',
  places: 3,
  taken: 1,
  isFull: false,
  note: 'Traed toalla; hay sitio, de verdad',
  visibility: 'nearby',
  approval: 'host',
  status: 'open',
  distanceText: 'A 2 km',
  myState: 'approved',
  isInvited: false,
  conversationId: null,
  version: 4,
  createdAt: '2026-03-10T09:00:00.000Z',
};

const options = { reminderMinutes: 120, url: 'https://entreno.example/entrenos/abiertos/x', changedAt: new Date(0) };

const event = (ics: string) => {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  expect(calendar.getAllSubcomponents('vevent')).toHaveLength(1);
  return calendar.getFirstSubcomponent('vevent') as ICAL.Component;
};

describe('the .ics of an open session', () => {
  it('says whose session, what and where, starts at the UTC instant and rings at the reminder', () => {
    const vevent = event(openSessionCalendar(session, options));
    expect(vevent.getFirstPropertyValue('summary')).toBe('Entreno abierto · Pierna');
    expect(vevent.getFirstPropertyValue('location')).toBe('Altafit Argüelles, Calle de Alberto Aguilera, 142');
    const description = String(vevent.getFirstPropertyValue('description'));
    expect(description).toContain('Entreno abierto de Lucía: Pierna (Todos los niveles).');
    expect(description).toContain('(hora de Madrid)');
    expect(description).toContain('Traed toalla; hay sitio, de verdad');
    const start = vevent.getFirstPropertyValue('dtstart') as ICAL.Time;
    expect(start.toJSDate().toISOString()).toBe('2026-03-12T18:30:00.000Z');
    expect(String(vevent.getFirstPropertyValue('duration'))).toBe('PT1H15M');
    expect(String(vevent.getFirstPropertyValue('uid'))).toBe(`open-session-${session._id}@entreno.app`);
    expect(vevent.getFirstPropertyValue('sequence')).toBe(4);
    const alarm = vevent.getFirstSubcomponent('valarm');
    expect(String(alarm?.getFirstPropertyValue('trigger'))).toBe('-PT120M');
    expect(alarm?.getFirstPropertyValue('description')).toBe('Entreno abierto en Altafit Argüelles');
  });

  it('is the host’s own session for the host', () => {
    const vevent = event(openSessionCalendar({ ...session, myState: 'host', note: null, gymAddress: null }, options));
    expect(String(vevent.getFirstPropertyValue('description'))).toMatch(/^Tu entreno abierto: Pierna/);
    expect(vevent.getFirstPropertyValue('location')).toBe('Altafit Argüelles');
  });
});
