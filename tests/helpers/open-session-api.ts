import { randomUUID } from 'node:crypto';
import { DAY } from './test-clock.ts';

/**
 * A valid `POST /api/open-sessions` body (docs/decisions/0055): leg day at Altafit Argüelles two
 * days after `now`, an hour, all levels, two places, for people nearby, first come; plus overrides.
 */
export function openSessionBody(now: Date, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    clientId: randomUUID(),
    gymName: 'Altafit Argüelles',
    gymAddress: 'Calle de la Princesa 50, Madrid',
    startsAt: new Date(now.getTime() + 2 * DAY).toISOString(),
    durationMin: 60,
    activity: 'Pierna',
    level: 'all',
    places: 2,
    visibility: 'nearby',
    approval: 'first',
    ...overrides,
  };
}
