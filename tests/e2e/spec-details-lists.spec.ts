// Long on purpose: the spec's list screens journey by journey, sharing one set of matched accounts.
import type { APIRequestContext, Browser, BrowserContext, Locator, Page, Route } from '@playwright/test';
import { registerAccount } from './helpers/accounts.ts';
import { matchUsers, pageFor as openPageFor, profileBody, type SignedIn, signIn } from './helpers/chat-setup.ts';
import { pngPhoto } from './helpers/png.ts';
import { apiPath, failRequests, holdRequests } from './helpers/routes.ts';
import { expect, test } from './helpers/test.ts';

/**
 * The details of spec 001 §2 that no other journey pins down (docs/spec-conformance.md): the
 * full-screen gallery's wrap-around, the profile modal's optional blocks, /matches' card texts and
 * empty state, /messages' loading, error and connection states, and the notification list's
 * texts and cards — plus a notification taken back by the server leaving an open list (#19).
 * Everyone is made once for the file, through the API; each journey opens its own page.
 */

type People = { marta: SignedIn; olga: SignedIn; sara: SignedIn; nerea: SignedIn };
let people: People;

const auth = (user: SignedIn) => ({ authorization: `Bearer ${user.token}` });

/** A page signed in as `user`, in a context of its own that closes when the journey ends. */
const opened: BrowserContext[] = [];
async function pageFor(browser: Browser, user: SignedIn): Promise<Page> {
  const page = await openPageFor(browser, user);
  opened.push(page.context());
  return page;
}
test.afterEach(async () => {
  await Promise.all(opened.splice(0).map((context) => context.close()));
});

async function createProfile(api: APIRequestContext, user: SignedIn, extra: Record<string, unknown> = {}) {
  const created = await api.post('/api/profiles', {
    data: { ...profileBody(user.userId, user.name), ...extra },
    headers: auth(user),
  });
  expect(created.status(), await created.text()).toBe(201);
}

async function uploadPhotos(api: APIRequestContext, user: SignedIn, seeds: number[]) {
  for (const seed of seeds) {
    const uploaded = await api.post(`/api/profiles/${user.userId}/photos`, {
      headers: auth(user),
      multipart: { photos: { name: `foto-${seed}.png`, mimeType: 'image/png', buffer: pngPhoto(seed) } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(200);
  }
}

test.beforeAll(async ({ playwright }, testInfo) => {
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    const person = async (name: string) => signIn(api, await registerAccount(api, { name }));
    const [marta, olga, sara, nerea] = [
      await person('Marta'),
      await person('Olga'),
      await person('Sara'),
      await person('Nerea'),
    ];
    people = { marta, olga, sara, nerea };
    await createProfile(api, marta);
    await createProfile(api, nerea);
    // Olga shares neither her city nor her training stats, and entered no health data or networks.
    await createProfile(api, olga);
    const hidden = await api.put('/api/settings', {
      data: { privacy: { shareLocation: false, showTrainingStats: false } },
      headers: auth(olga),
    });
    expect(hidden.status(), await hidden.text()).toBe(200);
    // Sara has all of it, five goals and three photos.
    await createProfile(api, sara, {
      training: {
        sports: ['Musculación', 'Running'],
        goals: ['Ganar músculo', 'Perder peso', 'Tonificar', 'Mejorar resistencia', 'Aumentar fuerza'],
        availability: ['Lunes mañana'],
        experienceLevel: 'advanced',
        frequency: 5,
      },
      health: { height: 168, weight: 61, injuries: ['Lesión de rodilla'] },
      social: { instagram: 'sara.entrena', strava: '4815162342' },
    });
    await uploadPhotos(api, sara, [11, 12, 13]);
    await matchUsers(api, marta, olga);
    await matchUsers(api, marta, sara);
  } finally {
    await api.dispose();
  }
});

// ---- /matches, the profile modal and the gallery -------------------------------------------

const matchCard = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('button', { name: new RegExp(`^${name}\\b`) }) });

test.describe('/matches, the profile modal and the gallery', () => {
  test('/matches cards: "Ubicación no disponible" without a city, at most 3 goals', async ({ browser }) => {
    const page = await pageFor(browser, people.marta);
    await page.goto('/matches');
    await expect(page.getByRole('heading', { level: 1, name: /^Tus entrenamientos/ })).toBeVisible();
    const olga = matchCard(page, 'Olga');
    const sara = matchCard(page, 'Sara');
    await expect(olga.getByText('Ubicación no disponible')).toBeVisible();
    await expect(sara.getByText('Madrid', { exact: true })).toBeVisible();
    await expect(sara.getByText('Ubicación no disponible')).toHaveCount(0);
    for (const goal of ['Ganar músculo', 'Perder peso', 'Tonificar']) {
      await expect(sara.getByText(goal, { exact: true })).toBeVisible();
    }
    for (const goal of ['Mejorar resistencia', 'Aumentar fuerza']) {
      await expect(sara.getByText(goal, { exact: true })).toHaveCount(0);
    }
    await expect(olga.getByText('Aumentar fuerza', { exact: true })).toBeVisible();
  });

  test('the profile modal shows the health, stats and social blocks only when present', async ({ browser }) => {
    const page = await pageFor(browser, people.marta);
    await page.goto('/matches');
    await expect(page.getByRole('heading', { level: 1, name: /^Tus entrenamientos/ })).toBeVisible();
    const block = (dialog: Locator, title: string) => dialog.getByRole('heading', { level: 3, name: title });

    await matchCard(page, 'Sara')
      .getByRole('button', { name: /^Sara\b/ })
      .click();
    const sara = page.getByRole('dialog', { name: /^Sara\b/ });
    await expect(block(sara, 'Entrenamiento')).toBeVisible();
    await expect(block(sara, 'Salud')).toBeVisible();
    await expect(sara.getByText('168 cm')).toBeVisible();
    await expect(sara.getByText('Lesión de rodilla')).toBeVisible();
    await expect(block(sara, 'Estadísticas')).toBeVisible();
    await expect(sara.getByText(/^\d+ días$/)).toBeVisible();
    await expect(block(sara, 'Redes sociales')).toBeVisible();
    await expect(sara.getByRole('link', { name: /Instagram/ })).toHaveAttribute(
      'href',
      'https://www.instagram.com/sara.entrena',
    );
    await expect(sara.getByRole('link', { name: /Strava/ })).toHaveAttribute(
      'href',
      'https://www.strava.com/athletes/4815162342',
    );
    await page.keyboard.press('Escape');
    await expect(sara).toHaveCount(0);

    await matchCard(page, 'Olga')
      .getByRole('button', { name: /^Olga\b/ })
      .click();
    const olga = page.getByRole('dialog', { name: /^Olga\b/ });
    // Loaded (the training block is always there) before looking for what must be absent.
    await expect(block(olga, 'Entrenamiento')).toBeVisible();
    await expect(olga.getByText('Ubicación no disponible')).toBeVisible();
    for (const title of ['Salud', 'Estadísticas', 'Redes sociales']) await expect(block(olga, title)).toHaveCount(0);
  });

  test('the full-screen gallery wraps around: previous of the first is the last, next of the last the first', async ({
    browser,
  }) => {
    const page = await pageFor(browser, people.marta);
    await page.goto('/matches');
    await expect(page.getByRole('heading', { level: 1, name: /^Tus entrenamientos/ })).toBeVisible();
    await matchCard(page, 'Sara')
      .getByRole('button', { name: /^Sara\b/ })
      .click();
    const profile = page.getByRole('dialog', { name: /^Sara\b/ });
    await profile.getByRole('button', { name: /^Ver foto 1 de Sara.* a pantalla completa$/ }).click();
    const gallery = page.getByRole('dialog', { name: /^Fotos de Sara/ });
    const shows = async (position: number) => {
      await expect(gallery.getByText(`${position} / 3`, { exact: true })).toBeVisible();
      await expect(gallery.getByRole('img', { name: `Foto ${position} de 3 de Sara` })).toBeVisible();
    };
    await shows(1);
    await gallery.getByRole('button', { name: 'Foto anterior' }).click();
    await shows(3);
    await gallery.getByRole('button', { name: 'Foto siguiente' }).click();
    await shows(1);
    await gallery.getByRole('button', { name: 'Foto siguiente' }).click();
    await shows(2);
    // The arrow keys wrap alike.
    await page.keyboard.press('ArrowRight');
    await shows(3);
    await page.keyboard.press('ArrowRight');
    await shows(1);
    await page.keyboard.press('ArrowLeft');
    await shows(3);
    await gallery.getByRole('button', { name: 'Cerrar galería' }).click();
    await expect(gallery).toHaveCount(0);
  });

  test('/matches with no match offers "Volver a explorar" to /home', async ({ browser }) => {
    const page = await pageFor(browser, people.nerea);
    await page.goto('/matches');
    await expect(page.getByRole('heading', { level: 1, name: /^Tus entrenamientos/ })).toBeVisible();
    const back = page.getByRole('link', { name: 'Volver a explorar' });
    await expect(back).toHaveAttribute('href', '/home');
    await back.click();
    await expect(page).toHaveURL(/\/home$/);
  });
});

// ---- /messages -------------------------------------------------------------------------------

const conversationsCall = apiPath('/api/messages/conversations');
// The list also fills from the device's store, which the sync feeds: it is held (or failed) too.
const syncCall = apiPath('/api/sync');

test.describe('/messages', () => {
  test('/messages shows a skeleton while the conversations load', async ({ browser }) => {
    const page = await pageFor(browser, people.marta);
    const held = await holdRequests(page, (url) => conversationsCall(url) || syncCall(url));
    await page.goto('/messages');
    await expect(page.getByRole('heading', { level: 1, name: /^Mensajes/ })).toBeVisible();
    const skeleton = page.getByTestId('conversations-skeleton');
    await expect(skeleton).toBeVisible();
    await expect(page.getByRole('link', { name: /Olga/ })).toHaveCount(0);
    await held.release();
    await expect(page.getByRole('link', { name: /Olga/ })).toBeVisible();
    await expect(skeleton).toHaveCount(0);
  });

  test('/messages says "Error al cargar las conversaciones" with "Reintentar", which loads them', async ({
    browser,
  }) => {
    const page = await pageFor(browser, people.marta);
    const failing = await failRequests(page, conversationsCall);
    await failRequests(page, syncCall);
    await page.goto('/messages');
    await expect(page.getByRole('heading', { level: 1, name: /^Mensajes/ })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Error al cargar las conversaciones' })).toBeVisible();
    // Only the list call works again (the sync still fails): what Reintentar loads shows.
    await failing.restore();
    await page.getByRole('button', { name: 'Reintentar' }).click();
    await expect(page.getByRole('link', { name: /Sara/ })).toBeVisible();
    await expect(page.getByText('Error al cargar las conversaciones')).toHaveCount(0);
  });

  test('/messages banner: "Conectando...", "Reconectando...", "Sin conexión", and nothing once connected', async ({
    browser,
  }) => {
    const page = await pageFor(browser, people.marta);
    // The socket's first requests get no answer (connecting), then fail (reconnecting).
    const unanswered: Route[] = [];
    let isRefusing = false;
    const socketCalls = '**/socket.io/**';
    await page.route(socketCalls, (route) => (isRefusing ? route.abort() : void unanswered.push(route)));
    await page.goto('/messages');
    await expect(page.getByRole('heading', { level: 1, name: /^Mensajes/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /Olga/ })).toBeVisible();
    const banner = page.getByTestId('connection-banner');
    await expect(banner).toHaveText('Conectando...');
    isRefusing = true;
    for (const route of unanswered.splice(0)) await route.abort();
    await expect(banner).toHaveText('Reconectando...');
    await page.unroute(socketCalls);
    // Connected: the list keeps no permanent "Conectado" row (issue #20).
    await expect(banner).toHaveCount(0);
    await page.context().setOffline(true);
    await expect(banner).toHaveText('Sin conexión');
    await page.context().setOffline(false);
    await expect(banner).toHaveCount(0);
  });
});

// ---- /notifications ----------------------------------------------------------------------------

const cards = (page: Page) => page.getByTestId('notification-card');
const card = (page: Page, title: string) => cards(page).filter({ hasText: title });
const listCall = apiPath('/api/notifications');

async function notify(
  api: APIRequestContext,
  user: SignedIn,
  data: { title: string; body?: string; type?: string; priority?: string },
): Promise<string> {
  const response = await api.post('/api/dev/notifications', { data: { body: '', ...data }, headers: auth(user) });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { notification: { _id: string } }).notification._id;
}

/** How a card looks: its left border, its icon's opacity and its title's colour, as sRGB. */
function cardLook(locator: Locator) {
  return locator.evaluate((element) => {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
    // Colours may be oklch(): the canvas turns any CSS colour into sRGB bytes.
    const rgb = (color: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)] as [number, number, number];
    };
    const icon = element.querySelector(':scope > span[aria-hidden="true"]') as Element;
    const title = element.querySelector('h2') as Element;
    return {
      border: rgb(getComputedStyle(element).borderLeftColor),
      iconOpacity: Number(getComputedStyle(icon).opacity),
      title: rgb(getComputedStyle(title).color),
    };
  });
}

const lightness = ([r, g, b]: readonly number[]) => (r ?? 0) + (g ?? 0) + (b ?? 0);
const isGray = ([r, g, b]: readonly number[]) =>
  Math.max(r ?? 0, g ?? 0, b ?? 0) - Math.min(r ?? 0, g ?? 0, b ?? 0) < 24;

/** The user's unread count and total on the server (each journey reads where it starts). */
async function counts(api: APIRequestContext, user: SignedIn): Promise<{ unread: number; total: number }> {
  const unread = await api.get('/api/notifications/unread-count', { headers: auth(user) });
  const listed = await api.get('/api/notifications?limit=1', { headers: auth(user) });
  return {
    unread: ((await unread.json()) as { count: number }).count,
    total: ((await listed.json()) as { pagination: { total: number } }).pagination.total,
  };
}

// Each journey stands alone (it reads the counts it starts from); the first needs an empty list.
test.describe('/notifications', () => {
  test('the notification list says "Cargando notificaciones...", then "No hay notificaciones" with the right hint', async ({
    browser,
    request,
  }) => {
    const { nerea } = people;
    // Nerea's welcome notification goes first: an empty list.
    const listed = await request.get('/api/notifications', { headers: auth(nerea) });
    for (const { _id } of ((await listed.json()) as { notifications: { _id: string }[] }).notifications) {
      expect((await request.delete(`/api/notifications/${_id}`, { headers: auth(nerea) })).status()).toBe(200);
    }
    const page = await pageFor(browser, nerea);
    const held = await holdRequests(page, listCall);
    await page.goto('/notifications');
    await expect(page.getByRole('heading', { level: 1, name: 'Notificaciones' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Cargando notificaciones...' })).toBeVisible();
    await held.release();
    await expect(page.getByRole('heading', { level: 2, name: 'No hay notificaciones' })).toBeVisible();
    await expect(page.getByText('No tienes notificaciones para mostrar.')).toBeVisible();
    await expect(page.getByText('Cargando notificaciones...')).toHaveCount(0);
    await page.getByRole('button', { name: 'Sistema', exact: true }).click();
    await expect(page.getByText('No tienes notificaciones de este tipo.')).toBeVisible();
    await expect(page.getByText('No tienes notificaciones para mostrar.')).toHaveCount(0);
  });

  test('notification cards: border by priority, read ones dimmed, "Ver más"/"Ver menos" over 100 characters', async ({
    browser,
    request,
  }) => {
    const { nerea } = people;
    const long = `${'Recuerda estirar después de cada sesión de fuerza. '.repeat(3)}Fin del aviso.`;
    const exactly100 = 'x'.repeat(100);
    await notify(request, nerea, { title: 'Prioridad baja', priority: 'low', body: exactly100 });
    await notify(request, nerea, { title: 'Prioridad alta', priority: 'high' });
    await notify(request, nerea, { title: 'Prioridad normal', priority: 'normal', body: long });
    const readId = await notify(request, nerea, { title: 'Ya leída', priority: 'normal' });
    const read = await request.patch(`/api/notifications/${readId}/read`, { headers: auth(nerea) });
    expect(read.status()).toBe(200);
    const before = await counts(request, nerea);
    const page = await pageFor(browser, nerea);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/notifications');
    await expect(page.getByRole('heading', { level: 1, name: 'Notificaciones' })).toBeVisible();
    for (const title of ['Prioridad alta', 'Prioridad normal', 'Prioridad baja', 'Ya leída']) {
      await expect(card(page, title)).toBeVisible();
    }

    const [high, normal, low, seen] = await Promise.all(
      ['Prioridad alta', 'Prioridad normal', 'Prioridad baja', 'Ya leída'].map((title) => cardLook(card(page, title))),
    );
    // High red, normal gray, low a lighter gray.
    const [red = 0, green = 0, blue = 0] = high?.border ?? [];
    expect(red - Math.max(green, blue), `high border ${high?.border}`).toBeGreaterThan(100);
    expect(isGray(normal?.border ?? []), `normal border ${normal?.border}`).toBe(true);
    expect(isGray(low?.border ?? []), `low border ${low?.border}`).toBe(true);
    expect(lightness(low?.border ?? [])).toBeGreaterThan(lightness(normal?.border ?? []));
    // Read: the icon faded and the title lighter than an unread card's of the same priority.
    expect(seen?.iconOpacity).toBeLessThan(1);
    expect(normal?.iconOpacity).toBe(1);
    expect(lightness(seen?.title ?? [])).toBeGreaterThan(lightness(normal?.title ?? []));
    // Marked read on screen, it dims the same way.
    await card(page, 'Prioridad normal').getByRole('button', { name: 'Marcar como leída' }).click();
    await expect.poll(async () => (await cardLook(card(page, 'Prioridad normal'))).iconOpacity).toBeLessThan(1);
    // Reached the server before the page closes (the next journey starts from the server's count).
    await expect.poll(async () => (await counts(request, nerea)).unread).toBe(before.unread - 1);

    // Over 100 characters: cut to 100 plus "...", "Ver más" and "Ver menos"; exactly 100 stays whole.
    const longCard = card(page, 'Prioridad normal');
    await expect(longCard).toContainText(`${long.slice(0, 100)}...`);
    await expect(longCard).not.toContainText('Fin del aviso.');
    await longCard.getByRole('button', { name: 'Ver más' }).click();
    await expect(longCard).toContainText('Fin del aviso.');
    await longCard.getByRole('button', { name: 'Ver menos' }).click();
    await expect(longCard).not.toContainText('Fin del aviso.');
    await expect(longCard.getByRole('button', { name: 'Ver más' })).toBeVisible();
    await expect(card(page, 'Prioridad baja')).toContainText(exactly100);
    await expect(card(page, 'Prioridad baja').getByRole('button', { name: /^Ver (más|menos)$/ })).toHaveCount(0);
  });

  test('a notification the server takes back (an undone superlike) leaves the open list and the saved copy', async ({
    browser,
    request,
  }) => {
    const { nerea, olga } = people;
    await notify(request, nerea, { title: 'Sigue aquí', priority: 'high' });
    const { unread } = await counts(request, nerea);
    const page = await pageFor(browser, nerea);
    await page.goto('/notifications');
    await expect(page.getByRole('heading', { level: 1, name: 'Notificaciones' })).toBeVisible();
    await expect(card(page, 'Sigue aquí')).toBeVisible();
    const markAll = page.getByRole('button', { name: /^Marcar todas como leídas/ });
    await expect(markAll).toHaveText(`Marcar todas como leídas (${unread})`);

    const superlike = { target_user_id: nerea.userId, action: 'superlike', clientId: 'e2e-superlike-nerea' };
    const swiped = await request.post(`/api/swipes/users/${olga.userId}/swipe`, {
      data: superlike,
      headers: auth(olga),
    });
    expect(swiped.status(), await swiped.text()).toBe(200);
    const taken = card(page, '¡Te han dado un Super Entreno!');
    await expect(taken).toBeVisible();
    await expect(markAll).toHaveText(`Marcar todas como leídas (${unread + 1})`);

    const undo = { target_user_id: nerea.userId, swipeClientId: 'e2e-superlike-nerea' };
    const undone = await request.post(`/api/swipes/users/${olga.userId}/undo`, { data: undo, headers: auth(olga) });
    expect(await undone.json()).toEqual({ success: true, undone: true });
    // Gone without a reload, and the count back where it was.
    await expect(taken).toHaveCount(0);
    await expect(markAll).toHaveText(`Marcar todas como leídas (${unread})`);

    // The device's saved copy: shown while the server's answer is held, it has no trace of it.
    const held = await holdRequests(page, listCall);
    const nav = page.getByRole('navigation', { name: 'Navegación principal' });
    await nav.getByRole('link', { name: 'Configuración' }).first().click();
    await expect(page).toHaveURL(/\/config$/);
    await nav
      .getByRole('link', { name: /Notificaciones/ })
      .first()
      .click();
    await expect(card(page, 'Sigue aquí')).toBeVisible();
    await expect(taken).toHaveCount(0);
    await held.release();
    await expect(taken).toHaveCount(0);
  });

  test('the notification list says "Cargando más notificaciones..." while the next page loads', async ({
    browser,
    request,
  }) => {
    const { nerea } = people;
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        notify(request, nerea, { title: `Aviso ${index + 1}`, type: 'activity' }),
      ),
    );
    const { total } = await counts(request, nerea);
    const page = await pageFor(browser, nerea);
    await page.goto('/notifications');
    await expect(page.getByRole('heading', { level: 1, name: 'Notificaciones' })).toBeVisible();
    await expect(cards(page)).toHaveCount(20);
    const held = await holdRequests(
      page,
      apiPath('/api/notifications', (url) => url.searchParams.get('page') === '2'),
    );
    await page.getByTestId('notifications-end').scrollIntoViewIfNeeded();
    const loadingMore = page.getByRole('status').filter({ hasText: 'Cargando más notificaciones...' });
    await expect(loadingMore).toBeVisible();
    await held.release();
    await expect(cards(page)).toHaveCount(total);
    await expect(loadingMore).toHaveCount(0);
  });
});
