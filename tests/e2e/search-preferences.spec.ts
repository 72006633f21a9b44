import { type APIRequestContext, expect, type Page, test } from './helpers/test.ts';
import { type Account, apiLogin, registerAccount } from './helpers/accounts.ts';
import { pngPhoto } from './helpers/png.ts';
import { storeSession } from './helpers/session.ts';
import { remoteSpot } from './helpers/spots.ts';

// /config «Preferencias de búsqueda» through the real screen (issue 32 §5, docs/decisions/0050):
// «Nivel de experiencia» and «Mostrar» changed there change the next deck. The server runs with
// DEMO_DATA=0, so every person is made here, in a spot of their own.

const SPOT = remoteSpot();
test.use({ permissions: ['geolocation'], geolocation: SPOT });

async function createProfile(
  request: APIRequestContext,
  account: Account,
  person: { gender: string; experienceLevel: string; sports: string[]; seed: number },
): Promise<void> {
  const token = await apiLogin(request, account.email, account.password);
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post('/api/profiles', {
    headers,
    data: {
      userId: account.userId,
      name: account.name,
      birthDate: '1994-05-10',
      gender: person.gender,
      bio: 'Entreno por las mañanas y busco compañía para las sesiones de fuerza.',
      location: SPOT,
      gym: { name: 'Gimnasio del Puerto', trainingSchedule: ['Mañana'] },
      training: {
        sports: person.sports,
        goals: ['Ganar músculo'],
        availability: ['Lunes mañana'],
        experienceLevel: person.experienceLevel,
      },
      preferences: { distance: 5 },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const uploaded = await request.post(`/api/profiles/${account.userId}/photos`, {
    headers,
    multipart: { photos: { name: 'foto.png', mimeType: 'image/png', buffer: pngPhoto(person.seed) } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(200);
}

const card = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name}, \\d+`) });

test('«Nivel de experiencia» and «Mostrar» in /config change the next deck', async ({ page, request }) => {
  const viewer = await registerAccount(request, { name: 'Vera' });
  const novata = await registerAccount(request, { name: 'Nerea' });
  const alba = await registerAccount(request, { name: 'Alba' });
  const andres = await registerAccount(request, { name: 'Andrés' });
  const sports = ['Musculación', 'Running'];
  await createProfile(request, viewer, { gender: 'female', experienceLevel: 'beginner', sports, seed: 11 });
  // The best fit (same level, same sports) is on top of the deck until the level filter says otherwise.
  await createProfile(request, novata, { gender: 'female', experienceLevel: 'beginner', sports, seed: 12 });
  await createProfile(request, alba, { gender: 'female', experienceLevel: 'advanced', sports: ['Yoga'], seed: 13 });
  await createProfile(request, andres, { gender: 'male', experienceLevel: 'advanced', sports: ['Boxeo'], seed: 14 });

  // Signed in by a stored session: this journey is about the deck, not the login form.
  await storeSession(page, viewer);
  await page.goto('/home');
  await expect(card(page, 'Nerea')).toBeVisible({ timeout: 20_000 });

  // «Nivel de experiencia: Avanzado».
  await page.goto('/config');
  const search = page.getByRole('region', { name: 'Preferencias de búsqueda' });
  await expect(search.getByText('A quién te sugerimos en Conectar.')).toBeVisible({ timeout: 15_000 });
  const level = search.getByLabel('Nivel de experiencia');
  const savedLevel = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
  await level.selectOption({ label: 'Avanzado' });
  expect((await savedLevel).status()).toBe(200);
  await page.getByRole('link', { name: 'Conectar' }).first().click();
  await expect(card(page, 'Alba').or(card(page, 'Andrés')).first()).toBeVisible({ timeout: 15_000 });
  await expect(card(page, 'Nerea')).toHaveCount(0);

  // «Mostrar: Hombres» is the profile's gender preference: saved on the profile, shown again after a reload.
  await page.goto('/config');
  const shown = search.getByLabel('Mostrar');
  await expect(shown).toHaveValue('all', { timeout: 15_000 });
  const savedGender = page.waitForResponse(
    (r) => r.url().endsWith(`/api/profiles/${viewer.userId}`) && r.request().method() === 'PUT',
  );
  await shown.selectOption({ label: 'Hombres' });
  expect((await savedGender).status()).toBe(200);
  await page.reload();
  await expect(search.getByLabel('Mostrar')).toHaveValue('male', { timeout: 15_000 });
  await expect(search.getByLabel('Nivel de experiencia')).toHaveValue('advanced');
  await page.getByRole('link', { name: 'Conectar' }).first().click();
  await expect(card(page, 'Andrés')).toBeVisible({ timeout: 15_000 });
  await expect(card(page, 'Alba')).toHaveCount(0);
  await page.getByRole('button', { name: 'Rechazar', exact: true }).click();
  await expect(page.getByText('No existen más perfiles para esa configuración')).toBeVisible();
});
