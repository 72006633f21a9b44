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

/** Two accounts with profiles who liked each other; returns them and their conversation id. */
export async function matchedPair(request: APIRequestContext) {
  const [a, b] = [
    await signIn(request, await registerAccount(request, { name: 'Lucía' })),
    await signIn(request, await registerAccount(request, { name: 'Marcos' })),
  ];
  for (const [user, name] of [
    [a, 'Lucía'],
    [b, 'Marcos'],
  ] as const) {
    const created = await request.post('/api/profiles', {
      data: profileBody(user.userId, name),
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  await request.post(`/api/swipes/users/${a.userId}/swipe`, {
    data: { target_user_id: b.userId, action: 'like' },
    headers: { authorization: `Bearer ${a.token}` },
  });
  const second = await request.post(`/api/swipes/users/${b.userId}/swipe`, {
    data: { target_user_id: a.userId, action: 'like' },
    headers: { authorization: `Bearer ${b.token}` },
  });
  const swipe = (await second.json()) as { match: boolean; matchData: { conversationId: string } };
  expect(swipe.match).toBe(true);
  return { a, b, conversationId: swipe.matchData.conversationId };
}

/** A browser context already signed in as `user` (token and user in local storage). */
export async function pageFor(browser: Browser, user: SignedIn): Promise<Page> {
  const context = await browser.newContext();
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
