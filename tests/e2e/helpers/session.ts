import { expect, type Page } from '@playwright/test';

/**
 * Signs `account` in through the API and stores the session where the app keeps a remembered one
 * (token and user in local storage), for every page of the context: journeys that are not about
 * signing in skip the login form, which auth-session.spec.ts and login-screen.spec.ts cover.
 * `origin` is another server than the suite's (the seeded demo server). Resolves with the token.
 */
export async function storeSession(
  page: Page,
  account: { email: string; password: string },
  origin = '',
): Promise<string> {
  const response = await page.request.post(`${origin}/api/auth/login`, {
    data: { email: account.email, password: account.password, rememberMe: true },
  });
  expect(response.status(), await response.text()).toBe(200);
  const { token, user } = (await response.json()) as { token: string; user: unknown };
  await page.context().addInitScript(
    ({ token, stored }) => {
      if (!window.localStorage.getItem('token')) {
        window.localStorage.setItem('token', token);
        window.localStorage.setItem('user', stored);
      }
    },
    { token, stored: JSON.stringify(user) },
  );
  return token;
}
