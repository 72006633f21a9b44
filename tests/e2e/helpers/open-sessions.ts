import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import type { SignedIn } from './chat-setup.ts';
import { expect } from './test.ts';

/**
 * Over HTTP, as the other phones would: `host` publishes an open session (for their matches and
 * first come unless `options` say otherwise; three places, the day after tomorrow) and `member`
 * takes a place (asked and approved, under host approval). Returns the session's id and its group
 * chat's.
 */
export async function sessionWithMember(
  request: APIRequestContext,
  host: SignedIn,
  member: SignedIn,
  {
    approval = 'first',
    visibility = 'matches',
  }: { approval?: 'first' | 'host'; visibility?: 'matches' | 'nearby' } = {},
): Promise<{ sessionId: string; conversationId: string }> {
  const post = (user: SignedIn, path: string, data: Record<string, unknown>) =>
    request.post(`/api/open-sessions${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  const published = await post(host, '', {
    clientId: randomUUID(),
    gymName: 'Altafit Argüelles',
    gymAddress: 'Calle de la Princesa 50, Madrid',
    startsAt: new Date(Date.now() + 2 * 24 * 3600_000).toISOString(),
    durationMin: 60,
    activity: 'Pierna',
    level: 'all',
    places: 3,
    visibility,
    approval,
  });
  expect(published.status(), await published.text()).toBe(201);
  const sessionId = ((await published.json()).session as { _id: string })._id;
  const joined = await post(member, `/${sessionId}/join`, { clientId: randomUUID() });
  expect(joined.status(), await joined.text()).toBe(200);
  if (approval === 'host') {
    const answered = await post(host, `/${sessionId}/requests/${member.userId}`, {
      clientId: randomUUID(),
      decision: 'approve',
    });
    expect(answered.status(), await answered.text()).toBe(200);
  }
  const read = await request.get(`/api/open-sessions/${sessionId}`, {
    headers: { authorization: `Bearer ${host.token}` },
  });
  const conversationId = (await read.json()).session.conversationId as string;
  expect(conversationId).toBeTruthy();
  return { sessionId, conversationId };
}
