import { chromium } from '@playwright/test';
import { registerAccount } from './helpers/accounts.ts';
import { grantModerator } from './helpers/moderator.ts';
import { pageFor, profileBody, type SignedIn, signIn } from './helpers/chat-setup.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './helpers/chromium.ts';
import { pngPhoto } from './helpers/png.ts';
import { type APIRequestContext, expect, type Page, test } from './helpers/test.ts';
import { remoteSpot } from './helpers/spots.ts';

// Verified profiles (issue #23 part 2, docs/decisions/0034): the selfie in one browser, the review
// in the moderation console in another, the badge on the deck card of a third person.

const auth = (user: SignedIn) => ({ authorization: `Bearer ${user.token}` });

async function person(
  request: APIRequestContext,
  name: string,
  location: { latitude: number; longitude: number; city: string },
  photoSeed?: number,
): Promise<SignedIn> {
  const user = await signIn(request, await registerAccount(request, { name }));
  const created = await request.post('/api/profiles', {
    data: {
      ...profileBody(user.userId, name, location),
      preferences: { gender_preference: 'both', age_range: { min: 18, max: 99 }, distance: 5 },
    },
    headers: auth(user),
  });
  expect(created.status(), await created.text()).toBe(201);
  if (photoSeed !== undefined) {
    const uploaded = await request.post(`/api/profiles/${user.userId}/photos`, {
      headers: auth(user),
      multipart: { photos: { name: 'foto.png', mimeType: 'image/png', buffer: pngPhoto(photoSeed) } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(200);
  }
  return user;
}

/** A moderator, made as an operator would: `npm run moderator -- add <email>` on the app's database. */
async function moderator(request: APIRequestContext): Promise<SignedIn> {
  const account = await registerAccount(request, { name: 'Marta' });
  await grantModerator(account.email);
  return signIn(request, account);
}

async function openVerification(page: Page) {
  await page.goto('/config');
  await page
    .locator('#perfil')
    .getByRole('button', { name: /Verificar perfil|Volver a intentarlo/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Verificar perfil' });
  await expect(dialog).toContainText('24-48 horas');
  await dialog.getByRole('button', { name: 'Iniciar verificación' }).click();
  await expect(dialog.getByText('Copia esta pose')).toBeVisible();
  // The pose is a picture, described by its instruction.
  const instruction = (await dialog.getByTestId('pose-instruction').textContent()) ?? '';
  await expect(dialog.getByRole('img', { name: instruction })).toBeVisible();
  return dialog;
}

test('a selfie taken with the camera, approved in the console, shows the badge on the deck card', async ({
  browser,
  request,
  baseURL,
}) => {
  // Three accounts made through the SMS wizard and two browsers: slow on a loaded host.
  test.setTimeout(180_000);
  const spot = remoteSpot('Lejos');
  const carla = await person(request, 'Carla', spot, 3);
  const viewer = await person(request, 'Víctor', spot);
  const marta = await moderator(request);

  // Carla, with Chromium's fake camera (the permission prompt answered yes).
  const cameraBrowser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  });
  try {
    const page = await pageFor(cameraBrowser, carla, { baseURL });
    const dialog = await openVerification(page);
    await dialog.getByRole('button', { name: 'Hacer foto' }).click();
    await expect(dialog.getByRole('img', { name: 'Tu selfie' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Enviar selfie' }).click();
    await expect(dialog.getByRole('status')).toContainText('Solicitud enviada. La revisaremos en 24-48 horas.');
    await dialog.getByRole('button', { name: 'Entendido' }).click();
    await expect(page.getByTestId('verification-summary')).toHaveText(
      'Solicitud enviada. La revisaremos en 24-48 horas.',
    );
    await expect(page.getByText('En revisión')).toBeVisible();

    // Not verified yet for anyone.
    const before = await request.get(`/api/profiles/${carla.userId}`, { headers: auth(viewer) });
    expect(((await before.json()) as { profile: { verified: boolean } }).profile.verified).toBe(false);

    // Marta reviews in the console, in another browser context.
    const review = await pageFor(browser, marta);
    await review.goto('/moderacion/verificaciones');
    await expect(review.getByRole('heading', { name: 'Verificaciones', level: 1 })).toBeVisible();
    const card = review.getByRole('article').filter({ hasText: 'Carla' });
    await expect(card.getByRole('img', { name: 'Selfie de Carla' })).toBeVisible();
    await expect(card.getByRole('img', { name: 'Foto 1 del perfil de Carla' })).toBeVisible();
    await expect(card).toContainText('Pose pedida:');
    await card.getByRole('button', { name: 'Aprobar' }).click();
    await expect(card).toHaveCount(0);
    await review.goto('/moderacion/registro');
    await expect(review.getByRole('table')).toContainText('Verificación aprobada');

    // Víctor sees the badge on Carla's card.
    const deck = await pageFor(browser, viewer);
    await deck.goto('/home');
    const carlaCard = deck.getByRole('heading', { level: 2 }).filter({ hasText: 'Carla' });
    await expect(carlaCard).toContainText('Verificado');

    // Carla's settings say so, and a notification told her.
    await page.reload();
    await expect(page.getByTestId('verification-summary')).toHaveText('Tu perfil muestra la insignia de verificado.');
    const notes = await request.get('/api/notifications', { headers: auth(carla) });
    expect(JSON.stringify(await notes.json())).toContain('Perfil verificado');
  } finally {
    await cameraBrowser.close();
  }
});

test('without a camera the selfie is uploaded; a rejection shows its reason and allows a retry', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const spot = remoteSpot('Lejos');
  const nora = await person(request, 'Nora', spot, 5);
  const marta = await moderator(request);
  const page = await pageFor(browser, nora);
  // No camera here: the upload is the way.
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'mediaDevices', { value: undefined, configurable: true });
  });
  const dialog = await openVerification(page);
  await expect(dialog.getByRole('alert')).toContainText('Sube un selfie');
  await dialog.getByLabel('Subir una foto').setInputFiles({
    name: 'selfie.png',
    mimeType: 'image/png',
    buffer: pngPhoto(9),
  });
  await dialog.getByRole('button', { name: 'Enviar selfie' }).click();
  await expect(dialog.getByRole('status')).toContainText('Solicitud enviada');
  await dialog.getByRole('button', { name: 'Entendido' }).click();

  const review = await pageFor(browser, marta);
  await review.goto('/moderacion/verificaciones');
  const card = review.getByRole('article').filter({ hasText: 'Nora' });
  await card.getByRole('button', { name: 'Rechazar...' }).click();
  await card.getByRole('radio', { name: 'No se ve bien la cara' }).check();
  await card.getByLabel('Nota para la persona (opcional)').fill('Quítate la gorra');
  await card.getByRole('button', { name: 'Rechazar solicitud' }).click();
  await expect(card).toHaveCount(0);

  await page.reload();
  const reason = 'En el selfie no se te ve bien la cara. Quítate la gorra.';
  await expect(page.getByTestId('verification-summary')).toContainText(reason);
  await page.locator('#perfil').getByRole('button', { name: 'Volver a intentarlo' }).click();
  const again = page.getByRole('dialog', { name: 'Verificar perfil' });
  await expect(again.getByRole('alert')).toContainText(reason);
  await again.getByRole('button', { name: 'Iniciar verificación' }).click();
  await expect(again.getByText('Copia esta pose')).toBeVisible();
});
