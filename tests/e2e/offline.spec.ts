// Long on purpose: the offline journeys share a server process they stop and start.
import {
  type APIRequestContext,
  expect,
  type Page,
  request as apiRequest,
  test,
  SERVICE_WORKER,
} from './helpers/test.ts';
import { registerAccount } from './helpers/accounts.ts';
import { matchedPair, pageFor, profileBody, type SignedIn, sendMessage, signIn } from './helpers/chat-setup.ts';
import { startServerProcess } from './helpers/server.ts';
import { remoteSpot } from './helpers/spots.ts';
import { waitForActiveWorker } from './helpers/device.ts';

/** The app's IndexedDB databases (ours start with "entreno-"). */
async function databases(page: Page): Promise<string[]> {
  return page.evaluate(async () =>
    (await indexedDB.databases()).map((entry) => entry.name ?? '').filter((name) => name.startsWith('entreno-')),
  );
}

/** Network and socket both cut, for every page of the browser: offline, and Socket.IO cannot get through. */
async function goOffline(page: Page) {
  await page.context().route('**/socket.io/**', (route) => route.abort('internetdisconnected'));
  await page.context().setOffline(true);
}

async function goOnline(page: Page) {
  await page.context().unroute('**/socket.io/**');
  await page.context().setOffline(false);
}

/** The service worker controls the page: from now on the app opens without the network. */
async function waitForWorker(page: Page) {
  await waitForActiveWorker(page);
}

/**
 * "Opening the installed app" offline: the open page is closed and a new one of the same browser
 * (worker, IndexedDB, stored session) starts at `path`, with no network at all.
 */
async function reopenOffline(page: Page, path: string): Promise<Page> {
  const context = page.context();
  await goOffline(page);
  await page.close();
  const reopened = await context.newPage();
  await reopened.goto(path);
  return reopened;
}

/** `POST /api/dev/notifications`: a notification to oneself (outside production only). */
async function notifySelf(request: APIRequestContext, user: SignedIn, title: string) {
  const response = await request.post('/api/dev/notifications', {
    data: { type: 'system', title, body: 'Texto de la notificación' },
    headers: { authorization: `Bearer ${user.token}` },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test('messages written offline survive a reload and reach the other user once, in order', {
  tag: SERVICE_WORKER,
}, async ({ browser, request }) => {
  const { a, b, conversationId } = await matchedPair(request);
  const pageA = await pageFor(browser, a);
  const pageB = await pageFor(browser, b);

  await pageA.goto(`/messages/${conversationId}`);
  await expect(pageA.getByRole('heading', { name: 'Marcos' })).toBeVisible();
  const input = pageA.getByPlaceholder('Escribe un mensaje...');
  await input.fill('Antes de irme');
  await pageA.getByRole('button', { name: /enviar/i }).click();
  await expect(pageA.getByText(/(Enviado|Entregado)$/)).toBeVisible();
  // The service worker controls the page, so a reload works offline.
  await waitForActiveWorker(pageA);

  await goOffline(pageA);
  await expect(pageA.getByTestId('connection-banner')).toContainText('Sin conexión');
  await input.fill('Primero sin red');
  await pageA.getByRole('button', { name: /enviar/i }).click();
  await expect(pageA.getByText('Primero sin red')).toBeVisible();
  await input.fill('Segundo sin red');
  await pageA.getByRole('button', { name: /enviar/i }).click();
  await expect(pageA.getByText('Enviando...')).toBeVisible();
  await expect(pageA.getByTestId('pending-count')).toContainText('2 pendientes de enviar');

  await pageA.reload();
  await expect(pageA.getByText('Antes de irme')).toBeVisible();
  await expect(pageA.getByText('Primero sin red')).toBeVisible();
  await expect(pageA.getByText('Segundo sin red')).toBeVisible();
  await expect(pageA.getByText('Enviando...')).toBeVisible();
  await expect(pageA.getByTestId('connection-banner')).toContainText('Sin conexión');

  await goOnline(pageA);
  await expect(pageA.getByText(/(Enviado|Entregado|Leído)$/)).toBeVisible({ timeout: 20_000 });
  await expect(pageA.getByText('Enviando...')).toHaveCount(0);

  // The server holds each once, in the order written (the replay may still be finishing: poll).
  const serverTexts = async () => {
    const answer = await request.get(`/api/messages/conversations/${conversationId}/messages?page=1&limit=50`, {
      headers: { authorization: `Bearer ${b.token}` },
    });
    const { messages } = (await answer.json()) as { messages: { text: string; seq: number }[] };
    return [...messages].sort((x, y) => x.seq - y.seq).map((message) => message.text);
  };
  await expect.poll(serverTexts, { timeout: 20_000 }).toEqual(['Antes de irme', 'Primero sin red', 'Segundo sin red']);

  // B sees them once each, in order.
  await pageB.goto(`/messages/${conversationId}`);
  await expect(pageB.getByText('Segundo sin red')).toBeVisible();
  const shown = await pageB.getByTestId('chat-message').allInnerTexts();
  const bodies = shown.map((text) => text.split('\n')[0]);
  expect(bodies.filter((text) => text === 'Primero sin red')).toHaveLength(1);
  expect(bodies.filter((text) => text === 'Segundo sin red')).toHaveLength(1);
  expect(bodies.indexOf('Primero sin red')).toBeLessThan(bodies.indexOf('Segundo sin red'));

  // A reload online keeps one copy each (pending rows became the server's).
  await pageA.reload();
  await expect(pageA.getByText('Segundo sin red')).toBeVisible();
  await expect(pageA.getByText('Primero sin red')).toHaveCount(1);
});

test('notification actions made offline survive a reload and reach the server when back online', {
  tag: SERVICE_WORKER,
}, async ({ browser, request }) => {
  const user = await signIn(request, await registerAccount(request, { name: 'Nora' }));
  await notifySelf(request, user, 'Aviso para leer');
  await notifySelf(request, user, 'Aviso para borrar');
  const page = await pageFor(browser, user);
  const card = (title: string) => page.getByTestId('notification-card').filter({ hasText: title });
  await page.goto('/notifications');
  await expect(card('Aviso para leer')).toHaveAttribute('data-read', 'false');
  await expect(card('Aviso para borrar')).toBeVisible();
  await waitForWorker(page);

  await goOffline(page);
  await page.waitForFunction(() => !navigator.onLine);
  await card('Aviso para leer').getByRole('button', { name: 'Marcar como leída' }).click();
  await expect(card('Aviso para leer')).toHaveAttribute('data-read', 'true');
  await card('Aviso para borrar').getByRole('button', { name: 'Eliminar' }).click();
  await expect(card('Aviso para borrar')).toHaveCount(0);
  await expect(page.getByText(/No se pudo (actualizar|eliminar) la notificación/)).toHaveCount(0);

  // Still offline: the reloaded app shows both changes (saved with their outbox items).
  await page.reload();
  await expect(card('Aviso para leer')).toHaveAttribute('data-read', 'true');
  await expect(card('Aviso para borrar')).toHaveCount(0);
  await expect(card('Aviso para leer')).toBeVisible();

  // Back online: the queue reaches the server.
  await goOnline(page);
  await expect
    .poll(
      async () => {
        const response = await request.get('/api/notifications?page=1&limit=50', {
          headers: { authorization: `Bearer ${user.token}` },
        });
        const { notifications } = (await response.json()) as { notifications: { title: string; isRead: boolean }[] };
        return [
          notifications.find((item) => item.title === 'Aviso para leer')?.isRead,
          notifications.some((item) => item.title === 'Aviso para borrar'),
        ];
      },
      { timeout: 20_000 },
    )
    .toEqual([true, false]);
  await expect(card('Aviso para leer')).toHaveAttribute('data-read', 'true');
  await expect(card('Aviso para borrar')).toHaveCount(0);
});

test('logout leaves nothing of the user in IndexedDB', { tag: SERVICE_WORKER }, async ({ browser, request }) => {
  const { a, conversationId } = await matchedPair(request);
  const page = await pageFor(browser, a);
  await page.goto(`/messages/${conversationId}`);
  await expect(page.getByRole('heading', { name: 'Marcos' })).toBeVisible();
  await expect.poll(() => databases(page)).toContain(`entreno-${a.userId}`);

  await page
    .getByRole('navigation', { name: 'Navegación principal' })
    .getByRole('link', { name: 'Configuración' })
    .click();
  // The router keeps the previous screen up while /config's code loads: on a new account's /home,
  // the profile wizard's own «Cerrar sesión» (no confirmation) would take the click.
  await expect(page.getByRole('heading', { name: 'Configuración', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  // Settings asks for confirmation first.
  await page.getByRole('dialog', { name: '¿Cerrar sesión?' }).getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(() => databases(page)).toEqual([]);
  const caches = await page.evaluate(async () =>
    (await window.caches.keys()).filter((name) => !name.startsWith('workbox-precache')),
  );
  expect(caches).toEqual([]);
});

test('two tabs of one browser keep one socket; the other takes over when the leader closes', async ({
  browser,
  request,
}) => {
  const { a, conversationId } = await matchedPair(request);
  const first = await pageFor(browser, a);
  const context = first.context();
  const sockets: string[] = [];
  context.on('page', (page) => page.on('websocket', (socket) => sockets.push(socket.url())));
  first.on('websocket', (socket) => sockets.push(socket.url()));

  await first.goto(`/messages/${conversationId}`);
  await expect(first.getByTestId('connection-banner')).toContainText('Conectado');
  const second = await context.newPage();
  await second.goto(`/messages/${conversationId}`);
  // The follower shows the leader's status and the data through IndexedDB.
  await expect(second.getByTestId('connection-banner')).toContainText('Conectado');

  // The follower writes to the shared outbox; the leader sends it, and both tabs see it sent.
  await second.getByPlaceholder('Escribe un mensaje...').fill('Desde la otra pestaña');
  await second.getByRole('button', { name: /enviar/i }).click();
  await expect(second.getByText(/(Enviado|Entregado)$/)).toBeVisible();
  await expect(first.getByText('Desde la otra pestaña')).toBeVisible();
  // Still one socket after the follower started, showed the status and sent through the leader.
  expect(sockets.filter((url) => url.includes('/socket.io/'))).toHaveLength(1);

  await first.close();
  await expect.poll(() => sockets.length, { timeout: 15_000 }).toBe(2);
  await expect(second.getByTestId('connection-banner')).toContainText('Conectado');
});

test('a swipe made offline is replayed once and shows the match when it syncs', { tag: SERVICE_WORKER }, async ({
  browser,
  request,
}) => {
  // A spot of their own, so nobody from other tests is in this deck.
  const spot = remoteSpot('Lejos');
  const ana = await signIn(request, await registerAccount(request, { name: 'Ana' }));
  const bruno = await signIn(request, await registerAccount(request, { name: 'Bruno' }));
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
  // Bruno liked Ana already: Ana's like makes the match.
  await request.post(`/api/swipes/users/${bruno.userId}/swipe`, {
    data: { target_user_id: ana.userId, action: 'like' },
    headers: { authorization: `Bearer ${bruno.token}` },
  });

  const page = await pageFor(browser, ana);
  await page.goto('/home');
  await expect(page.getByRole('button', { name: /^Bruno, \d+/ })).toBeVisible();
  await waitForActiveWorker(page);
  await goOffline(page);
  await page.getByRole('button', { name: 'Entreno', exact: true }).click();
  const celebration = page.getByRole('dialog', { name: '¡Nuevo Entrenamiento!' });
  await expect
    .poll(() =>
      page.evaluate(
        (userId) =>
          new Promise<number>((resolve) => {
            const open = indexedDB.open(`entreno-${userId}`);
            open.onsuccess = () => {
              const count = open.result.transaction('outbox').objectStore('outbox').count();
              count.onsuccess = () => resolve(count.result);
            };
          }),
        ana.userId,
      ),
    )
    .toBe(1);
  // The swipe was handled (it waits in the outbox), and offline it celebrated nothing.
  await expect(celebration).toHaveCount(0);

  await goOnline(page);
  await expect(celebration.getByText('¡Has conectado con Bruno!')).toBeVisible({ timeout: 20_000 });
  const matches = await request.get(`/api/swipes/users/${ana.userId}/matches`, {
    headers: { authorization: `Bearer ${ana.token}` },
  });
  expect(matches.ok(), await matches.text()).toBe(true);
});

test('the installed app opens offline on a deep link to a conversation, with its messages', {
  tag: SERVICE_WORKER,
}, async ({ browser, request }) => {
  const { a, b, conversationId } = await matchedPair(request);
  await sendMessage(request, b, a, conversationId, 'Nos vemos a las siete');
  const page = await pageFor(browser, a);
  await page.goto(`/messages/${conversationId}`);
  await expect(page.getByText('Nos vemos a las siete')).toBeVisible();
  await page.getByPlaceholder('Escribe un mensaje...').fill('Allí estaré');
  await page.getByRole('button', { name: /enviar/i }).click();
  await expect(page.getByText(/(Enviado|Entregado|Leído)$/)).toBeVisible();
  await waitForWorker(page);

  const reopened = await reopenOffline(page, `/messages/${conversationId}`);
  await expect(reopened.getByRole('heading', { name: 'Marcos' })).toBeVisible();
  await expect(reopened.getByText('Nos vemos a las siete')).toBeVisible();
  await expect(reopened.getByText('Allí estaré')).toBeVisible();
  await expect(reopened.getByTestId('connection-banner')).toContainText('Sin conexión');
  await expect(reopened.getByPlaceholder('Escribe un mensaje...')).toBeVisible();
});

test('an offline start shows the last known matches and notifications', { tag: SERVICE_WORKER }, async ({
  browser,
  request,
}) => {
  const { a } = await matchedPair(request);
  await notifySelf(request, a, 'Aviso para el tren');
  const page = await pageFor(browser, a);
  await page.goto('/matches');
  const card = page.getByRole('button', { name: /^Marcos, \d+/ });
  await expect(card).toBeVisible();
  // On by a tap, as a person goes: a page load the moment the list shows could cut its device
  // copy short (it is written just after the list is drawn).
  await page
    .getByRole('navigation', { name: 'Navegación principal' })
    .getByRole('link', { name: /Notificaciones/ })
    .first()
    .click();
  await expect(page.getByTestId('notification-card').filter({ hasText: 'Aviso para el tren' })).toBeVisible();
  await waitForWorker(page);

  const reopened = await reopenOffline(page, '/matches');
  await expect(reopened.getByRole('button', { name: /^Marcos, \d+/ })).toBeVisible();
  await expect(reopened.getByRole('heading', { name: 'Tus entrenamientos (1)' })).toBeVisible();
  await expect(reopened.getByText('Error al obtener matches')).toHaveCount(0);
  await reopened.goto('/notifications');
  await expect(reopened.getByTestId('notification-card').filter({ hasText: 'Aviso para el tren' })).toBeVisible();
  await expect(reopened.getByText('No se pudieron cargar las notificaciones.')).toHaveCount(0);
});

test('an offline start opens the deck with the last known profiles (and the own profile)', {
  tag: SERVICE_WORKER,
}, async ({ browser, request }) => {
  // A spot of their own, so nobody from other tests is in this deck.
  const spot = remoteSpot('Lejos');
  const [ana, bruno, carla] = [
    await signIn(request, await registerAccount(request, { name: 'Ana' })),
    await signIn(request, await registerAccount(request, { name: 'Bruno' })),
    await signIn(request, await registerAccount(request, { name: 'Carla' })),
  ];
  for (const [user, name] of [
    [ana, 'Ana'],
    [bruno, 'Bruno'],
    [carla, 'Carla'],
  ] as const) {
    const created = await request.post('/api/profiles', {
      data: profileBody(user.userId, name, spot),
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  const page = await pageFor(browser, ana);
  await page.goto('/home');
  const top = page.getByRole('button', { name: /^(Bruno|Carla), \d+/ });
  await expect(top.first()).toBeVisible();
  const firstName = ((await top.first().textContent()) ?? '').split(',')[0]?.trim() ?? '';
  // One swipe online: the saved deck keeps only the other one.
  await page.getByRole('button', { name: 'Rechazar', exact: true }).click();
  const other = firstName === 'Bruno' ? 'Carla' : 'Bruno';
  await expect(page.getByRole('button', { name: new RegExp(`^${other}, \\d+`) })).toBeVisible();
  await waitForWorker(page);

  const reopened = await reopenOffline(page, '/home');
  await expect(reopened.getByRole('button', { name: new RegExp(`^${other}, \\d+`) })).toBeVisible();
  await expect(reopened.getByRole('button', { name: new RegExp(`^${firstName}, \\d+`) })).toHaveCount(0);
  await expect(reopened.getByText('Error al obtener el perfil')).toHaveCount(0);
  // It says the deck is a saved one (#19 §4), without hiding the card's "% Entreno".
  const notice = reopened.getByText('Perfiles guardados de tu última visita', { exact: false });
  await expect(notice).toBeVisible();
  const chip = reopened.getByRole('article', { name: new RegExp(`^${other}, `) }).getByText(/^\d+% Entreno$/);
  await expect(chip).toBeVisible();
  const [noticeBox, chipBox] = [await notice.boundingBox(), await chip.boundingBox()];
  expect(noticeBox && chipBox).toBeTruthy();
  if (noticeBox && chipBox) expect(noticeBox.y).toBeGreaterThanOrEqual(chipBox.y + chipBox.height);
});

test('a send cut by a server crash arrives exactly once after the restart', async ({ browser }) => {
  test.setTimeout(180_000);
  let server = await startServerProcess();
  const api = await apiRequest.newContext({ baseURL: server.url });
  try {
    const { a, b, conversationId } = await matchedPair(api);
    const page = await pageFor(browser, a, { baseURL: server.url });

    // Between the page and the server: every Socket.IO frame passes, except that the answer to the
    // first "sendMessage" is held back and the server is killed then. The message is committed on
    // the server (it answers only after the commit), but the page never hears so.
    let isUpgraded = false;
    let heldAckId: string | null = null;
    let isAckHeld = false;
    let onAckHeld: () => void = () => {};
    const ackHeld = new Promise<void>((resolve) => {
      onAckHeld = resolve;
    });
    await page.context().routeWebSocket(/\/socket\.io\//, (ws) => {
      const upstream = ws.connectToServer();
      ws.onMessage((message) => {
        if (message === '5') isUpgraded = true;
        const send = typeof message === 'string' ? /^42(\d+)\["sendMessage"/.exec(message) : null;
        if (send && heldAckId === null) heldAckId = send[1] ?? null;
        upstream.send(message);
      });
      upstream.onMessage((message) => {
        if (!isAckHeld && heldAckId !== null && typeof message === 'string' && message.startsWith(`43${heldAckId}[`)) {
          isAckHeld = true;
          onAckHeld();
          return;
        }
        ws.send(message);
      });
    });

    await page.goto(`/messages/${conversationId}`);
    await expect(page.getByRole('heading', { name: 'Marcos' })).toBeVisible();
    await expect(page.getByTestId('connection-banner')).toContainText('Conectado');
    // The socket moved from polling to its WebSocket, where the frames can be held.
    await expect.poll(() => isUpgraded, { timeout: 20_000 }).toBe(true);

    await page.getByPlaceholder('Escribe un mensaje...').fill('Justo cuando se cae');
    await page.getByRole('button', { name: /enviar/i }).click();
    await ackHeld;
    await server.kill();
    await expect(page.getByText('Justo cuando se cae')).toBeVisible();
    await expect(page.getByText('Enviando...')).toBeVisible();

    server = await startServerProcess({ port: server.port, dataDir: server.dataDir });
    await expect(page.getByTestId('connection-banner')).toContainText('Conectado', { timeout: 60_000 });
    await expect(page.getByText('Enviando...')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByText(/(Enviado|Entregado|Leído)$/)).toBeVisible();
    await expect(page.getByText('Justo cuando se cae')).toHaveCount(1);

    // The server holds it once (the replay used the same clientId).
    const serverTexts = async () => {
      const answer = await api.get(`/api/messages/conversations/${conversationId}/messages?page=1&limit=50`, {
        headers: { authorization: `Bearer ${b.token}` },
      });
      const { messages } = (await answer.json()) as { messages: { text: string }[] };
      return messages.map((message) => message.text);
    };
    await expect.poll(serverTexts, { timeout: 20_000 }).toEqual(['Justo cuando se cae']);
    // Still once a while later, and once after a reload.
    await page.reload();
    await expect(page.getByText('Justo cuando se cae')).toBeVisible();
    await expect(page.getByText('Justo cuando se cae')).toHaveCount(1);
    expect(await serverTexts()).toEqual(['Justo cuando se cae']);
    await page.context().close();
  } finally {
    await api.dispose();
    await server.stop();
  }
});

test('the app asks the browser to keep its storage, so IndexedDB and the outbox are not evicted', async ({
  browser,
}) => {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    const calls: string[] = [];
    (window as unknown as { __persistCalls: string[] }).__persistCalls = calls;
    const original = StorageManager.prototype.persist;
    StorageManager.prototype.persist = function persist(this: StorageManager) {
      calls.push('persist');
      return original.call(this);
    };
  });
  const page = await context.newPage();
  await page.goto('/login');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __persistCalls: string[] }).__persistCalls.length))
    .toBeGreaterThan(0);
  await context.close();
});
