import { type APIRequestContext, type Browser, expect, type Page, test } from './helpers/test.ts';
import { type Account, apiLogin, registerAccount } from './helpers/accounts.ts';
import { pngPhoto } from './helpers/png.ts';
import { storeSession } from './helpers/session.ts';
import { remoteSpot } from './helpers/spots.ts';

// Discovery journeys (spec 001 §2, §4): the profile wizard, the deck, a mutual match, /matches
// and the empty deck. The server runs with DEMO_DATA=0, so every other person is made here.

const MADRID = { latitude: 40.4168, longitude: -3.7038 };
test.use({ permissions: ['geolocation'], geolocation: MADRID });

// ---- people ------------------------------------------------------------------------------

async function createProfile(
  request: APIRequestContext,
  account: Account,
  options: { location: { latitude: number; longitude: number }; distance: number; seed: number },
): Promise<void> {
  const token = await apiLogin(request, account.email, account.password);
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post('/api/profiles', {
    headers,
    data: {
      userId: account.userId,
      name: account.name,
      birthDate: '1994-05-10',
      bio: 'Entreno cada mañana y busco compañía para las sesiones de pierna.',
      location: options.location,
      gym: { name: 'Gimnasio Central', trainingSchedule: ['Mañana'] },
      training: { sports: ['Musculación', 'Running'], goals: ['Ganar músculo'], availability: ['Lunes mañana'] },
      preferences: { distance: options.distance },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const uploaded = await request.post(`/api/profiles/${account.userId}/photos`, {
    headers,
    multipart: { photos: { name: 'foto.png', mimeType: 'image/png', buffer: pngPhoto(options.seed) } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(200);
}

/** A stored session (helpers/session.ts), then /home: the login form is auth-session.spec.ts's. */
async function signIn(page: Page, account: Account): Promise<void> {
  await storeSession(page, account);
  await page.goto('/home');
  await expect(page).toHaveURL(/\/home$/);
}

async function signedInPage(browser: Browser, account: Account): Promise<Page> {
  const context = await browser.newContext({ permissions: ['geolocation'], geolocation: MADRID });
  const page = await context.newPage();
  await signIn(page, account);
  return page;
}

// ---- journeys ----------------------------------------------------------------------------

test('a new user completes the four-step wizard with a photo and then sees the deck', async ({ page, request }) => {
  // Someone near Madrid, so the new user's deck has a card.
  const neighbour = await registerAccount(request, { name: 'Carmen' });
  await createProfile(request, neighbour, { location: MADRID, distance: 50, seed: 1 });

  const account = await registerAccount(request, { name: 'Lucía' });
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: /Crea tu perfil/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Atrás' })).toBeDisabled();

  // Step 1: the name given at registration is carried over; emptied, the shared validators' texts.
  await expect(page.getByLabel('Nombre', { exact: true })).toHaveValue('Lucía');
  await page.getByLabel('Nombre', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByText('El nombre debe contener solo letras y espacios (1-20 caracteres)')).toBeVisible();
  await expect(page.getByText('La fecha de nacimiento es obligatoria')).toBeVisible();
  await expect(page.getByText('La bio debe tener entre 10 y 500 caracteres')).toBeVisible();
  await page.getByLabel('Nombre', { exact: true }).fill('Lucía');
  await page.getByLabel('Fecha de nacimiento').fill('1996-03-14');
  await page.getByLabel('Bio').fill('Me encanta entrenar por las mañanas y salir a correr.');
  await page.getByRole('button', { name: 'Mujer' }).click();
  await page.getByRole('button', { name: 'Siguiente' }).click();

  // Step 2: gym suggestions after 3 characters.
  await expect(page.getByRole('heading', { name: 'Información del Gimnasio' })).toBeVisible();
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByText('Selecciona al menos un horario de entrenamiento')).toBeVisible();
  await page.getByLabel('Nombre del gimnasio').fill('Basic');
  const suggestions = page.getByRole('list', { name: 'Sugerencias de gimnasios' });
  // Ranked around the user's position (sent snapped, wizard-store.test.ts): the first club is a
  // Madrid one, with its distance, which the server only gives when the search has a position.
  await expect(suggestions.getByRole('button').first()).toContainText(/Madrid.*A (menos de )?\d+ km/);
  await expect(suggestions.getByRole('button').first()).toBeVisible();
  await suggestions.getByRole('button').first().click();
  await page.getByRole('button', { name: 'Mañana', exact: true }).click();
  await page.getByRole('button', { name: 'Siguiente' }).click();

  // Step 3.
  await expect(page.getByRole('heading', { name: 'Preferencias de Entrenamiento' })).toBeVisible();
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByText('Selecciona al menos un deporte')).toBeVisible();
  await expect(page.getByText('Selecciona al menos un objetivo')).toBeVisible();
  await expect(page.getByText('Selecciona al menos un horario de disponibilidad')).toBeVisible();
  await page.getByRole('button', { name: 'Musculación' }).click();
  await page.getByRole('button', { name: 'Ganar músculo' }).click();
  await page.getByRole('button', { name: 'Lunes mañana' }).click();
  await page.getByRole('button', { name: 'Siguiente' }).click();

  // Step 4: a photo is required; a wrong type is refused with the spec's text.
  await expect(page.getByRole('heading', { name: 'Información Adicional y Fotos' })).toBeVisible();
  await page.getByRole('button', { name: 'Guardar perfil' }).click();
  await expect(page.getByText('Debes subir al menos una foto')).toBeVisible();
  const fileInput = page.locator('input[type=file]');
  await fileInput.setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
  await expect(page.getByText('Formato de imagen no soportado. Utiliza JPG, PNG o WEBP.')).toBeVisible();
  await fileInput.setInputFiles({ name: 'yo.png', mimeType: 'image/png', buffer: pngPhoto(7) });
  await expect(page.getByRole('img', { name: 'Foto 1' })).toBeVisible();
  // Optional social links, checked with the same rules as the server.
  await page.getByLabel('Atleta de Strava').fill('lucia');
  await page.getByRole('button', { name: 'Guardar perfil' }).click();
  await expect(page.getByText('El atleta de Strava debe ser el número de tu perfil (1-12 dígitos)')).toBeVisible();
  await page.getByLabel('Atleta de Strava').fill('https://www.strava.com/athletes/4242');
  await page.getByLabel('Usuario de Instagram').fill('@lucia.entrena');

  const progress: number[] = [];
  await page.exposeFunction('reportProgress', (percent: number) => progress.push(percent));
  await page.evaluate(() =>
    window.addEventListener('photo-upload-progress', (event) =>
      (window as unknown as { reportProgress(p: number): void }).reportProgress(
        (event as CustomEvent<{ percent: number }>).detail.percent,
      ),
    ),
  );
  await page.getByRole('button', { name: 'Guardar perfil' }).click();

  // The deck.
  await expect(page.getByRole('heading', { name: 'Conectar', level: 1 })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Entreno', exact: true })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Rechazar', exact: true })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Super Entreno', exact: true })).toBeEnabled();
  await expect(page.getByText(/% Entreno$/).first()).toBeVisible();
  expect(progress.at(-1)).toBe(100);

  // The saved profile has the uploaded photo.
  const token = await apiLogin(request, account.email, account.password);
  const own = await request.get(`/api/profiles/${account.userId}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await own.json()) as {
    profile: { photos: string[]; name: string; gym: { name: string }; social: unknown };
  };
  expect(body.profile.name).toBe('Lucía');
  expect(body.profile.photos).toHaveLength(1);
  expect(body.profile.gym.name).toMatch(/Basic/);
  expect(body.profile.social).toEqual({ instagram: 'lucia.entrena', strava: '4242' });
});

test('/edit-profile clears an emptied last name and edits the social links', async ({ page, request }) => {
  const account = await registerAccount(request, { name: 'Marta' });
  await createProfile(request, account, { location: remoteSpot(), distance: 5, seed: 5 });
  const token = await apiLogin(request, account.email, account.password);
  const headers = { authorization: `Bearer ${token}` };
  const seeded = await request.put(`/api/profiles/${account.userId}`, {
    headers,
    data: { userId: account.userId, lastName: 'Ruiz', social: { instagram: 'marta.ruiz', spotify: 'marta_r' } },
  });
  expect(seeded.status(), await seeded.text()).toBe(200);

  await signIn(page, account);
  await page.goto('/edit-profile');
  const lastName = page.getByLabel('Apellido (opcional)');
  await expect(lastName).toHaveValue('Ruiz', { timeout: 15_000 });
  await expect(page.getByLabel('Usuario de Instagram')).toHaveValue('marta.ruiz');
  await lastName.fill('');
  await page.getByLabel('Usuario de Spotify').fill('');
  await page.getByLabel('Atleta de Strava').fill('https://www.strava.com/athletes/777');
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Perfil actualizado')).toBeVisible({ timeout: 15_000 });

  const own = await request.get(`/api/profiles/${account.userId}`, { headers });
  const { profile } = (await own.json()) as { profile: { lastName: string | null; social: unknown } };
  expect(profile.lastName).toBeNull();
  expect(profile.social).toEqual({ instagram: 'marta.ruiz', strava: '777' });
  await page.reload();
  await expect(page.getByLabel('Atleta de Strava')).toHaveValue('777', { timeout: 15_000 });
  await expect(page.getByLabel('Apellido (opcional)')).toHaveValue('');
});

test('two users like each other: both get the match, the second sees the modal, /matches lists it', async ({
  browser,
  request,
}) => {
  const spot = remoteSpot();
  const ana = await registerAccount(request, { name: 'Ana' });
  const bruno = await registerAccount(request, { name: 'Bruno' });
  await createProfile(request, ana, { location: spot, distance: 5, seed: 2 });
  await createProfile(request, bruno, { location: spot, distance: 5, seed: 3 });

  // Ana likes Bruno first: no match yet.
  const anaPage = await signedInPage(browser, ana);
  await expect(anaPage.getByRole('button', { name: /^Bruno, \d+/ })).toBeVisible();
  await anaPage.getByRole('button', { name: 'Entreno', exact: true }).click();
  await expect(anaPage.getByText('No existen más perfiles para esa configuración')).toBeVisible();
  await expect(anaPage.getByRole('dialog', { name: '¡Nuevo Entrenamiento!' })).toHaveCount(0);

  // Bruno opens Ana's full profile, then likes her back: the celebration.
  const brunoPage = await signedInPage(browser, bruno);
  await brunoPage.getByRole('button', { name: /^Ana, \d+/ }).click();
  const profileDialog = brunoPage.getByRole('dialog');
  await expect(profileDialog.getByText('Gimnasio Central')).toBeVisible();
  await brunoPage.keyboard.press('Escape');
  await expect(profileDialog).toHaveCount(0);
  await brunoPage.getByRole('button', { name: 'Entreno', exact: true }).click();
  const celebration = brunoPage.getByRole('dialog', { name: '¡Nuevo Entrenamiento!' });
  // Headless UI's dialog root has no box of its own: its title is what shows.
  await expect(celebration.getByRole('heading', { name: '¡Nuevo Entrenamiento!' })).toBeVisible();
  await expect(celebration.getByText('¡Has conectado con Ana!')).toBeVisible();
  await expect(celebration.getByRole('link', { name: /mensaje/i })).toHaveAttribute('href', /^\/messages\/.+/);
  await celebration.getByRole('button', { name: 'Seguir buscando compañeros' }).click();
  await expect(celebration).toHaveCount(0);
  await expect(brunoPage.getByText('No existen más perfiles para esa configuración')).toBeVisible();

  // Both see the match on /matches.
  for (const [page, other] of [
    [brunoPage, 'Ana'],
    [anaPage, 'Bruno'],
  ] as const) {
    await page.goto('/matches');
    await expect(page.getByRole('heading', { name: 'Tus entrenamientos (1)', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: new RegExp(`^${other}, \\d+`) })).toBeVisible();
    await expect(page.getByText('Ganar músculo')).toBeVisible();
    const chat = page.getByRole('link', { name: 'Iniciar chat' });
    await expect(chat).toHaveAttribute('href', /^\/messages\/.+/);
    await expect(page.getByRole('img', { name: `Foto de ${other}` })).toBeVisible();
  }
  await anaPage.context().close();
  await brunoPage.context().close();
});

test('with nobody in range the deck shows the empty state and the preferences dialog', async ({ page, request }) => {
  const loner = await registerAccount(request, { name: 'Sofía' });
  await createProfile(request, loner, { location: remoteSpot(), distance: 1, seed: 4 });
  await signIn(page, loner);
  await expect(page.getByText('No existen más perfiles para esa configuración')).toBeVisible();
  await page.getByRole('button', { name: 'Ajustar preferencias' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ajustar Preferencias' });
  await expect(dialog.getByRole('heading', { name: 'Ajustar Preferencias' })).toBeVisible();
  await dialog.getByLabel('Edad mínima').fill('60');
  await dialog.getByLabel('Edad máxima').fill('30');
  await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(dialog.getByText('La edad mínima no puede ser mayor que la máxima')).toBeVisible();
  await dialog.getByLabel('Edad mínima').fill('25');
  await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('No existen más perfiles para esa configuración')).toBeVisible();
  // Issue #35: the empty deck offers the open sessions nearby.
  await expect(page.getByRole('link', { name: 'Ver entrenos abiertos cerca' })).toHaveAttribute(
    'href',
    '/entrenos/abiertos',
  );
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/empty-deck-open-sessions-390.png' });

  // /matches is empty and leads back to exploring.
  await page.goto('/matches');
  await expect(page.getByRole('heading', { name: 'Tus entrenamientos (0)' })).toBeVisible();
  await page.getByRole('link', { name: 'Volver a explorar' }).click();
  await expect(page).toHaveURL(/\/home$/);
});
