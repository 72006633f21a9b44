import { registerAccount } from './helpers/accounts.ts';
import { expect, test } from './helpers/test.ts';

test('an unknown path shows the 404 page with a link home', async ({ page }) => {
  const response = await page.goto('/esto-no-existe');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '¡Ups! Página no encontrada' })).toBeVisible();
  await page.getByRole('link', { name: 'Volver al inicio' }).click();
  await expect(page).toHaveURL(/\/(login)?$/);
});

test('a protected route without a token shows the 401 page', async ({ page }) => {
  await page.goto('/matches');
  await expect(page.getByRole('heading', { name: 'Acceso No Autorizado' })).toBeVisible();
  await expect(page.getByText('Debes iniciar sesión para acceder a esta página...')).toBeVisible();
  await page.getByRole('link', { name: 'Iniciar Sesión' }).click();
  // /login, carrying the page asked for (decision 0044).
  await expect(page).toHaveURL(/\/login\?redirect=%2Fmatches$/);
  await page.goto('/unauthorized');
  await page.getByRole('link', { name: 'Iniciar Sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a shared link opened signed out: the 401 page, /login, then the page asked for', async ({ page }) => {
  const account = await registerAccount(page.request);
  await page.goto('/notifications');
  await expect(page.getByRole('heading', { name: 'Acceso No Autorizado' })).toBeVisible();
  await page.getByRole('link', { name: 'Iniciar Sesión' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fnotifications$/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { name: 'Notificaciones', level: 1 })).toBeVisible();
  // A return address outside the signed-in area is ignored: /home.
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.goto('/login?redirect=%2F%2Fevil.example%2Fhome');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
  await expect(page).toHaveURL(/\/home$/);
});
