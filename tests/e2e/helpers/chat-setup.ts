/** Two matched users and signed-in pages for them (chat.spec.ts, offline.spec.ts). */
import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';
import { type Account, registerAccount } from './accounts.ts';

export type SignedIn = Account & { token: string; user: unknown };

export async function signIn(request: APIRequestContext, account: Account): Promise<SignedIn> {
  const response = await request.post('/api/auth/login', {
    data: { email: account.email, password: account.password, rememberMe: true },
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { token: string; user: unknown };
  return { ...account, token: body.token, user: body.user };
}

export function profileBody(
  userId: string,
  name: string,
  location: { latitude: number; longitude: number; city?: string } = {
    latitude: 40.4168,
    longitude: -3.7038,
    city: 'Madrid',
  },
) {
  return {
    userId,
    name,
    birthDate: '1995-05-20',
    bio: 'Entreno fuerza cuatro días a la semana y busco compañía para las mañanas.',
    gender: 'female',
    location,
    gym: { name: 'Altafit Argüelles', trainingSchedule: ['Mañana'] },
    training: {
      sports: ['Musculación'],
      goals: ['Aumentar fuerza'],
      availability: ['Lunes mañana'],
      experienceLevel: 'intermediate',
      frequency: 4,
    },
    preferences: { gender_preference: 'both', age_range: { min: 18, max: 99 }, distance: 50 },
  };
}

/** A signed-in account with a profile in Madrid. */
export async function userWithProfile(
  request: APIRequestContext,
  name: string,
  location?: Parameters<typeof profileBody>[2],
): Promise<SignedIn> {
  const user = await signIn(request, await registerAccount(request, { name }));
  const created = await request.post('/api/profiles', {
    data: profileBody(user.userId, name, location),
    headers: { authorization: `Bearer ${user.token}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  return user;
}

/** `a` likes (or super-likes) `b`, `b` likes `a` back; returns their conversation id. */
export async function matchUsers(
  request: APIRequestContext,
  a: SignedIn,
  b: SignedIn,
  firstAction: 'like' | 'superlike' = 'like',
): Promise<string> {
  const first = await request.post(`/api/swipes/users/${a.userId}/swipe`, {
    data: { target_user_id: b.userId, action: firstAction },
    headers: { authorization: `Bearer ${a.token}` },
  });
  expect(first.status(), await first.text()).toBe(200);
  const second = await request.post(`/api/swipes/users/${b.userId}/swipe`, {
    data: { target_user_id: a.userId, action: 'like' },
    headers: { authorization: `Bearer ${b.token}` },
  });
  const swipe = (await second.json()) as { match: boolean; matchData: { conversationId: string } };
  expect(swipe.match).toBe(true);
  return swipe.matchData.conversationId;
}

/** Two accounts with profiles who liked each other; returns them and their conversation id. */
export async function matchedPair(request: APIRequestContext) {
  // Two independent sign-ups (each waits for its SMS code in the outbox): side by side.
  const [a, b] = await Promise.all([userWithProfile(request, 'Lucía'), userWithProfile(request, 'Marcos')]);
  return { a, b, conversationId: await matchUsers(request, a, b) };
}

/** Sends a message over HTTP (as another device of `from` would). */
export async function sendMessage(
  request: APIRequestContext,
  from: SignedIn,
  to: SignedIn,
  conversationId: string,
  text: string,
): Promise<void> {
  const response = await request.post('/api/messages/messages', {
    data: { conversationId, receiverId: to.userId, text },
    headers: { authorization: `Bearer ${from.token}` },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/**
 * A browser context already signed in as `user` (token and user in local storage); `baseURL`
 * points it at another server than the suite's (a test's own server process).
 */
export async function pageFor(browser: Browser, user: SignedIn, options: { baseURL?: string } = {}): Promise<Page> {
  const context = await browser.newContext({
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
  });
  await context.addInitScript(
    ({ token, stored }) => {
      if (!window.localStorage.getItem('token')) {
        window.localStorage.setItem('token', token);
        window.localStorage.setItem('user', stored);
      }
    },
    { token: user.token, stored: JSON.stringify(user.user) },
  );
  return context.newPage();
}
