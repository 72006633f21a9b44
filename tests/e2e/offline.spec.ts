import { expect, type Page, test } from '@playwright/test';
import { registerAccount } from './helpers/accounts.ts';
import { matchedPair, pageFor, profileBody, signIn } from './helpers/chat-setup.ts';

/** The app's IndexedDB databases (ours start with "entreno-"). */
async function databases(page: Page): Promise<string[]> {
  return page.evaluate(async () =>
    (await indexedDB.databases()).map((entry) => entry.name ?? '').filter((name) => name.startsWith('entreno-')),
  );
}

/** Network and socket both cut: the browser is offline and Socket.IO cannot get through. */
async function goOffline(page: Page) {
  await page.route('**/socket.io/**', (route) => route.abort('internetdisconnected'));
  await page.context().setOffline(true);
}

async function goOnline(page: Page) {
  await page.unroute('**/socket.io/**');
  await page.context().setOffline(false);
}

test('messages written offline survive a reload and reach the other user once, in order', async ({
  browser,
  request,
}) => {
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
  await pageA.waitForFunction(() => navigator.serviceWorker?.controller !== null);

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

test('logout leaves nothing of the user in IndexedDB', async ({ browser, request }) => {
  const { a, conversationId } = await matchedPair(request);
  const page = await pageFor(browser, a);
  await page.goto(`/messages/${conversationId}`);
  await expect(page.getByRole('heading', { name: 'Marcos' })).toBeVisible();
  await expect.poll(() => databases(page)).toContain(`entreno-${a.userId}`);

  await page
    .getByRole('navigation', { name: 'Navegación principal' })
    .getByRole('link', { name: 'Configuración' })
    .click();
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
  await second.waitForTimeout(1500);
  expect(sockets.filter((url) => url.includes('/socket.io/'))).toHaveLength(1);

  // The follower writes to the shared outbox; the leader sends it, and both tabs see it sent.
  await second.getByPlaceholder('Escribe un mensaje...').fill('Desde la otra pestaña');
  await second.getByRole('button', { name: /enviar/i }).click();
  await expect(second.getByText(/(Enviado|Entregado)$/)).toBeVisible();
  await expect(first.getByText('Desde la otra pestaña')).toBeVisible();

  await first.close();
  await expect.poll(() => sockets.length, { timeout: 15_000 }).toBe(2);
  await expect(second.getByTestId('connection-banner')).toContainText('Conectado');
});

test('a swipe made offline is replayed once and shows the match when it syncs', async ({ browser, request }) => {
  // A spot of their own, so nobody from other tests is in this deck.
  const spot = { latitude: 37 + Math.random() * 5, longitude: -7 + Math.random() * 6, city: 'Lejos' };
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
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null);
  await goOffline(page);
  await page.getByRole('button', { name: 'Entreno', exact: true }).click();
  const celebration = page.getByRole('dialog', { name: '¡Nuevo Entrenamiento!' });
  await page.waitForTimeout(500);
  await expect(celebration).toHaveCount(0);
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

  await goOnline(page);
  await expect(celebration.getByText('¡Has conectado con Bruno!')).toBeVisible({ timeout: 20_000 });
  const matches = await request.get(`/api/swipes/users/${ana.userId}/matches`, {
    headers: { authorization: `Bearer ${ana.token}` },
  });
  expect(matches.ok(), await matches.text()).toBe(true);
});
