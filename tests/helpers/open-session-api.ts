import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { OpenSession } from '#shared/open-sessions/open-session-schemas';
import type { DiscoveryApi, TestUser } from './discovery-api.ts';
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

/**
 * Open sessions over HTTP for a test file: `publish` (201 expected) with `openSessionBody` from the
 * file's clock, the file's `defaults` and the call's overrides; `write` posts to
 * `/open-sessions/{path}` with a fresh clientId; `admit` lets people in under host approval.
 */
export function createOpenSessionApi(
  api: Pick<DiscoveryApi, 'post'>,
  now: () => Date,
  defaults: Record<string, unknown> = {},
) {
  const write = (user: TestUser, path: string, body: Record<string, unknown> = {}) =>
    api.post(`/open-sessions/${path}`, { clientId: randomUUID(), ...body }, user.token);
  return {
    async publish(host: TestUser, overrides: Record<string, unknown> = {}): Promise<OpenSession> {
      const response = await api.post(
        '/open-sessions',
        openSessionBody(now(), { ...defaults, ...overrides }),
        host.token,
      );
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return response.body.session as OpenSession;
    },
    write,
    /** Each of `members` asks to join `session` and its host approves them (200 each). */
    async admit(session: OpenSession, host: TestUser, members: readonly TestUser[]): Promise<void> {
      for (const user of members) {
        expect((await write(user, `${session._id}/join`)).status).toBe(200);
        const answer = await write(host, `${session._id}/requests/${user.userId}`, { decision: 'approve' });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      }
    },
  };
}

export type OpenSessionApi = ReturnType<typeof createOpenSessionApi>;
