import type { Socket } from 'socket.io-client';
import { expect } from 'vitest';
import type { DiscoveryApi, TestUser } from './discovery-api.ts';

export type MatchedPair = { a: TestUser; b: TestUser; conversationId: string; matchId: string };

/** Two users with profiles who liked each other (a superlike from `a` when asked): their conversation. */
export async function createMatchedPair(
  api: DiscoveryApi,
  options: { names?: [string, string]; isSuperlike?: boolean; a?: TestUser; b?: TestUser } = {},
): Promise<MatchedPair> {
  const [nameA, nameB] = options.names ?? ['Ana', 'Bruno'];
  const a = options.a ?? (await api.userWithProfile({}, nameA));
  const b = options.b ?? (await api.userWithProfile({}, nameB));
  const first = await api.post(
    `/swipes/users/${a.userId}/swipe`,
    { target_user_id: b.userId, action: options.isSuperlike ? 'superlike' : 'like' },
    a.token,
  );
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const second = await api.post(
    `/swipes/users/${b.userId}/swipe`,
    { target_user_id: a.userId, action: 'like' },
    b.token,
  );
  expect(second.body.match, JSON.stringify(second.body)).toBe(true);
  const matchData = second.body.matchData as { conversationId: string; matchId: string };
  // The chat hears of the match after the swipe answers: wait until it is done (its notifications).
  for (const user of [a, b]) {
    await eventually(async () => {
      const listed = await api.get('/notifications?type=match', user.token);
      const notifications = (listed.body.notifications ?? []) as { referenceId: string | null }[];
      return notifications.some((notification) => notification.referenceId === matchData.conversationId);
    });
  }
  return { a, b, conversationId: matchData.conversationId, matchId: matchData.matchId };
}

/** The first `event` whose payload passes `matches` (rejects after a few seconds). */
export function nextEventMatching<T>(
  socket: Socket,
  event: string,
  matches: (payload: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const listener = (payload: T) => {
      if (!matches(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no matching ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on(event, listener);
  });
}

/** Emits with an acknowledgement and resolves with it (rejects after a few seconds). */
export function emitWithAck<T = Record<string, unknown>>(socket: Socket, event: string, payload: unknown): Promise<T> {
  return socket.timeout(5000).emitWithAck(event, payload) as Promise<T>;
}

/** Every event a socket receives, in order, from now on. */
export function recordEvents(socket: Socket): { name: string; payload: unknown }[] {
  const events: { name: string; payload: unknown }[] = [];
  socket.onAny((name: string, payload: unknown) => events.push({ name, payload }));
  return events;
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds (polling), failing after a few seconds. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await pause(20);
  }
}
