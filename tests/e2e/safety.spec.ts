import { readFileSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from './helpers/test.ts';
import { registerAccount } from './helpers/accounts.ts';
import { pageFor, profileBody, type SignedIn, signIn } from './helpers/chat-setup.ts';
import { remoteSpot } from './helpers/spots.ts';

// Safety journeys (issue 9, docs/decisions/0012): block and report from the profile modal and the
// chat, "Descargar mis datos" and "Eliminar mi cuenta" in /config.

const auth = (user: SignedIn) => ({ authorization: `Bearer ${user.token}` });

async function person(
  request: APIRequestContext,
  name: string,
  location: { latitude: number; longitude: number; city: string },
) {
  const user = await signIn(request, await registerAccount(request, { name }));
  const created = await request.post('/api/profiles', {
    data: {
      ...profileBody(user.userId, name, location),
      preferences: { gender_preference: 'both', age_range: { min: 18, max: 99 }, distance: 5 },
    },
    headers: auth(user),
  });
  expect(created.status(), await created.text()).toBe(201);
  return user;
}

/** Both like each other: a match and its conversation. */
async function match(request: APIRequestContext, a: SignedIn, b: SignedIn): Promise<string> {
  const first = await request.post(`/api/swipes/users/${a.userId}/swipe`, {
    data: { target_user_id: b.userId, action: 'like' },
    headers: auth(a),
  });
  expect(first.status()).toBeLessThan(300);
  const second = await request.post(`/api/swipes/users/${b.userId}/swipe`, {
    data: { target_user_id: a.userId, action: 'like' },
    headers: auth(b),
  });
  const body = (await second.json()) as { match: boolean; matchData: { conversationId: string } };
  expect(body.match).toBe(true);
  return body.matchData.conversationId;
}

async function sendMessage(
  request: APIRequestContext,
  from: SignedIn,
  to: SignedIn,
  conversationId: string,
  text: string,
) {
  return request.post('/api/messages/messages', {
    data: { conversationId, receiverId: to.userId, text },
    headers: auth(from),
  });
}

async function conversationIds(request: APIRequestContext, user: SignedIn): Promise<string[]> {
  const response = await request.get('/api/messages/conversations?page=1&limit=50', { headers: auth(user) });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { conversations: { conversationId: string; status: string }[] };
  return body.conversations.filter((item) => item.status === 'active').map((item) => item.conversationId);
}

async function exportOf(request: APIRequestContext, user: SignedIn) {
  const response = await request.get('/api/account/export', { headers: auth(user) });
  expect(response.status()).toBe(200);
  return (await response.json()) as {
    reports: {
      reportedUserId: string;
      reason: string;
      details: string | null;
      conversationId: string | null;
      status: string;
    }[];
    blocks: { blockedUserId: string }[];
  };
}

function toastWith(page: Page, text: string | RegExp) {
  return page.getByText(text).first();
}

test('blocking from the profile modal: gone from the deck, the matches and both conversation lists', async ({
  browser,
  request,
}) => {
  const spot = remoteSpot('Lejos');
  const lucia = await person(request, 'Lucía', spot);
  const marcos = await person(request, 'Marcos', spot);
  const sara = await person(request, 'Sara', spot);
  const conversationId = await match(request, lucia, marcos);
  expect((await sendMessage(request, marcos, lucia, conversationId, 'Hola, ¿entrenamos?')).status()).toBe(201);

  const page = await pageFor(browser, lucia);
  const marcosPage = await pageFor(browser, marcos);
  await marcosPage.goto('/messages');
  await expect(marcosPage.getByRole('link', { name: /Lucía/ })).toBeVisible();

  // The deck: Sara (Marcos is a match already). Her profile, then "Bloquear".
  await page.goto('/home');
  await page.getByRole('button', { name: /^Sara, \d+/ }).click();
  const profile = page.getByRole('dialog', { name: /^Sara, \d+/ });
  await expect(profile.getByRole('button', { name: 'Denunciar' })).toBeVisible();
  await profile.getByRole('button', { name: 'Bloquear' }).click();
  const confirm = page.getByRole('dialog', { name: '¿Bloquear a Sara?' });
  await expect(confirm.getByRole('heading', { name: '¿Bloquear a Sara?' })).toBeVisible();
  // Focus stays inside the confirmation (its three buttons); Escape closes it and leaves the profile open.
  const focusIsInside = () =>
    page.evaluate(
      () => !!document.activeElement?.closest('[role="dialog"]')?.textContent?.includes('¿Bloquear a Sara?'),
    );
  for (let step = 0; step < 4; step += 1) {
    await page.keyboard.press('Tab');
    expect(await focusIsInside()).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(profile.getByRole('button', { name: 'Bloquear' })).toBeVisible();

  await profile.getByRole('button', { name: 'Bloquear' }).click();
  await confirm.getByRole('button', { name: 'Bloquear' }).click();
  await expect(toastWith(page, 'Has bloqueado a Sara')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('No existen más perfiles para esa configuración')).toBeVisible();
  await page.reload();
  await expect(page.getByText('No existen más perfiles para esa configuración')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: /^Sara, \d+/ })).toHaveCount(0);
  // Both ways: Sara's deck no longer has Lucía.
  const saraDeck = await request.get(`/api/profiles/${sara.userId}/recommended?page=1`, { headers: auth(sara) });
  expect(saraDeck.status()).toBe(200);
  const saraProfiles = ((await saraDeck.json()) as { profiles: { userId: string }[] }).profiles;
  expect(saraProfiles.map((item) => item.userId)).not.toContain(lucia.userId);
  expect(saraProfiles.map((item) => item.userId)).toContain(marcos.userId);

  // The match: from /matches, Marcos's profile, "Bloquear".
  await page.goto('/matches');
  await expect(page.getByRole('heading', { name: 'Tus entrenamientos (1)', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: /^Marcos, \d+/ }).click();
  const marcosProfile = page.getByRole('dialog', { name: /^Marcos, \d+/ });
  await marcosProfile.getByRole('button', { name: 'Bloquear' }).click();
  await page.getByRole('dialog', { name: '¿Bloquear a Marcos?' }).getByRole('button', { name: 'Bloquear' }).click();
  await expect(toastWith(page, 'Has bloqueado a Marcos')).toBeVisible();
  await expect(page.getByText('Todavía no tienes entrenamientos')).toBeVisible();

  // Gone from both conversation lists: Marcos's list on screen follows at once.
  await expect(marcosPage.getByRole('link', { name: /Lucía/ })).toHaveCount(0);
  await page.goto('/messages');
  await expect(page.getByRole('heading', { name: 'Mensajes', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: /Marcos/ })).toHaveCount(0);
  expect(await conversationIds(request, lucia)).not.toContain(conversationId);
  expect(await conversationIds(request, marcos)).not.toContain(conversationId);
  await marcosPage.goto('/matches');
  await expect(marcosPage.getByText('Todavía no tienes entrenamientos')).toBeVisible();

  // Marcos can no longer reach Lucía.
  expect((await sendMessage(request, marcos, lucia, conversationId, '¿Sigues ahí?')).status()).toBe(403);
  expect((await request.get(`/api/profiles/${lucia.userId}`, { headers: auth(marcos) })).status()).toBe(404);
  const blocks = (await exportOf(request, lucia)).blocks.map((row) => row.blockedUserId);
  expect(blocks.sort()).toEqual([marcos.userId, sara.userId].sort());
});

test('reporting and blocking from the chat: the report is stored, the chat ends for both', async ({
  browser,
  request,
}) => {
  const spot = remoteSpot('Lejos');
  const lucia = await person(request, 'Lucía', spot);
  const marcos = await person(request, 'Marcos', spot);
  const conversationId = await match(request, lucia, marcos);
  expect((await sendMessage(request, marcos, lucia, conversationId, 'Compra mis batidos')).status()).toBe(201);

  const page = await pageFor(browser, lucia);
  const marcosPage = await pageFor(browser, marcos);
  // Marcos has the chat open: it must end in front of him.
  await marcosPage.goto(`/messages/${conversationId}`);
  await expect(marcosPage.getByRole('heading', { name: 'Lucía' })).toBeVisible();
  await page.goto(`/messages/${conversationId}`);
  await expect(page.getByRole('heading', { name: 'Marcos' })).toBeVisible();

  const menu = page.getByRole('button', { name: 'Más opciones para Marcos' });
  await menu.click();
  await page.getByRole('menuitem', { name: 'Denunciar' }).click();
  const report = page.getByRole('dialog', { name: 'Denunciar a Marcos' });
  await expect(report.getByRole('heading', { name: 'Denunciar a Marcos' })).toBeVisible();
  for (const label of ['Perfil falso', 'Acoso', 'Spam o venta', 'Contenido inapropiado', 'Menor de edad', 'Otro']) {
    await expect(report.getByRole('radio', { name: new RegExp(`^${label}`) })).toBeVisible();
  }
  // Escape closes it without sending.
  await page.keyboard.press('Escape');
  await expect(report).toHaveCount(0);
  expect((await exportOf(request, lucia)).reports).toEqual([]);

  await menu.click();
  await page.getByRole('menuitem', { name: 'Denunciar' }).click();
  await report.getByRole('button', { name: 'Enviar denuncia' }).click();
  await expect(report.getByRole('alert')).toHaveText('Elige un motivo');
  await report.getByRole('radio', { name: /^Spam o venta/ }).check();
  await report.getByLabel('Detalles (opcional)').fill('  Me ofrece batidos a 40 € cada día.  ');
  await expect(report.getByText('38/1000')).toBeVisible();
  await report.getByRole('button', { name: 'Enviar denuncia' }).click();
  await expect(toastWith(page, 'Denuncia enviada. La revisaremos lo antes posible.')).toBeVisible();
  await expect(report).toHaveCount(0);
  // Stored for moderation, with the reason, the details and the conversation; not blocked.
  await expect
    .poll(async () => (await exportOf(request, lucia)).reports)
    .toEqual([
      expect.objectContaining({
        reportedUserId: marcos.userId,
        reason: 'spam',
        details: 'Me ofrece batidos a 40 € cada día.',
        conversationId,
        status: 'open',
      }),
    ]);
  expect((await exportOf(request, lucia)).blocks).toEqual([]);
  await expect(page.getByRole('heading', { name: 'Marcos' })).toBeVisible();

  // "Bloquear" from the same menu: back to /messages, the conversation gone on both sides.
  await menu.click();
  await page.getByRole('menuitem', { name: 'Bloquear' }).click();
  await page.getByRole('dialog', { name: '¿Bloquear a Marcos?' }).getByRole('button', { name: 'Bloquear' }).click();
  await expect(page).toHaveURL(/\/messages$/);
  await expect(toastWith(page, 'Has bloqueado a Marcos')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Mensajes', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: /Marcos/ })).toHaveCount(0);
  await expect(
    marcosPage
      .getByRole('status')
      .filter({ hasText: 'Esta conversación ha finalizado. Ya no podéis enviaros mensajes.' }),
  ).toBeVisible();
  await expect(marcosPage.getByPlaceholder('Escribe un mensaje...')).toHaveCount(0);
  await marcosPage.goto('/messages');
  await expect(marcosPage.getByRole('heading', { name: 'Mensajes', level: 1 })).toBeVisible();
  await expect(marcosPage.getByRole('link', { name: /Lucía/ })).toHaveCount(0);
  expect((await sendMessage(request, marcos, lucia, conversationId, '¿Hola?')).status()).toBe(403);
});

test('"Descargar mis datos" saves a JSON file with the profile and the messages', async ({ browser, request }) => {
  const spot = remoteSpot('Lejos');
  const lucia = await person(request, 'Lucía', spot);
  const marcos = await person(request, 'Marcos', spot);
  const conversationId = await match(request, lucia, marcos);
  expect((await sendMessage(request, lucia, marcos, conversationId, 'Mañana a las 7 en el gimnasio')).status()).toBe(
    201,
  );
  expect((await sendMessage(request, marcos, lucia, conversationId, 'Hecho, allí estaré')).status()).toBe(201);

  const page = await pageFor(browser, lucia);
  await page.goto('/config');
  const privacy = page.getByRole('region', { name: 'Privacidad y Datos' });
  const downloadButton = privacy.getByRole('button', { name: 'Descargar mis datos' });
  await expect(downloadButton).toBeEnabled();
  const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
  expect(download.suggestedFilename()).toMatch(/^entreno-mis-datos-\d{4}-\d{2}-\d{2}\.json$/);
  await expect(toastWith(page, 'Tus datos se han descargado')).toBeVisible();
  const file = await download.path();
  const data = JSON.parse(readFileSync(file, 'utf8')) as {
    user: { id: string; email: string; passwordHash?: unknown };
    profile: { name: string; userId: string };
    messages: { text: string; senderId: string }[];
  };
  expect(data.user).toMatchObject({ id: lucia.userId, email: lucia.email });
  expect(data.user).not.toHaveProperty('passwordHash');
  expect(data.profile).toMatchObject({ name: 'Lucía', userId: lucia.userId });
  expect(data.messages.map((message) => [message.senderId, message.text]).sort()).toEqual(
    [
      [lucia.userId, 'Mañana a las 7 en el gimnasio'],
      [marcos.userId, 'Hecho, allí estaré'],
    ].sort(),
  );
  expect(JSON.stringify(data)).not.toContain(marcos.email);
});

test('"Eliminar mi cuenta": password, signed out to /login, no way back in, the other side sees the end', async ({
  browser,
  request,
}) => {
  const spot = remoteSpot('Lejos');
  const lucia = await person(request, 'Lucía', spot);
  const marcos = await person(request, 'Marcos', spot);
  const conversationId = await match(request, lucia, marcos);
  expect((await sendMessage(request, lucia, marcos, conversationId, 'Nos vemos el lunes')).status()).toBe(201);

  const marcosPage = await pageFor(browser, marcos);
  await marcosPage.goto('/messages');
  await expect(marcosPage.getByRole('link', { name: /Lucía/ })).toBeVisible();

  const page = await pageFor(browser, lucia);
  // The conversation on this device first, so the wipe has something to remove.
  await page.goto(`/messages/${conversationId}`);
  await expect(page.getByText('Nos vemos el lunes')).toBeVisible();
  await page.goto('/config');
  const privacy = page.getByRole('region', { name: 'Privacidad y Datos' });
  await privacy.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
  const dialog = page.getByRole('dialog', { name: '¿Eliminar tu cuenta?' });
  await expect(dialog.getByRole('heading', { name: '¿Eliminar tu cuenta?' })).toBeVisible();
  const password = dialog.getByLabel('Contraseña', { exact: true });
  await expect(password).toBeFocused();
  const confirm = dialog.getByRole('button', { name: 'Eliminar mi cuenta' });
  await expect(confirm).toBeDisabled();

  // Escape closes it; nothing happened.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await privacy.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
  await password.fill('NoEsMiClave&99');
  await confirm.click();
  await expect(dialog.getByText('La contraseña no es correcta')).toBeVisible();
  await expect(page).toHaveURL(/\/config$/);

  await password.fill(lucia.password);
  await confirm.click();
  await expect(page).toHaveURL(/\/login$/, { timeout: 20_000 });
  await expect(toastWith(page, 'Tu cuenta y tus datos se han eliminado')).toBeVisible();
  await expect(page.getByText('Tu sesión ha finalizado. Por favor, inicia sesión de nuevo.')).toHaveCount(0);
  expect(await page.evaluate(() => [localStorage.getItem('token'), sessionStorage.getItem('token')])).toEqual([
    null,
    null,
  ]);
  await expect
    .poll(() => page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name)))
    .not.toContain(`entreno-${lucia.userId}`);

  // No way back in with the old password or the old token.
  const login = await request.post('/api/auth/login', {
    data: { email: lucia.email, password: lucia.password, rememberMe: false },
  });
  expect(login.status()).toBe(401);
  expect((await request.get('/api/settings', { headers: auth(lucia) })).status()).toBe(401);
  const form = page.getByRole('form', { name: 'Iniciar sesión' });
  await form.getByLabel('Email').fill(lucia.email);
  await form.getByLabel('Contraseña', { exact: true }).fill(lucia.password);
  await form.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(form.getByRole('alert').first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  // Marcos: the conversation ends on screen, and he cannot write to her any more.
  await expect(marcosPage.getByRole('link', { name: /Lucía/ })).toHaveCount(0);
  expect(await conversationIds(request, marcos)).not.toContain(conversationId);
  expect((await sendMessage(request, marcos, lucia, conversationId, '¿Hola?')).status()).toBe(403);
});
