import { expect, type Page, test } from './helpers/test.ts';
import { registerAccount } from './helpers/accounts.ts';
import { grantModerator } from './helpers/moderator.ts';
import { seriousViolations } from './helpers/axe.ts';
import { matchUsers, pageFor, sendMessage, signIn, userWithProfile } from './helpers/chat-setup.ts';

// The moderation console (issue #23 part 3, docs/decisions/0033): a report made in one browser,
// acted on in the console in another, its effects seen in the first; the suspended person's own
// browser; the appeal and the lift.

test.use({ geolocation: { latitude: 40.4169, longitude: -3.7035 }, permissions: ['geolocation'] });

async function expectNoAxeViolations(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

test('a report in one browser, a suspension in the console in another, its effects back in the first; appeal and lift', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const [lucia, marcos] = await Promise.all([userWithProfile(request, 'Lucía'), userWithProfile(request, 'Marcos')]);
  const conversationId = await matchUsers(request, lucia, marcos);
  await sendMessage(request, marcos, lucia, conversationId, 'Compra mis batidos o te arrepentirás');
  const marta = await signIn(request, await registerAccount(request, { name: 'Marta' }));
  // The command starts its own Node process (seconds on a loaded machine): it runs while Lucía and
  // Marcos do their part, and is awaited before Marta opens the console.
  const isMartaModerator = grantModerator(marta.email);
  isMartaModerator.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled

  // Lucía, not a moderator: no link, and the console's address is the ordinary 404 page.
  const luciaPage = await pageFor(browser, lucia);
  await luciaPage.goto('/config');
  await expect(luciaPage.getByRole('heading', { name: 'Configuración', level: 1 })).toBeVisible();
  await expect(luciaPage.getByRole('link', { name: 'Abrir la consola de moderación' })).toHaveCount(0);
  const hidden = await luciaPage.goto('/moderacion');
  expect(hidden?.status()).toBe(404);
  await expect(luciaPage.getByRole('heading', { name: '¡Ups! Página no encontrada' })).toBeVisible();

  // Lucía reports Marcos from their chat.
  await luciaPage.goto(`/messages/${conversationId}`);
  await expect(luciaPage.getByRole('heading', { name: 'Marcos' })).toBeVisible();
  await luciaPage.getByRole('button', { name: 'Más opciones para Marcos' }).click();
  await luciaPage.getByRole('menuitem', { name: 'Denunciar' }).click();
  const dialog = luciaPage.getByRole('dialog', { name: 'Denunciar a Marcos' });
  await dialog.getByRole('radio', { name: /^Acoso/ }).check();
  await dialog.getByLabel('Detalles (opcional)').fill('Me amenaza si no le compro');
  await dialog.getByRole('button', { name: 'Enviar denuncia' }).click();
  await expect(dialog).toHaveCount(0);

  // Marcos has the app open in his own browser.
  const marcosPage = await pageFor(browser, marcos);
  await marcosPage.goto('/messages');
  // A loaded machine may take a while to start the signed-in app.
  await expect(marcosPage.getByRole('heading', { name: 'Mensajes', level: 1 })).toBeVisible({ timeout: 30_000 });

  // Marta, a moderator: the link in Configuración, the queue, the report with the chat's messages.
  await isMartaModerator;
  const martaPage = await pageFor(browser, marta);
  await martaPage.goto('/config');
  await martaPage.getByRole('link', { name: 'Abrir la consola de moderación' }).click();
  await expect(martaPage.getByRole('heading', { name: 'Denuncias pendientes' })).toBeVisible();
  await expectNoAxeViolations(martaPage);
  await martaPage.getByRole('link', { name: 'Acoso: Marcos' }).first().click();
  await expect(martaPage.getByRole('heading', { name: 'Denuncia por acoso' })).toBeVisible();
  await expect(martaPage.getByText('Compra mis batidos o te arrepentirás')).toBeVisible();
  await expect(martaPage.getByText('Me amenaza si no le compro')).toBeVisible();
  await expectNoAxeViolations(martaPage);
  await martaPage.getByRole('radio', { name: /^Suspender/ }).check();
  await martaPage.getByLabel('Días de suspensión').fill('7');
  await martaPage.getByLabel('Por qué (queda en el registro, la persona no lo ve)').fill('Amenazas por el chat');
  await martaPage.getByRole('button', { name: 'Suspender y cerrar las denuncias' }).click();
  await expect(martaPage.getByRole('status').filter({ hasText: 'Denuncia resuelta' })).toBeVisible();

  // Back in Lucía's browser: the chat ended with the neutral text, and she is told her report was handled.
  await expect(
    luciaPage
      .getByRole('status')
      .filter({ hasText: 'Esta conversación ha finalizado. Ya no podéis enviaros mensajes.' }),
  ).toBeVisible();
  await luciaPage.goto('/notifications');
  await expect(luciaPage.getByRole('heading', { name: /^Hemos revisado tu denuncia/ })).toBeVisible();

  // Marcos is signed out at once; signing in again says why and lets him appeal, once.
  await expect(marcosPage).toHaveURL(/\/login/);
  await marcosPage.getByLabel('Email').fill(marcos.email);
  await marcosPage.getByLabel('Contraseña', { exact: true }).fill(marcos.password);
  await marcosPage.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
  await expect(marcosPage.getByRole('alert').filter({ hasText: /^Tu cuenta está suspendida hasta el / })).toBeVisible();
  await expect(marcosPage.getByRole('heading', { name: 'Cuenta suspendida temporalmente' })).toBeVisible();
  await expectNoAxeViolations(marcosPage);
  await marcosPage.getByLabel('Apelar la decisión (solo una vez)').fill('Fue una broma entre amigos');
  await marcosPage.getByRole('button', { name: 'Enviar apelación' }).click();
  await expect(marcosPage.getByRole('status').filter({ hasText: 'Apelación enviada.' })).toBeVisible();

  // The appeal is in the queue; Marta lifts the suspension and the audit log shows both decisions.
  await martaPage.goto('/moderacion');
  await expect(martaPage.getByRole('heading', { name: 'Apelación de Marcos' })).toBeVisible();
  await expect(martaPage.getByText('Fue una broma entre amigos')).toBeVisible();
  await martaPage.getByLabel('Motivo de la decisión (queda en el registro)').fill('Primera vez, se levanta');
  await martaPage.getByRole('button', { name: 'Levantar la sanción' }).click();
  await expect(martaPage.getByText('No hay apelaciones pendientes.')).toBeVisible();
  await martaPage.getByRole('link', { name: 'Registro' }).click();
  await expect(martaPage.getByRole('cell', { name: 'Amenazas por el chat' })).toBeVisible();
  await expect(martaPage.getByRole('cell', { name: 'Primera vez, se levanta' })).toBeVisible();
  await expectNoAxeViolations(martaPage);

  await marcosPage.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
  await expect(marcosPage).toHaveURL(/\/home/);
});
