import { registerAccount } from './helpers/accounts.ts';
import { pageFor, profileBody, signIn as signInAccount } from './helpers/chat-setup.ts';
import { storeSession } from './helpers/session.ts';
import { expect, type Page, test } from './helpers/test.ts';
import { remoteSpot } from './helpers/spots.ts';

/**
 * The signed-in screens' texts and behaviours of spec 001 §2 that no other journey pins down, one
 * test each (docs/spec-conformance.md). They run on the seeded demo account, which has a deck,
 * matches, conversations and notifications: the run's demo server (playwright.config.ts).
 */
const server = { url: process.env.E2E_DEMO_URL as string };

test.use({ viewport: { width: 390, height: 844 } });

/** The demo account's stored session (the login form is auth-session.spec.ts's), then /home. */
async function signIn(page: Page): Promise<void> {
  await storeSession(page, { email: 'demo@demo.entreno.app', password: 'Pesas&Batidos24' }, server.url);
  await page.goto(`${server.url}/home`);
  await expect(page).toHaveURL(/\/home$/);
}

test('the deck card shows "% Entreno", name and age, the distance text and Rechazar, Super Entreno, Entreno', async ({
  browser,
  request,
}) => {
  // Two people of their own in a spot of their own, on the suite's server (the demo deck may be
  // used up by its matches).
  const spot = remoteSpot('Lejos');
  const [ana, bruno] = [
    await signInAccount(request, await registerAccount(request, { name: 'Ana' })),
    await signInAccount(request, await registerAccount(request, { name: 'Bruno' })),
  ];
  for (const [user, name] of [
    [ana, 'Ana'],
    [bruno, 'Bruno'],
  ] as const) {
    const created = await request.post('/api/profiles', {
      data: profileBody(user.userId, name, spot),
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  const page = await pageFor(browser, ana);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/home');
  const card = page.getByRole('article', { name: /^Bruno, \d+ años$/ });
  await expect(card).toBeVisible();
  await expect(card.getByText(/^\d+% Entreno$/)).toBeVisible();
  await expect(card.getByText(/A (menos de 1|\d+) km/)).toBeVisible();
  for (const name of ['Rechazar', 'Super Entreno', 'Entreno']) {
    await expect(page.getByRole('button', { name, exact: true }).first()).toBeVisible();
  }
});

test('the chat offers "Respuestas rápidas": a pick fills the input and closes the panel; focusing the input closes it', async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`${server.url}/messages`);
  await page.getByText('¿Calentamos juntos en la zona de cardio?').click();
  const input = page.getByPlaceholder('Escribe un mensaje...');
  await expect(input).toBeVisible();
  // The send button waits for text that is not blank.
  const send = page.getByRole('button', { name: 'Enviar' });
  await input.fill('   ');
  await expect(send).toBeDisabled();
  await input.fill('');

  const toggle = page.getByRole('button', { name: 'Respuestas rápidas' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const panel = page.locator('#quick-replies');
  const first = panel.getByRole('button').first();
  const reply = (await first.textContent()) ?? '';
  expect(reply.length).toBeGreaterThan(0);
  await first.click();
  await expect(input).toHaveValue(reply);
  await expect(panel).toHaveCount(0);
  await expect(send).toBeEnabled();

  await toggle.click();
  await expect(panel).toBeVisible();
  await input.focus();
  await expect(panel).toHaveCount(0);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});

test('/notifications has the spec title, subtitle, seven filter chips and "Marcar todas como leídas"', async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`${server.url}/notifications`);
  await expect(page.getByRole('heading', { level: 1, name: 'Notificaciones' })).toBeVisible();
  await expect(page.getByText(/matches, mensajes y actividades/)).toBeVisible();
  for (const chip of ['Todas', 'Bienvenida', 'Matches', 'Mensajes', 'Sistema', 'Actividad', 'Recordatorios']) {
    await expect(page.getByRole('button', { name: chip, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Todas', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Sistema', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Sistema', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: /Marcar todas como leídas/ })).toBeVisible();
});

test('/config has the spec sections, and "Verificar perfil" explains the requirements and a 24-48 hour review', async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`${server.url}/config`);
  for (const section of [
    'Perfil',
    'Preferencias de búsqueda',
    'Notificaciones',
    'Privacidad y Datos',
    'Seguridad',
    'Cookies',
    'Configuración de la aplicación',
  ]) {
    await expect(page.getByRole('heading', { level: 2, name: section, exact: true })).toBeAttached();
  }
  await page.getByRole('button', { name: 'Verificar perfil' }).click();
  const dialog = page.getByRole('dialog', { name: 'Verificar perfil' });
  await expect(dialog).toContainText('24-48 horas');
  await expect(dialog.getByRole('button', { name: 'Iniciar verificación' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cerrar sesión' }).first()).toBeVisible();
});

test('/messages is titled "Mensajes (count)"; the chat header names the other person and leads back to /messages', async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`${server.url}/messages`);
  await expect(page.getByRole('heading', { level: 1, name: /^Mensajes \(\d+\)$/ })).toBeVisible();
  await page.getByText('¿Calentamos juntos en la zona de cardio?').click();
  await expect(page).toHaveURL(/\/messages\/[^/]+$/);
  const title = page.getByRole('heading', { level: 1 });
  await expect(title).not.toHaveText('');
  await expect(title).not.toHaveText('Chat');
  const back = page.getByRole('link', { name: 'Volver a Mensajes' });
  await expect(back).toHaveAttribute('href', '/messages');
  await back.click();
  await expect(page).toHaveURL(/\/messages$/);
});
