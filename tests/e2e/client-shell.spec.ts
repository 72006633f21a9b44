import { expect, type Page, test } from './helpers/test.ts';
import { DEFAULT_SETTINGS } from '../../src/shared/settings/settings-schema.ts';

/** A token that passes the client check (spec 000 §5); the server is not asked here. */
function clientToken(expiresInS: number): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: 'u1', sid: 's1', iat: now - 60, exp: now + expiresInS })}.c2ln`;
}

async function storeSession(page: Page, token: string, area: 'localStorage' | 'sessionStorage' | 'both') {
  // The signed-in layout asks the server about the session (spec 000 §2), the unread counts and
  // the matches, and /config reads the settings; this made-up token is only meant for the client's
  // own check, so those answers are stood in for. Any other call (a screen's own reads, such as the
  // security or verification state in /config) gets a plain 404: never the 401 that would sign the
  // made-up session out. Routes registered later win, so this catch-all goes first.
  await page.route('**/api/**', (route) =>
    route.fulfill({ status: 404, json: { success: false, message: 'No encontrado' } }),
  );
  await page.route('**/api/appeals/notice', (route) => route.fulfill({ json: { success: true, notice: null } }));
  await page.route('**/api/messages/messages/unread/count', (route) =>
    route.fulfill({ json: { success: true, unreadCount: 0 } }),
  );
  await page.route('**/api/notifications/unread-count', (route) =>
    route.fulfill({ json: { success: true, count: 0 } }),
  );
  await page.route('**/api/swipes/users/*/matches', (route) =>
    route.fulfill({ json: { success: true, message: '', matches: [] } }),
  );
  // The leading tab catches up with the server at start-up (services/sync.ts).
  await page.route('**/api/sync?**', (route) =>
    route.fulfill({
      json: { success: true, cursor: '0', hasMore: false, conversations: [], removedConversationIds: [], messages: [] },
    }),
  );
  await page.route('**/api/settings', (route) =>
    route.fulfill({ json: { success: true, settings: DEFAULT_SETTINGS } }),
  );
  await page.route('**/api/auth/validate-session', (route) =>
    route.fulfill({
      json: {
        success: true,
        user: {
          userId: 'u1',
          name: 'Ana',
          lastName: '',
          email: 'ana@example.com',
          phone: null,
          createdAt: '2025-01-01T00:00:00.000Z',
          completeProfile: false,
          streak: 1,
          lastLoginDate: null,
        },
      },
    }),
  );
  await page.goto('/terms');
  await page.evaluate(
    ([value, where]) => {
      const areas =
        where === 'both' ? [localStorage, sessionStorage] : [where === 'localStorage' ? localStorage : sessionStorage];
      for (const storage of areas) {
        storage.setItem('token', value);
        storage.setItem('user', JSON.stringify({ userId: 'u1', name: 'Ana', email: 'ana@example.com' }));
      }
    },
    [token, area] as const,
  );
}

test('an expired token is cleared from both storages and the user goes to /login', async ({ page }) => {
  await storeSession(page, clientToken(-60), 'both');
  await page.goto('/matches');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  const left = await page.evaluate(() => [
    localStorage.getItem('token'),
    localStorage.getItem('user'),
    sessionStorage.getItem('token'),
    sessionStorage.getItem('user'),
  ]);
  expect(left).toEqual([null, null, null, null]);
});

test('a malformed token is treated like an expired one', async ({ page }) => {
  await storeSession(page, 'not.a-valid.token!', 'localStorage');
  await page.goto('/home');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('with a valid token / goes to /home inside the signed-in layout', async ({ page }) => {
  await storeSession(page, clientToken(3600), 'sessionStorage');
  await page.goto('/');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { name: 'Conectar', level: 1 })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Navegación principal' });
  for (const label of ['Conectar', 'Entrenamientos', 'Mensajes', 'Notificaciones', 'Configuración']) {
    await expect(nav.getByRole('link', { name: label })).toBeVisible();
  }
  await page.route('**/api/messages/conversations?*', (route) =>
    route.fulfill({
      json: { success: true, conversations: [], pagination: { page: 1, limit: 10, total: 0, hasMore: false } },
    }),
  );
  await nav.getByRole('link', { name: 'Mensajes' }).click();
  await expect(page).toHaveURL(/\/messages$/);
  await expect(page.getByRole('heading', { name: 'Mensajes', level: 1 })).toBeVisible();
});

test('without a token / shows the login screen', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  await expect(page.getByText('Inicia sesión para conectar!')).toBeVisible();
});

test('the theme follows the stored choice and, with "system", the device live', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/login');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/dark/);

  await page.evaluate(() => localStorage.setItem('theme', 'light'));
  await page.reload();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
});

test('the theme picker in settings stores the choice under "theme"', async ({ page }) => {
  await storeSession(page, clientToken(3600), 'localStorage');
  await page.goto('/config');
  await page.getByRole('radio', { name: 'Oscuro' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
  await page.getByRole('radio', { name: 'Claro' }).click();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
});

test('the reset link keeps its parameters exactly as sent', async ({ page }) => {
  await page.goto('/reset-password?token=123e4&email=ana%2Bgym%40example.com');
  await expect(page.getByText('ana+gym@example.com', { exact: false })).toBeVisible();
});

test('pages load with no Content-Security-Policy violation', async ({ page }) => {
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = violations;
    document.addEventListener('securitypolicyviolation', (event) => violations.push(event.violatedDirective));
  });
  for (const path of ['/', '/login', '/register', '/unauthorized', '/matches', '/esto-no-existe', '/dev/ui']) {
    await page.goto(path);
    await expect(page.locator('h1')).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  }
});

test('the journey guard fails a test that causes a Content-Security-Policy violation', async ({ page }) => {
  // Every journey runs under helpers/test.ts's guard; this one must fail, proving the guard can.
  test.fail();
  await page.goto('/');
  await expect(page.locator('h1')).toBeVisible();
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.body.append(script);
  });
  await expect.poll(() => page.evaluate(() => 'injected' in window)).toBe(false);
});
