import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type APIRequestContext, chromium, expect, type Page, test } from './helpers/test.ts';
import { type Account, outboxFor, registerAccount } from './helpers/accounts.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './helpers/chromium.ts';

// The access area's journeys (spec 000 §2, §4, §8): login, sessions, sign-out, password recovery.

test.use({ geolocation: { latitude: 40.4169, longitude: -3.7035 }, permissions: ['geolocation'] });

type Storages = { local: [string | null, string | null]; session: [string | null, string | null] };

async function storages(page: Page): Promise<Storages> {
  return page.evaluate(() => ({
    local: [localStorage.getItem('token'), localStorage.getItem('user')] as [string | null, string | null],
    session: [sessionStorage.getItem('token'), sessionStorage.getItem('user')] as [string | null, string | null],
  }));
}

async function fillLogin(page: Page, email: string, password: string, options: { rememberMe?: boolean } = {}) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  if (options.rememberMe) await page.getByLabel('Recuérdame').check();
  await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
}

async function signInThroughUi(page: Page, account: Account, options: { rememberMe?: boolean } = {}) {
  await fillLogin(page, account.email, account.password, options);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { name: 'Conectar', level: 1 })).toBeVisible();
}

async function validateSession(request: APIRequestContext, token: string): Promise<number> {
  const response = await request.get('/api/auth/validate-session', { headers: { authorization: `Bearer ${token}` } });
  return response.status();
}

test('sign in without Recuérdame keeps the session in session storage; sign-out clears it and revokes it', async ({
  page,
  request,
}) => {
  const account = await registerAccount(request);
  await signInThroughUi(page, account);
  const stored = await storages(page);
  expect(stored.session[0]).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(JSON.parse(stored.session[1] ?? '{}')).toMatchObject({ email: account.email, userId: account.userId });
  expect(stored.local).toEqual([null, null]);
  // The login streak was posted and kept with the user (spec 000 §4).
  await expect
    .poll(async () => JSON.parse((await storages(page)).session[1] ?? '{}').lastLoginDate)
    .toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const token = stored.session[0] as string;

  await page
    .getByRole('navigation', { name: 'Navegación principal' })
    .getByRole('link', { name: 'Configuración' })
    .click();
  // The router keeps the previous screen up while /config's code loads: on a new account's /home,
  // the profile wizard's own «Cerrar sesión» (no confirmation) would take the click.
  await expect(page.getByRole('heading', { name: 'Configuración', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await page.getByRole('dialog', { name: '¿Cerrar sesión?' }).getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  expect(await storages(page)).toEqual({ local: [null, null], session: [null, null] });
  // Logout revoked the token on the server (docs/decisions/0003).
  await expect.poll(() => validateSession(request, token)).toBe(401);
});

test('with Recuérdame the session is in local storage and survives a browser restart; without it, it does not', async ({
  baseURL,
  request,
}) => {
  const account = await registerAccount(request);
  const launch = (userDataDir: string) =>
    chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      baseURL,
      locale: 'es-ES',
      timezoneId: 'Europe/Madrid',
      geolocation: { latitude: 40.4169, longitude: -3.7035 },
      permissions: ['geolocation'],
    });

  for (const rememberMe of [true, false]) {
    const userDataDir = mkdtempSync(path.join(tmpdir(), 'entreno-e2e-profile-'));
    try {
      let context = await launch(userDataDir);
      let page = context.pages()[0] ?? (await context.newPage());
      await fillLogin(page, account.email, account.password, { rememberMe });
      if (rememberMe)
        await expect(page.getByText('Su sesión será guardada durante los próximos 30 días')).toBeVisible();
      await expect(page).toHaveURL(/\/home$/);
      const stored = await storages(page);
      if (rememberMe) {
        expect(stored.local[0]).toBeTruthy();
        expect(stored.session).toEqual([null, null]);
      } else {
        expect(stored.session[0]).toBeTruthy();
        expect(stored.local).toEqual([null, null]);
      }
      await context.close();

      context = await launch(userDataDir);
      page = context.pages()[0] ?? (await context.newPage());
      // A kept session is checked with the server at start-up, then the live socket opens.
      const checked = rememberMe
        ? Promise.all([
            page.waitForResponse((response) => response.url().endsWith('/api/auth/validate-session')),
            page.waitForEvent('websocket', (socket) => socket.url().includes('/socket.io/')),
          ])
        : undefined;
      await page.goto('/home');
      if (rememberMe) {
        await expect(page.getByRole('heading', { name: 'Conectar', level: 1 })).toBeVisible();
        // The start-up check ran against the server and kept the session.
        const [check] = (await checked) ?? [];
        expect(check?.status()).toBe(200);
        expect((await storages(page)).local[0]).toBe(stored.local[0]);
        await expect(page).toHaveURL(/\/home$/);
      } else {
        await expect(page.getByRole('heading', { name: 'Acceso No Autorizado' })).toBeVisible();
        expect(await storages(page)).toEqual({ local: [null, null], session: [null, null] });
      }
      await context.close();
    } finally {
      // Chromium's helpers may still be writing the profile (its code cache) just after the
      // close under load: retry instead of failing the journey on ENOTEMPTY.
      rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5 });
    }
  }
});

test('the login form checks its fields and shows the server message for wrong credentials', async ({
  page,
  request,
}) => {
  const account = await registerAccount(request);
  await fillLogin(page, 'no-es-un-email', 'corta');
  await expect(page.getByText('El email introducido no tiene la estructura correcta')).toBeVisible();
  await expect(page.getByText('La contraseña debe tener al menos 8 caracteres')).toBeVisible();
  const submit = page.getByRole('button', { name: 'Iniciar sesión', exact: true });
  await expect(submit).toBeDisabled();
  await expect(page.getByLabel('Email')).toBeFocused();
  // Typing clears the error of that field only.
  await page.getByLabel('Email').fill(account.email);
  await expect(page.getByText('El email introducido no tiene la estructura correcta')).toBeHidden();
  await expect(submit).toBeDisabled();
  await page.getByLabel('Contraseña', { exact: true }).fill('Incorrecta&123');
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.locator('form').getByRole('alert')).toHaveText('Email o contraseña incorrectos');
  await expect(page).toHaveURL(/\/login$/);
  expect(await storages(page)).toEqual({ local: [null, null], session: [null, null] });
});

test('/login?error=token_missing explains why the person is there', async ({ page }) => {
  await page.goto('/login?error=token_missing');
  await expect(page.getByRole('status').filter({ hasText: 'inicia sesión de nuevo' })).toBeVisible();
});

test('forgot password → the e-mailed link → a new password; the old one is refused', async ({ page, request }) => {
  const account = await registerAccount(request);
  await page.goto('/login');
  await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // The address changes at the tap, the screen once its code is loaded: until then the router keeps
  // /login on screen, whose own «Email» field would take the address (a flake under load).
  await expect(page.getByRole('heading', { name: 'Recuperar contraseña' })).toBeVisible();
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Recuperar contraseña' }).click();
  await expect(page.getByRole('heading', { name: 'Revisa tu correo' })).toBeVisible();
  await expect(page.getByText('el enlace caduca en 1 hora')).toBeVisible();
  await expect(page.getByRole('link', { name: 'soporte@entreno.app' })).toBeVisible();

  const [mail] = await outboxFor(request, account.email);
  expect(mail?.link).toContain('/reset-password?');
  await page.goto(mail?.link as string);
  await expect(page.getByRole('heading', { name: 'Nueva contraseña' })).toBeVisible();
  const submit = page.getByRole('button', { name: 'Cambiar contraseña' });
  await expect(submit).toBeDisabled();
  const newPassword = 'Press&Banca2025';
  await page.getByLabel('Nueva contraseña').fill(newPassword);
  await expect(page.getByRole('meter', { name: 'Seguridad de la contraseña' })).toHaveAttribute(
    'aria-valuetext',
    'Muy fuerte',
  );
  await page.getByLabel('Confirmar contraseña').fill('Press&Banca2024');
  await expect(page.getByText('Las contraseñas no coinciden')).toBeVisible();
  await expect(submit).toBeDisabled();
  await page.getByLabel('Confirmar contraseña').fill(newPassword);
  await submit.click();
  await expect(page.getByText('¡Contraseña actualizada correctamente! Redirigiendo...')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });

  // The link is single use.
  await page.goto(mail?.link as string);
  await expect(page.getByRole('heading', { name: 'Enlace no válido' })).toBeVisible();

  await fillLogin(page, account.email, account.password);
  await expect(page.locator('form').getByRole('alert')).toHaveText('Email o contraseña incorrectos');
  await signInThroughUi(page, { ...account, password: newPassword });
});

test('a reset link without token or e-mail is invalid and can ask for a new one', async ({ page, request }) => {
  await page.goto('/reset-password?email=nadie%40example.com');
  await expect(page.getByText('Link de recuperación inválido')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Recuperar contraseña' })).toHaveAttribute('href', '/forgot-password');
  await page.getByRole('button', { name: 'Solicitar nuevo enlace' }).click();
  await expect(page.getByText('Se ha enviado un nuevo enlace a tu correo electrónico')).toBeVisible();
  // Same answer whether or not the account exists (QUALITY 2): nothing was mailed to nobody.
  expect(await outboxFor(request, 'nadie@example.com', 0)).toEqual([]);
});

test('a revoked token sends the user to /login at once through the live socket', async ({ page, request }) => {
  const account = await registerAccount(request);
  await signInThroughUi(page, account, { rememberMe: true });
  await expect(page.getByRole('heading', { name: 'Conectar', level: 1 })).toBeVisible();
  const token = (await storages(page)).local[0] as string;
  // The server emits token_invalidated to the session's sockets and drops them (QUALITY 7).
  const revoked = await request.post('/api/auth/logout', { headers: { authorization: `Bearer ${token}` } });
  expect(revoked.status()).toBe(200);
  await expect(page).toHaveURL(/\/login$/);
  expect(await storages(page)).toEqual({ local: [null, null], session: [null, null] });
});

test('a revoked token sends the user to /login at the next session check', async ({ page, request }) => {
  const account = await registerAccount(request);
  // No socket here, so only the 30 s session check can notice the revocation.
  await page.route('**/socket.io/**', (route) => route.abort());
  await page.clock.install();
  await signInThroughUi(page, account, { rememberMe: true });
  // The home screen's own calls are done first: one made after the revocation would notice it
  // (a 401 signs out at once) before the session check the test is about.
  await expect(page.getByRole('heading', { name: 'Conectar', level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const token = (await storages(page)).local[0] as string;

  // Revoke it from outside, as a logout elsewhere or a password reset would.
  const revoked = await request.post('/api/auth/logout', { headers: { authorization: `Bearer ${token}` } });
  expect(revoked.status()).toBe(200);
  await expect(page).toHaveURL(/\/home$/);
  await page.clock.fastForward(31_000);
  await expect(page).toHaveURL(/\/login$/);
  expect(await storages(page)).toEqual({ local: [null, null], session: [null, null] });
});

test('a revoked token found at start-up sends the user to /login', async ({ page, request }) => {
  const account = await registerAccount(request);
  await signInThroughUi(page, account, { rememberMe: true });
  await expect(page.getByRole('heading', { name: 'Conectar', level: 1 })).toBeVisible();
  const token = (await storages(page)).local[0] as string;
  // Leave the app before revoking, so nothing running notices it first: the start-up check must.
  await page.goto('about:blank');
  const revoked = await request.post('/api/auth/logout', { headers: { authorization: `Bearer ${token}` } });
  expect(revoked.status()).toBe(200);
  await page.goto('/home');
  await expect(page).toHaveURL(/\/login$/);
  expect(await storages(page)).toEqual({ local: [null, null], session: [null, null] });
});

test('signing out in one tab signs out the other tabs', async ({ context, request }) => {
  const account = await registerAccount(request);
  const first = await context.newPage();
  await signInThroughUi(first, account, { rememberMe: true });
  const second = await context.newPage();
  await second.goto('/matches');
  await expect(second.getByRole('heading', { name: 'Entrenamientos', level: 1 })).toBeVisible();

  await first.goto('/config');
  await first.getByRole('button', { name: 'Cerrar sesión' }).click();
  await first.getByRole('dialog', { name: '¿Cerrar sesión?' }).getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(first).toHaveURL(/\/login$/);
  await expect(second).toHaveURL(/\/login$/);
});
