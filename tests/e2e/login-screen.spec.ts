import { expect, test } from './helpers/test.ts';

/**
 * The /login screen's landmarks (#20 item 10) and its environment badge (#19 §4): one `main` and
 * one `h1` in every view, and a badge that says the server's real mode (the e2e server runs as
 * NODE_ENV=test), never "PROD" where it is not.
 */
test.describe('login screen on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the first view and the form each have one h1 inside one main landmark; the badge tells the truth', async ({
    page,
  }) => {
    await page.goto('/login');
    await expect(page.getByRole('main')).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Encuentra con quién entrenar cerca de ti.');
    const badge = page.locator('[data-mode]');
    await expect(badge).toHaveAttribute('data-mode', 'test');
    await expect(badge).toHaveText('TEST');
    await expect(page.getByText('PROD', { exact: true })).toHaveCount(0);
    await page.screenshot({ path: 'test-results/login-390-preview.png' });

    await page.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click();
    await expect(page.getByRole('main')).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Iniciar sesión');
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await page.screenshot({ path: 'test-results/login-390-form.png' });
  });
});

test.describe('login screen on a wide screen', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('preview and form side by side still make one h1 and one main', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('main')).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 2, name: 'Iniciar sesión' })).toBeVisible();
  });
});
