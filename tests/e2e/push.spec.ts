import { matchedPair, pageFor } from './helpers/chat-setup.ts';
import {
  type BrowserContext,
  type CDPSession,
  expect,
  type Page,
  test,
  type Worker,
  SERVICE_WORKER,
} from './helpers/test.ts';

/**
 * Push in the real worker (QUALITY 22): a push delivered through the DevTools protocol shows a
 * notification tagged per conversation, a second one for the same conversation replaces it, and
 * a click takes the app to /messages/<conversationId>.
 */

const CONVERSATION_ID = '5b0c6a52-2f1e-4c7b-9d43-7a1f0e9c2b18';
const TAG = `conversation:${CONVERSATION_ID}`;

type ShownNotification = { title: string; body: string; tag: string; data: { url?: string } | null };

test.use({ permissions: ['notifications'] });

async function controllingWorker(page: Page, context: BrowserContext): Promise<Worker> {
  await page.goto('/login');
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
  });
  const isControlled = () => page.evaluate(() => navigator.serviceWorker.controller !== null);
  if (!(await isControlled())) await page.reload();
  await expect.poll(isControlled).toBe(true);
  const worker = context.serviceWorkers().find((candidate) => new URL(candidate.url()).pathname === '/sw.js');
  return worker ?? context.waitForEvent('serviceworker');
}

/**
 * The registration id DevTools knows the worker by (from `ServiceWorker.enable` events), once
 * that registration has an activated version: a push delivered earlier could find no worker.
 */
async function registrationId(cdp: CDPSession, scopeUrl: string): Promise<string> {
  let id: string | undefined;
  const activated = new Set<string>();
  const ready = new Promise<string>((resolve) => {
    const check = () => {
      if (id && activated.has(id)) resolve(id);
    };
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      id ??= registrations.find(
        (registration) => registration.scopeURL === scopeUrl && !registration.isDeleted,
      )?.registrationId;
      check();
    });
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      for (const version of versions) if (version.status === 'activated') activated.add(version.registrationId);
      check();
    });
  });
  await cdp.send('ServiceWorker.enable');
  return ready;
}

/**
 * Delivers a push through DevTools until the page sees its effect. The worker is woken first, and
 * the push is sent once more if nothing changed within a few seconds: headless Chromium now and
 * then drops a DevTools push on a cold start (a real push service retries). Sending twice is
 * harmless — the same tag replaces the notification.
 */
async function deliverPush(
  cdp: CDPSession,
  worker: Worker,
  target: { origin: string; registrationId: string },
  data: string,
  isShown: () => Promise<boolean>,
): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    await worker.evaluate(() => true);
    await cdp.send('ServiceWorker.deliverPushMessage', { ...target, data });
    const deadline = Date.now() + 4000;
    while (Date.now() < deadline) {
      if (await isShown()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function shownNotifications(page: Page): Promise<ShownNotification[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const notifications = await registration.getNotifications();
    return notifications.map((notification) => ({
      title: notification.title,
      body: notification.body,
      tag: notification.tag,
      data: notification.data as { url?: string } | null,
    }));
  });
}

test('a push shows a notification per conversation, and its click opens the conversation', {
  tag: SERVICE_WORKER,
}, async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const worker = await controllingWorker(page, context);
  const cdp = await context.newCDPSession(page);
  const id = await registrationId(cdp, `${origin}/`);

  const deliver = (payload: Record<string, unknown>, isShown: (shown: ShownNotification[]) => boolean) =>
    deliverPush(cdp, worker, { origin, registrationId: id }, JSON.stringify(payload), async () =>
      isShown(await shownNotifications(page)),
    );
  const payload = {
    type: 'message',
    title: 'Nuevo mensaje de Ana',
    body: '¿Entrenamos mañana?',
    url: `/messages/${CONVERSATION_ID}`,
    tag: TAG,
    notificationId: 'f3b8e6a0-1111-4c4c-8888-000000000001',
    badgeCount: 1,
  };

  await deliver(payload, (shown) => shown.length > 0);
  await expect.poll(async () => (await shownNotifications(page)).length).toBe(1);
  expect(await shownNotifications(page)).toEqual([
    {
      title: 'Nuevo mensaje de Ana',
      body: '¿Entrenamos mañana?',
      tag: TAG,
      data: expect.objectContaining({ url: payload.url }),
    },
  ]);

  // A second message of the same conversation replaces the first (same tag).
  await deliver({ ...payload, body: '2 mensajes nuevos de Ana', badgeCount: 1 }, (shown) =>
    shown.some((notification) => notification.body.startsWith('2 ')),
  );
  await expect
    .poll(async () => (await shownNotifications(page)).map((shown) => shown.body))
    .toEqual(['2 mensajes nuevos de Ana']);
  // Another conversation gets its own notification.
  await deliver(
    { ...payload, tag: 'conversation:otra', url: '/messages/otra', title: 'Nuevo mensaje de Luis' },
    (shown) => shown.length > 1,
  );
  await expect.poll(async () => (await shownNotifications(page)).length).toBe(2);

  // The click: the worker's notificationclick handler, run on the shown notification.
  const navigated = page.waitForEvent('framenavigated', {
    predicate: (frame) =>
      frame === page.mainFrame() && new URL(frame.url()).pathname === `/messages/${CONVERSATION_ID}`,
  });
  await worker.evaluate(async (tag) => {
    // Runs in the worker (this project's types are the page's, hence the local shape).
    const scope = self as unknown as {
      registration: { getNotifications(filter: { tag: string }): Promise<Notification[]> };
      NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      dispatchEvent(event: Event): boolean;
    };
    const [notification] = await scope.registration.getNotifications({ tag });
    if (!notification) throw new Error(`no notification tagged ${tag}`);
    scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
  }, TAG);
  await navigated;
  // The clicked notification is closed; the other conversation's stays.
  await expect
    .poll(async () => (await shownNotifications(page)).map((shown) => shown.tag))
    .toEqual(['conversation:otra']);
});

test('an unreadable push still shows a notification that opens the notifications list', {
  tag: SERVICE_WORKER,
}, async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const worker = await controllingWorker(page, context);
  const cdp = await context.newCDPSession(page);
  const id = await registrationId(cdp, `${origin}/`);
  await deliverPush(
    cdp,
    worker,
    { origin, registrationId: id },
    'esto no es JSON',
    async () => (await shownNotifications(page)).length > 0,
  );
  await expect.poll(async () => (await shownNotifications(page)).length).toBe(1);
  const [shown] = await shownNotifications(page);
  expect(shown).toMatchObject({ title: 'Entreno', tag: 'entreno', data: { url: '/notifications' } });
});

test('a tap with the app open navigates it in place: no reload, the unsent draft stays', {
  tag: SERVICE_WORKER,
}, async ({ browser, request }) => {
  const { a, conversationId } = await matchedPair(request);
  const page = await pageFor(browser, a);
  await page.context().grantPermissions(['notifications']);
  await page.setViewportSize({ width: 390, height: 500 });
  await page.goto(`/messages/${conversationId}`);
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null);
  const worker =
    page
      .context()
      .serviceWorkers()
      .find((candidate) => new URL(candidate.url()).pathname === '/sw.js') ??
    (await page.context().waitForEvent('serviceworker'));
  await page.getByPlaceholder('Escribe un mensaje...').fill('Borrador a medias');
  // Anything a reload would lose: a value kept only in this page's memory.
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
  let documentLoads = 0;
  page.on('load', () => {
    documentLoads += 1;
  });

  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    await registration.showNotification('Nueva notificación', {
      tag: 'tap-in-place',
      data: { url: '/notifications' },
    });
  });
  await worker.evaluate(async (tag) => {
    const scope = self as unknown as {
      registration: { getNotifications(filter: { tag: string }): Promise<Notification[]> };
      NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      dispatchEvent(event: Event): boolean;
    };
    const [notification] = await scope.registration.getNotifications({ tag });
    if (!notification) throw new Error(`no notification tagged ${tag}`);
    scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
  }, 'tap-in-place');

  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { name: 'Notificaciones', level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  expect(documentLoads).toBe(0);

  // Back in the conversation, the unsent draft is where it was.
  await page.goBack();
  await expect(page.getByPlaceholder('Escribe un mensaje...')).toHaveValue('Borrador a medias');
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await page.context().close();
});
