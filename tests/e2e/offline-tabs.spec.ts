/**
 * Issue #22 §4: after one online visit, every signed-in screen opens offline with what the device
 * holds — empty states included — and says "Sin conexión", never an error; a screen never loaded
 * on the device says so kindly and fills itself when the connection returns.
 */
import { matchedPair, pageFor, sendMessage, type SignedIn, userWithProfile } from './helpers/chat-setup.ts';
import { expect, type Page, test, SERVICE_WORKER } from './helpers/test.ts';
import { deviceRows, expectDeviceCopy, waitForActiveWorker } from './helpers/device.ts';

const ERROR_TEXTS = [
  'Error al cargar las conversaciones',
  'Error al cargar los mensajes',
  'Error al obtener matches',
  'No se pudieron cargar las notificaciones.',
  'No se pudo cargar la configuración.',
  'Error al obtener el perfil',
  'Reintentar',
];

async function goOffline(page: Page) {
  await page.context().route('**/socket.io/**', (route) => route.abort('internetdisconnected'));
  await page.context().setOffline(true);
}

async function goOnline(page: Page) {
  await page.context().unroute('**/socket.io/**');
  await page.context().setOffline(false);
}

async function expectNoError(page: Page, where: string) {
  for (const text of ERROR_TEXTS) await expect(page.getByText(text), `${where}: "${text}"`).toHaveCount(0);
}

/** The bottom bar's tab, as a person taps it (client-side navigation, no page load). */
async function tapTab(page: Page, label: string) {
  await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: label }).click();
}

/** The installed app reopened with no network: a new page of the same browser (worker, IndexedDB, session). */
async function reopenOffline(page: Page, path: string): Promise<Page> {
  const context = page.context();
  await waitForActiveWorker(page);
  await goOffline(page);
  await page.close();
  const reopened = await context.newPage();
  await reopened.setViewportSize({ width: 390, height: 844 });
  await reopened.goto(path);
  return reopened;
}

async function visitOnline(page: Page, user: SignedIn, conversationId?: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: 'Conectar', level: 1 })).toBeVisible({ timeout: 15_000 });
  // Each list is on the device before the next page load, which would cut its write short.
  await page.goto('/matches');
  await expect(page.getByRole('heading', { name: /^Tus entrenamientos \(\d+\)$/ })).toBeVisible();
  await expectDeviceCopy(page, user.userId, 'saved:matches');
  await page.goto('/messages');
  await expect(page.getByRole('heading', { name: /^Mensajes \(\d+\)$/ })).toBeVisible();
  await expect(page.getByTestId('conversations-skeleton')).toHaveCount(0);
  await expectDeviceCopy(page, user.userId, 'saved:conversations');
  if (conversationId) {
    await page.goto(`/messages/${conversationId}`);
    await expect(page.getByRole('heading', { name: 'Marcos' })).toBeVisible();
    await expect.poll(() => deviceRows(page, user.userId, 'messages')).toBeGreaterThan(0);
  }
  await page.goto('/notifications');
  // Every account has its welcome notification: the list is on screen once it shows. The next
  // screen is a tap, not a page load, so the copy being written to the device is not cut short.
  await expect(page.getByTestId('notification-card').first()).toBeVisible();
  await tapTab(page, 'Configuración');
  await expect(page.getByRole('heading', { name: 'Privacidad y Datos' })).toBeVisible();
}

test('with nothing yet, every tab opens offline as its empty state with "Sin conexión"', {
  tag: SERVICE_WORKER,
}, async ({ browser, request }) => {
  test.setTimeout(120_000);
  const nora = await userWithProfile(request, 'Nora');
  const page = await pageFor(browser, nora);
  await visitOnline(page, nora);

  const offline = await reopenOffline(page, '/home');
  await expect(offline.getByRole('heading', { name: 'Conectar', level: 1 })).toBeVisible();
  await expect(offline.getByTestId('deck-offline')).toContainText('Sin conexión');
  await expectNoError(offline, '/home');

  await tapTab(offline, 'Entrenamientos');
  await expect(offline.getByRole('heading', { name: 'Tus entrenamientos (0)' })).toBeVisible();
  await expect(offline.getByText('Todavía no tienes entrenamientos')).toBeVisible();
  await expect(offline.getByTestId('offline-badge').filter({ visible: true })).toHaveText('Sin conexión');
  await expectNoError(offline, '/matches');

  await tapTab(offline, 'Mensajes');
  await expect(offline.getByRole('heading', { name: 'Mensajes (0)' })).toBeVisible();
  await expect(offline.getByText('No tienes conversaciones activas')).toBeVisible();
  await expect(offline.getByTestId('connection-banner')).toContainText('Sin conexión');
  await expectNoError(offline, '/messages');

  await tapTab(offline, 'Notificaciones');
  await expect(offline.getByRole('heading', { name: 'Notificaciones', level: 1 })).toBeVisible();
  // What a newcomer has: the welcome notification, kept from the online visit.
  await expect(offline.getByTestId('notification-card').filter({ hasText: '¡Bienvenido a Entreno!' })).toBeVisible();
  await expect(offline.getByTestId('offline-badge').filter({ visible: true })).toHaveText('Sin conexión');
  await expectNoError(offline, '/notifications');

  await tapTab(offline, 'Configuración');
  await expect(offline.getByRole('heading', { name: 'Privacidad y Datos' })).toBeVisible();
  await offline.screenshot({ path: 'test-results/offline-config-390.png' });
  await expect(offline.getByTestId('offline-badge').filter({ visible: true })).toHaveText('Sin conexión');
  await expectNoError(offline, '/config');

  // A page load of each tab offline (not only in-app taps) shows the same.
  await offline.goto('/messages');
  await expect(offline.getByText('No tienes conversaciones activas')).toBeVisible();
  await expectNoError(offline, '/messages (reload)');
  await offline.goto('/config');
  await expect(offline.getByRole('heading', { name: 'Privacidad y Datos' })).toBeVisible();
  await expectNoError(offline, '/config (reload)');
  await offline.context().close();
});

test('with a match, every tab and the chat open offline with what the device holds', { tag: SERVICE_WORKER }, async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const { a, b, conversationId } = await matchedPair(request);
  await sendMessage(request, b, a, conversationId, 'Te espero en la puerta');
  const page = await pageFor(browser, a);
  await visitOnline(page, a, conversationId);

  const offline = await reopenOffline(page, '/matches');
  await expect(offline.getByRole('heading', { name: 'Tus entrenamientos (1)' })).toBeVisible();
  await expect(offline.getByTestId('offline-badge').filter({ visible: true })).toHaveText('Sin conexión');
  await tapTab(offline, 'Mensajes');
  await expect(offline.getByTestId('conversation-item')).toHaveCount(1);
  await expect(offline.getByText('Te espero en la puerta')).toBeVisible();
  await offline.getByTestId('conversation-item').getByRole('link').click();
  await expect(offline.getByRole('heading', { name: 'Marcos' })).toBeVisible();
  await expect(offline.getByText('Te espero en la puerta')).toBeVisible();
  await expect(offline.getByTestId('connection-banner')).toContainText('Sin conexión');
  await expectNoError(offline, 'chat');
  await offline.goto('/notifications');
  await expect(offline.getByRole('heading', { name: 'Notificaciones', level: 1 })).toBeVisible();
  await expect(offline.getByTestId('offline-badge').filter({ visible: true })).toHaveText('Sin conexión');
  await expectNoError(offline, '/notifications');
  await offline.context().close();
});

test('a screen never loaded on this device says so offline, then fills itself when the connection returns', {
  tag: SERVICE_WORKER,
}, async ({ browser, request }) => {
  const { a, b, conversationId } = await matchedPair(request);
  await sendMessage(request, b, a, conversationId, 'Mañana a las ocho');
  const page = await pageFor(browser, a);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: 'Conectar', level: 1 })).toBeVisible({ timeout: 15_000 });

  const offline = await reopenOffline(page, '/matches');
  const placeholder = offline.getByTestId('offline-placeholder');
  await expect(placeholder).toContainText('Aún no hay nada guardado aquí');
  await offline.screenshot({ path: 'test-results/offline-never-loaded-390.png' });
  await expect(offline.getByTestId('offline-badge').filter({ visible: true })).toHaveText('Sin conexión');
  await expectNoError(offline, '/matches never loaded');

  await goOnline(offline);
  await expect(offline.getByRole('heading', { name: 'Tus entrenamientos (1)' })).toBeVisible({ timeout: 20_000 });
  await expect(placeholder).toHaveCount(0);
  await expect(offline.getByTestId('offline-badge').filter({ visible: true })).toHaveCount(0);

  await goOffline(offline);
  await offline.goto('/notifications');
  await expect(offline.getByTestId('offline-placeholder')).toBeVisible();
  await expectNoError(offline, '/notifications never loaded');
  await goOnline(offline);
  await expect(offline.getByTestId('offline-placeholder')).toHaveCount(0, { timeout: 20_000 });
  await expect(offline.getByRole('heading', { name: 'Notificaciones', level: 1 })).toBeVisible();
  await offline.context().close();
});
