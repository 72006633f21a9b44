import { expect, test } from './helpers/test.ts';

/**
 * #19 §4: `npm run seed` on a fresh install, then the README's demo account signs in through the
 * login screen and finds a living app: matches, conversations with unread messages, notifications
 * and an upcoming quedada. The seeded server is the run's demo server (playwright.config.ts).
 */
const server = { url: process.env.E2E_DEMO_URL as string };

test('the demo account opens to matches, chats with unread messages, notifications and a quedada', async ({ page }) => {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill('demo@demo.entreno.app');
  await page.getByLabel('Contraseña', { exact: true }).fill('Pesas&Batidos24');
  await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
  await expect(page).toHaveURL(/\/home$/);

  await page.goto(`${server.url}/matches`);
  await expect(page.getByRole('heading', { name: 'Tus entrenamientos (4)' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Continuar chat/ }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: /Iniciar chat/ }).first()).toBeVisible();

  await page.goto(`${server.url}/messages`);
  await expect(page.getByText(/Mensajes \(\d+\)/).first()).toBeVisible();
  await expect(page.getByText('¿Calentamos juntos en la zona de cardio?')).toBeVisible();
  await expect(page.getByText('El sábado por la mañana suelo estar libre. ¡Hablamos!')).toBeVisible();

  await page.goto(`${server.url}/notifications`);
  await expect(page.getByText('¡Nuevo Entrenamiento!').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /Marcar todas como leídas/ })).toBeEnabled();

  // The first conversation: messages both ways.
  await page.goto(`${server.url}/messages`);
  await page.getByText('¿Calentamos juntos en la zona de cardio?').click();
  await expect(page.getByText('Me apunto. ¿El jueves a las 7:30 te viene bien?')).toBeVisible();
  await expect(page.getByText(/Llevo la cinta para las sentadillas/)).toBeVisible();
  await page.screenshot({ path: 'test-results/demo-account-chat.png' });
});
