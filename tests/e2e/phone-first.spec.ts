/**
 * Issue #20: a new user's first minutes on a phone (390×844, touch). Each journey failed on the
 * main of its day and holds the fix: a strong swipe stays in the app, the phone field reads what
 * people type and paste, the wizard's draft survives a reload, one distance, decisions from the
 * full profile, the offline deck, the in-app message banner.
 */
import { outboxFor, registerAccount, uniquePhone } from './helpers/accounts.ts';
import { profileBody, type SignedIn, signIn } from './helpers/chat-setup.ts';
import { pngPhoto } from './helpers/png.ts';
import { type APIRequestContext, type Browser, type BrowserContext, expect, type Page, test } from './helpers/test.ts';

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE, hasTouch: true });

/** A spot of its own, so people made by other tests never show up in these decks. */
function remoteSpot(): { latitude: number; longitude: number; city: string } {
  return { latitude: 37 + Math.random() * 5, longitude: -7 + Math.random() * 6, city: 'Toledo' };
}

async function personAt(
  request: APIRequestContext,
  name: string,
  spot: { latitude: number; longitude: number; city: string },
  extra: Record<string, unknown> = {},
): Promise<SignedIn> {
  const user = await signIn(request, await registerAccount(request, { name }));
  const created = await request.post('/api/profiles', {
    data: { ...profileBody(user.userId, name, spot), ...extra },
    headers: { authorization: `Bearer ${user.token}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  return user;
}

/** A phone-sized, touch-enabled context signed in as `user`. */
async function phoneFor(browser: Browser, user: SignedIn): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: PHONE,
    hasTouch: true,
    permissions: ['geolocation'],
    geolocation: { latitude: 40.4168, longitude: -3.7038 },
  });
  await context.addInitScript(
    ({ token, stored }) => {
      if (!window.localStorage.getItem('token')) {
        window.localStorage.setItem('token', token);
        window.localStorage.setItem('user', stored);
      }
    },
    { token: user.token, stored: JSON.stringify(user.user) },
  );
  return { context, page: await context.newPage() };
}

/** A finger drag with real touch events (CDP), from `from` to `to` in steps; `during` runs before the finger lifts. */
async function touchDrag(
  page: Page,
  from: { x: number; y: number },
  to: { x: number; y: number },
  during?: () => Promise<void>,
): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  const steps = 12;
  for (let step = 1; step <= steps; step += 1) {
    const point = { x: from.x + ((to.x - from.x) * step) / steps, y: from.y + ((to.y - from.y) * step) / steps };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  }
  await during?.();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

const card = (page: Page, name: string) => page.getByRole('article', { name: new RegExp(`^${name}, \\d+ años$`) });

test('a strong right swipe past the screen edge likes the card and never leaves the app or widens the page', async ({
  browser,
  request,
}) => {
  const spot = remoteSpot();
  const me = await personAt(request, 'Lucía', spot);
  // In the deck's order: the first is liked by a strong swipe, the second from inside the full
  // profile, the third by a drag ending at the edge.
  for (const name of ['Carmen', 'Irene', 'Sara']) await personAt(request, name, spot);
  const { context, page } = await phoneFor(browser, me);
  await page.goto('/home');
  const top = page.getByRole('article').first();
  await expect(top).toBeVisible({ timeout: 15_000 });
  const topName = async () =>
    ((await page.getByRole('article').first().getAttribute('aria-label')) ?? '').split(',')[0];
  const firstName = (await topName()) as string;
  const nav = page.getByRole('navigation', { name: 'Navegación principal' });
  const navBefore = await nav.boundingBox();

  const box = await card(page, firstName).boundingBox();
  if (!box) throw new Error('no card box');
  const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  let widthWhileDragging = 0;
  let navWhileDragging: Awaited<ReturnType<typeof nav.boundingBox>> = null;
  await touchDrag(page, start, { x: PHONE.width + 60, y: start.y + 10 }, async () => {
    widthWhileDragging = await page.evaluate(() => document.documentElement.scrollWidth);
    navWhileDragging = await nav.boundingBox();
  });
  // The layout kept the phone's width while the card was off screen: no sideways scroll, no shifted bar.
  expect(widthWhileDragging).toBeLessThanOrEqual(PHONE.width);
  expect(navWhileDragging).toEqual(navBefore);

  // Liked: the next person is on top, and the app is still on /home, not scrolled sideways.
  await expect(card(page, firstName)).toHaveCount(0);
  await expect(page).toHaveURL(/\/home$/);
  expect(await page.evaluate(() => [window.scrollX, document.documentElement.scrollWidth])).toEqual([0, PHONE.width]);

  // Deciding from the full profile: Entreno inside it closes it and likes.
  const secondName = (await topName()) as string;
  expect(secondName).not.toBe(firstName);
  await page.getByRole('button', { name: new RegExp(`^${secondName}, \\d+`) }).click();
  const full = page.getByRole('dialog');
  await expect(full.getByText('Altafit Argüelles')).toBeVisible();
  await expect(full.getByRole('button', { name: 'Rechazar', exact: true })).toBeVisible();
  await expect(full.getByRole('button', { name: 'Super Entreno', exact: true })).toBeVisible();
  await full.getByRole('button', { name: 'Entreno', exact: true }).click();
  await expect(full).toHaveCount(0);
  await expect(card(page, secondName)).toHaveCount(0);

  // A drag ending right at the edge likes too.
  const thirdName = (await topName()) as string;
  const second = await card(page, thirdName).boundingBox();
  if (!second) throw new Error('no card box');
  await touchDrag(page, { x: second.x + 40, y: second.y + second.height / 2 }, { x: PHONE.width - 1, y: start.y });
  await expect(page.getByText('No existen más perfiles para esa configuración')).toBeVisible();
  await expect(page).toHaveURL(/\/home$/);
  await context.close();
});

/** Walks the e-mail wizard to its phone step. */
async function toPhoneStep(page: Page): Promise<void> {
  await page.goto('/register/email');
  await page.getByLabel('Nombre', { exact: true }).fill('Lucía');
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await page.getByLabel('Correo electrónico').fill(`phone.${Date.now()}.${Math.random()}@example.com`);
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByRole('heading', { name: 'Tu teléfono' })).toBeVisible();
}

test('the phone field reads typed and pasted formats as the 9 national digits and says why Verificar waits', async ({
  page,
  request,
}) => {
  await toPhoneStep(page);
  const phone = page.getByLabel('Teléfono');
  const verify = page.getByRole('button', { name: 'Verificar' });
  const national = uniquePhone().slice(3);

  // Typed with the country prefix: halfway it is too short, never a stranger's 9 digits.
  await phone.pressSequentially(`+34 ${national.slice(0, 7)}`);
  await expect(verify).toBeDisabled();
  await expect(verify).toHaveAccessibleDescription('Faltan 2 dígitos: un móvil español tiene 9.');
  await phone.pressSequentially(national.slice(7));
  await expect(verify).toBeEnabled();
  const spaced = `${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`;
  await expect(page.getByTestId('phone-hint')).toHaveText(`Enviaremos el código al +34 ${spaced}.`);

  // Pasted the way people write it down, and the other prefixes.
  for (const pasted of [
    `${national.slice(0, 3)} ${national.slice(3, 5)} ${national.slice(5, 7)} ${national.slice(7)}`,
    `0034 ${spaced}`,
    `+34.${national.slice(0, 3)}-${national.slice(3)}`,
  ]) {
    await phone.fill(pasted);
    await expect(verify, pasted).toBeEnabled();
  }
  // Not a mobile, a foreign number, one digit too many: disabled, with the reason.
  for (const [typed, reason] of [
    ['912 48 37 92', 'Debe ser un móvil: empieza por 6 o 7.'],
    ['+33 612 48 37 92', 'Solo se admiten números de España (+34).'],
    [`${national}1`, 'Sobran dígitos: un móvil español tiene 9 (sin contar el +34).'],
  ] as const) {
    await phone.fill(typed);
    await expect(verify, typed).toBeDisabled();
    await expect(verify).toHaveAccessibleDescription(reason);
  }

  // The code goes to the number the person meant.
  await phone.fill(`+34 ${spaced}`);
  await verify.click();
  await expect(page.getByLabel('Dígito 1 de 6')).toBeFocused();
  const [sms] = await outboxFor(request, `+34${national}`);
  expect(sms?.code).toMatch(/^\d{6}$/);
});

test('the profile wizard keeps its draft across reloads, carries the registration name and asks nothing twice', async ({
  browser,
  request,
}) => {
  const user = await signIn(request, await registerAccount(request, { name: 'Nerea' }));
  const { context, page } = await phoneFor(browser, user);
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: /Crea tu perfil/ })).toBeVisible({ timeout: 15_000 });
  // The first name typed at registration is already there.
  await expect(page.getByLabel('Nombre', { exact: true })).toHaveValue('Nerea');
  await page.getByLabel('Fecha de nacimiento').fill('1996-03-14');
  await page.getByLabel('Bio').fill('Entreno fuerza por las mañanas y busco compañía.');
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByRole('heading', { name: 'Información del Gimnasio' })).toBeVisible();
  await page.getByLabel('Nombre del gimnasio').fill('Gimnasio del Barrio');
  await page.getByRole('button', { name: 'Tarde', exact: true }).click();

  // A reload (or the phone evicting the tab) resumes on step 2 with everything typed.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Información del Gimnasio' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByLabel('Nombre del gimnasio')).toHaveValue('Gimnasio del Barrio');
  await expect(page.getByRole('button', { name: 'Tarde', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Atrás' }).click();
  await expect(page.getByLabel('Fecha de nacimiento')).toHaveValue('1996-03-14');
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await page.getByRole('button', { name: 'Musculación' }).click();
  await page.getByRole('button', { name: 'Ganar músculo' }).click();
  await page.getByRole('button', { name: 'Lunes mañana' }).click();
  await page.getByRole('button', { name: 'Siguiente' }).click();

  // Step 4: body data empty, who sees the sensitive fields said next to them.
  await expect(page.getByRole('heading', { name: 'Información Adicional y Fotos' })).toBeVisible();
  await expect(page.getByLabel('Altura (cm)')).toHaveValue('');
  await expect(page.getByLabel('Peso (kg)')).toHaveValue('');
  await expect(
    page.getByText(/Quién lo ve: tus lesiones y tu alimentación solo las verán las personas con las que hagas match/),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Lesión de rodilla' }).click();

  // Saving without a photo takes the person to the error.
  await page.getByRole('button', { name: 'Guardar perfil' }).click();
  // The message's paragraph takes focus (its text is in a span inside it).
  const missing = page.getByText('Debes subir al menos una foto').locator('..');
  await expect(missing).toBeFocused();
  await expect(missing).toBeInViewport();

  // A photo picked, then a reload: still there.
  await page.locator('input[type=file]').setInputFiles({ name: 'yo.png', mimeType: 'image/png', buffer: pngPhoto(3) });
  await expect(page.getByRole('img', { name: 'Foto 1' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('img', { name: 'Foto 1' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Lesión de rodilla' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Guardar perfil' }).click();
  await expect(page.getByRole('heading', { name: 'Conectar', level: 1 })).toBeVisible({ timeout: 20_000 });

  // Saved as typed: no made-up height or weight; the kept draft is gone from the device.
  const own = await request.get(`/api/profiles/${user.userId}`, { headers: { authorization: `Bearer ${user.token}` } });
  const { profile } = (await own.json()) as { profile: { name: string; health: Record<string, unknown> } };
  expect(profile.name).toBe('Nerea');
  expect(profile.health).toMatchObject({ height: null, weight: null, injuries: ['Lesión de rodilla'] });
  const keptDraft = () =>
    page.evaluate(async (userId) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const opened = indexedDB.open(`entreno-${userId}`);
        opened.onsuccess = () => resolve(opened.result);
        opened.onerror = () => reject(opened.error);
      });
      const read = (store: string, key?: IDBValidKey) =>
        new Promise<unknown>((resolve) => {
          const request =
            key === undefined
              ? db.transaction(store).objectStore(store).count()
              : db.transaction(store).objectStore(store).get(key);
          request.onsuccess = () => resolve(request.result);
        });
      const found = [await read('meta', 'wizard:profileDraft'), await read('wizardPhotos')];
      db.close();
      return found;
    }, user.userId);
  await expect.poll(keptDraft).toEqual([undefined, 0]);
  await context.close();
});
