import { randomUUID } from 'node:crypto';
import type { Quedada } from '#shared/quedadas/quedada-schemas';
import type { DiscoveryApi, TestUser } from './discovery-api.ts';

/** The body of a proposal `hoursAhead` after `now`, with overrides. */
export function proposalBody(conversationId: string, now: Date, overrides: Record<string, unknown> = {}) {
  return {
    clientId: randomUUID(),
    conversationId,
    gymName: 'McFit Madrid Centro',
    gymAddress: 'Calle de Alcalá 21, Madrid',
    startsAt: new Date(now.getTime() + 26 * 3600_000).toISOString(),
    durationMin: 90,
    activity: 'Pierna',
    note: 'Llevo la cuerda',
    ...overrides,
  };
}

/** Calls of /api/quedadas as one user. */
export function quedadaCalls(api: DiscoveryApi) {
  return {
    propose: (user: TestUser, body: unknown) => api.post('/quedadas', body, user.token),
    act: (user: TestUser, quedadaId: string, body: Record<string, unknown>) =>
      api.post(`/quedadas/${quedadaId}/actions`, { clientId: randomUUID(), ...body }, user.token),
    list: (user: TestUser, conversationId: string) => api.get(`/quedadas?conversationId=${conversationId}`, user.token),
    quedadaOf: (response: { body: Record<string, unknown> }) => response.body.quedada as Quedada,
  };
}
