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
  await expect(page).toHaveURL(/\/login$/);
});
