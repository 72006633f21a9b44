import { outboxFor, uniqueEmail, uniquePhone } from './helpers/accounts.ts';
import { matchUsers, pageFor, type SignedIn, sendMessage, userWithProfile } from './helpers/chat-setup.ts';
import { signInWithGooglePopup } from './helpers/google-popup.ts';
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Page,
  type Route,
  test,
  type WebSocketRoute,
} from './helpers/test.ts';

// Details of spec 000 §2 (access screens) and spec 001 §2, §4 (the chat) that no other journey pins
// down (docs/spec-conformance.md). Calls are made to fail, or held, with the context's routes (a
// page's own routes miss what its service worker fetches once it controls the page); time is the
// page's own fake clock where a delay is the point — never a timed assertion.

test.describe('access screens', () => {
  test.use({ geolocation: { latitude: 40.4169, longitude: -3.7035 }, permissions: ['geolocation'] });

  test('the login password shows and hides, and "Iniciar sesión" stays disabled while the login runs', async ({
    page,
  }) => {
    let release: (() => void) | undefined;
    let calls = 0;
    await page.context().route('**/api/auth/login', async (route) => {
      calls += 1;
      await new Promise<void>((resolve) => (release = resolve));
      await route.fulfill({ status: 401, json: { success: false } });
    });
    await page.goto('/login');
    // The live screen (not the page rendered at build time) asks the server for its mode.
    await expect(page.locator('[data-mode]')).toHaveAttribute('data-mode', 'test');
    await page.getByLabel('Email').fill('lucia@example.com');
    const password = page.getByLabel('Contraseña', { exact: true });
    await password.fill('Sentadillas&Cafe7');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Mostrar contraseña' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await expect(password).toHaveValue('Sentadillas&Cafe7');
    await page.getByRole('button', { name: 'Ocultar contraseña' }).click();
    await expect(password).toHaveAttribute('type', 'password');

    await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
    const busy = page.getByRole('button', { name: 'Iniciando sesión...' });
    await expect(busy).toBeDisabled();
    await expect.poll(() => calls).toBe(1);
    release?.();
    // Answered without a message: the §8 default, and the button is back.
    await expect(page.locator('form').getByRole('alert')).toHaveText('Error en el login');
    await expect(page.getByRole('button', { name: 'Iniciar sesión', exact: true })).toBeEnabled();
    expect(calls).toBe(1);
  });

  test('after a successful reset the success screen stays 2 s, then /login', async ({ page }) => {
    await page
      .context()
      .route('**/api/auth/validate-reset-token', (route) => route.fulfill({ json: { success: true, valid: true } }));
    await page
      .context()
      .route('**/api/auth/reset-password', (route) =>
        route.fulfill({ json: { success: true, message: 'Contraseña actualizada' } }),
      );
    await page.clock.install();
    await page.goto('/reset-password?token=Zq3v8RkP1xYt7LmN2bWc&email=lucia%40example.com');
    await page.getByLabel('Nueva contraseña').fill('Press&Banca2025');
    await page.getByLabel('Confirmar contraseña').fill('Press&Banca2025');
    // From here the page's timers run only when the test moves its clock.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await expect(page.getByText('¡Contraseña actualizada correctamente! Redirigiendo...')).toBeVisible();
    await page.clock.runFor(1999);
    expect(await page.evaluate(() => location.pathname)).toBe('/reset-password');
    await page.clock.runFor(1);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a Google registration with no stored session after success goes to /login; a check without a message says "Error al verificar el email"', async ({
    page,
    context,
    request,
  }) => {
    // A storage that refuses the user (full, say): the token is kept, the user is not.
    await page.addInitScript(() => {
      const setItem = Storage.prototype.setItem;
      Storage.prototype.setItem = function (key: string, value: string) {
        if (key === 'user' && (window as unknown as { __isUserRefused?: boolean }).__isUserRefused) {
          throw new DOMException('Almacenamiento lleno', 'QuotaExceededError');
        }
        setItem.call(this, key, value);
      };
    });
    await page.goto('/register');
    await signInWithGooglePopup(page, context, { email: uniqueEmail('google-fallback'), name: 'Pablo' });
    const dialog = page.getByRole('dialog', { name: 'Completa tu registro' });
    const phone = uniquePhone();
    await dialog.getByLabel('Teléfono').fill(phone.slice(3));

    await page.context().route('**/api/auth/check-email', (route) => route.fulfill({ status: 502, body: '' }));
    await dialog.getByRole('button', { name: 'Enviar código' }).click();
    await expect(dialog.getByText('Error al verificar el email', { exact: true })).toBeVisible();
    await page.context().unroute('**/api/auth/check-email');

    await dialog.getByRole('button', { name: 'Enviar código' }).click();
    await expect(dialog.getByLabel('Dígito 1 de 6')).toBeFocused();
    const [sms] = await outboxFor(request, phone);
    await page.evaluate(() => {
      (window as unknown as { __isUserRefused?: boolean }).__isUserRefused = true;
    });
    await page.keyboard.type(sms?.code ?? '');
    await dialog.getByRole('button', { name: 'Verificar' }).click();
    await expect(page.getByRole('heading', { name: '¡Registro completado!' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });
  });
});

/** Answers the conversation `conversationId` everywhere it comes from with `otherUser` changed. */
async function rewriteOtherUser(
  context: BrowserContext,
  conversationId: string,
  otherUser: { name?: string; photo?: string; swipeType?: 'like' | 'superlike' },
): Promise<void> {
  const { swipeType, ...user } = otherUser;
  type Listed = { conversationId: string; otherUser: Record<string, unknown>; swipeType?: string };
  await context.route(
    (url) => url.pathname === '/api/sync' || url.pathname === '/api/messages/conversations',
    async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { conversations?: Listed[] };
      for (const item of body.conversations ?? []) {
        if (item.conversationId !== conversationId) continue;
        item.otherUser = { ...item.otherUser, ...user };
        if (swipeType) item.swipeType = swipeType;
      }
      await route.fulfill({ response, json: body });
    },
  );
}

/** A route that waits for `release()`, then refuses with `status` and `body`. */
function heldRefusal(status: number, body: Record<string, unknown>) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const handler = async (route: Route) => {
    await released;
    await route.fulfill({ status, json: body });
  };
  return { handler, release: () => release() };
}

async function setVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
  await page.evaluate((next) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => next });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => next === 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
}

/** The server's unread count of one conversation for `user`. */
async function unreadCountOf(request: APIRequestContext, user: SignedIn, conversationId: string) {
  const response = await request.get('/api/messages/conversations?page=1&limit=20', {
    headers: { authorization: `Bearer ${user.token}` },
  });
  const body = (await response.json()) as { conversations: { conversationId: string; unreadCount: number }[] };
  return body.conversations.find((item) => item.conversationId === conversationId)?.unreadCount;
}

test.describe('chat', () => {
  let lucia: SignedIn;
  let marcos: SignedIn;
  let conversationId: string;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    lucia = await userWithProfile(request, 'Lucía');
    marcos = await userWithProfile(request, 'Marcos');
    conversationId = await matchUsers(request, lucia, marcos, 'superlike');
    // Enough history to fill a short screen (the scroll test).
    for (let index = 1; index <= 12; index += 1) {
      const [from, to] = index % 2 ? [marcos, lucia] : [lucia, marcos];
      await sendMessage(request, from, to, conversationId, `Mensaje ${index}: series de sentadilla y press de banca`);
    }
    await request.dispose();
  });

  test('the chat header shows the default avatar when the other person has no photo, and the amber "Súper entreno" badge', async ({
    browser,
  }) => {
    const page = await pageFor(browser, lucia);
    await page.goto(`/messages/${conversationId}`);
    const header = page.locator('header').filter({ has: page.locator('#chat-title') });
    await expect(header.getByRole('heading', { name: 'Marcos' })).toBeVisible();
    await expect(header.locator('img')).toHaveAttribute('src', /\/avatar-default\.svg$/);
    // On a phone the badge is the ⚡ alone, named "Súper entreno" (issue #34); its text shows from 640 px.
    const badge = header.getByRole('img', { name: 'Súper entreno', exact: true });
    await expect(badge).toBeVisible();
    await expect(badge).toHaveClass(/\bbg-amber-/);
    await page.context().close();
  });

  test('the chat header falls back to the default avatar when the photo fails and to "Chat" without a name; no badge without a superlike', async ({
    browser,
  }) => {
    const page = await pageFor(browser, lucia);
    await rewriteOtherUser(page.context(), conversationId, {
      name: '',
      photo: '/photos/nadie/no-existe.webp',
      swipeType: 'like',
    });
    const failedPhoto = page.waitForResponse((response) => response.url().includes('/photos/nadie/'));
    await page.goto(`/messages/${conversationId}`);
    expect((await failedPhoto).status()).toBe(404);
    const header = page.locator('header').filter({ has: page.locator('#chat-title') });
    await expect(header.locator('img')).toHaveAttribute('src', /\/avatar-default\.svg$/);
    await expect(header.getByRole('heading', { name: 'Chat', exact: true })).toBeVisible();
    await expect(header.getByText('Súper entreno')).toHaveCount(0);
    await expect(header.getByRole('img', { name: 'Súper entreno' })).toHaveCount(0);
    // A catch-up still being rewritten when the browser closes is no failure.
    await page.context().unrouteAll({ behavior: 'ignoreErrors' });
    await page.context().close();
  });

  test('the chat connection banner says Conectado, Reconectando... and Sin conexión', async ({ browser }) => {
    const page = await pageFor(browser, lucia);
    const context = page.context();
    let isBlocked = false;
    const sockets: WebSocketRoute[] = [];
    await context.route('**/socket.io/**', (route) => (isBlocked ? route.abort() : route.continue()));
    await context.routeWebSocket('**/socket.io/**', (socket) => {
      if (isBlocked) {
        void socket.close();
        return;
      }
      // Both ends, so that closing drops the page's socket and the server's.
      sockets.push(socket, socket.connectToServer());
    });
    // The client connects by long-polling first and then upgrades (socket.ts): closing the WebSockets
    // before the upgrade completed left the polling connection up, still «Conectado» (a CI flake).
    const upgraded = page
      .waitForEvent('websocket')
      .then((socket) => socket.waitForEvent('framesent', (frame) => frame.payload === '5'));
    await page.goto(`/messages/${conversationId}`);
    const banner = page.getByTestId('connection-banner');
    await expect(banner).toHaveText('Conectado');
    await upgraded;

    isBlocked = true;
    for (const socket of sockets) await socket.close();
    await expect(banner).toHaveText('Reconectando...');
    await context.setOffline(true);
    await expect(banner).toHaveText('Sin conexión');
    await context.setOffline(false);
    isBlocked = false;
    await expect(banner).toHaveText('Conectado', { timeout: 15_000 });
    await context.close();
  });

  test('the chat scrolls smoothly to the newest message', async ({ browser, request }) => {
    const page = await pageFor(browser, lucia);
    // Motion as most people have it (the journeys' default is reduced: playwright.config.ts).
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.setViewportSize({ width: 390, height: 560 });
    await page.addInitScript(() => {
      const calls: unknown[] = [];
      (window as unknown as { __scrolls: unknown[] }).__scrolls = calls;
      const scrollIntoView = Element.prototype.scrollIntoView;
      Element.prototype.scrollIntoView = function (options?: boolean | ScrollIntoViewOptions) {
        calls.push(options);
        scrollIntoView.call(this, options);
      };
    });
    const smoothScrolls = () =>
      page.evaluate(
        () =>
          (window as unknown as { __scrolls: unknown[] }).__scrolls.filter(
            (options) => JSON.stringify(options) === JSON.stringify({ behavior: 'smooth', block: 'end' }),
          ).length,
      );
    await page.goto(`/messages/${conversationId}`);
    const thread = page.getByTestId('chat-scroll');
    await expect(thread.getByText('Mensaje 12:')).toBeInViewport();
    await expect.poll(smoothScrolls).toBeGreaterThan(0);

    // Read back to the top; a new message brings the view down to it.
    await thread.evaluate((element) => element.scrollTo({ top: 0 }));
    await expect(thread.getByText('Mensaje 1:')).toBeInViewport();
    const before = await smoothScrolls();
    await sendMessage(request, marcos, lucia, conversationId, '¿Te viene bien mañana a las 7?');
    await expect(thread.getByText('¿Te viene bien mañana a las 7?')).toBeInViewport();
    expect(await smoothScrolls()).toBeGreaterThan(before);

    // Asked for less motion (QUALITY 29), the view jumps to the newest message instead.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const smoothBefore = await smoothScrolls();
    await thread.evaluate((element) => element.scrollTo({ top: 0 }));
    await sendMessage(request, marcos, lucia, conversationId, 'Perfecto, allí nos vemos');
    await expect(thread.getByText('Perfecto, allí nos vemos')).toBeInViewport();
    const instantScrolls = await page.evaluate(
      () =>
        (window as unknown as { __scrolls: unknown[] }).__scrolls.filter(
          (options) => JSON.stringify(options) === JSON.stringify({ behavior: 'auto', block: 'end' }),
        ).length,
    );
    expect(instantScrolls).toBeGreaterThan(0);
    expect(await smoothScrolls()).toBe(smoothBefore);
    await page.context().close();
  });

  test('a chat that fails to load offers "Reintentar", which reloads the page', async ({ browser }) => {
    // Untagged, so no service worker: what it would fetch for the page once in control escapes the routes.
    const page = await pageFor(browser, lucia);
    let isFailing = true;
    const failWhileAsked = (route: Route) =>
      isFailing ? route.fulfill({ status: 500, json: { success: false } }) : route.continue();
    // Nothing kept in this new browser, nothing from the catch-up: only the thread's own call decides.
    await page.context().route('**/api/sync?**', failWhileAsked);
    await page.context().route(`**/api/messages/conversations/${conversationId}/messages?**`, failWhileAsked);
    await page.goto(`/messages/${conversationId}`);
    await expect(page.getByText('Error al cargar los mensajes')).toBeVisible();
    await page.evaluate(() => {
      (window as unknown as { __beforeRetry?: boolean }).__beforeRetry = true;
    });
    // The calls heal only with the page load the button makes: healed earlier, a background
    // catch-up (the socket connecting) could fill the thread and take the button away first.
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) isFailing = false;
    });
    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Reintentar' }).click();
    await reloaded;
    expect(await page.evaluate(() => (window as unknown as { __beforeRetry?: boolean }).__beforeRetry)).toBeUndefined();
    await expect(page.getByText('Mensaje 12:')).toBeVisible();
    await page.context().close();
  });

  test('pin and mute show at once and are rolled back when the server refuses', async ({ browser }) => {
    const page = await pageFor(browser, lucia);
    await page.goto('/messages');
    const item = page.getByTestId('conversation-item').filter({ hasText: 'Marcos' });
    const menu = item.getByRole('button', { name: 'Acciones de la conversación con Marcos' });
    await expect(menu).toBeVisible();

    // Pin refused without a message (the §8 default), mute with the server's own.
    const cases = [
      { action: 'Fijar', path: 'pin', mark: 'Fijada', status: 500, message: '' },
      { action: 'Silenciar', path: 'mute', mark: 'Silenciada', status: 503, message: 'El servidor no responde ahora.' },
    ];
    for (const { action, path, mark, status, message } of cases) {
      const refusal = heldRefusal(status, message ? { success: false, message } : { success: false });
      await page.context().route(`**/api/messages/conversations/${conversationId}/${path}`, refusal.handler);
      await menu.click();
      await page.getByRole('menuitem', { name: action, exact: true }).click();
      await expect(item.getByTitle(mark)).toBeVisible();
      refusal.release();
      await expect(item.getByTitle(mark)).toHaveCount(0);
      await expect(page.getByRole('alert').getByText(message || 'Error al realizar la acción')).toBeVisible();
    }
    await page.context().close();
  });

  test('an open conversation is marked read again when the page becomes visible', async ({ browser, request }) => {
    const unread = () => unreadCountOf(request, lucia, conversationId);
    const page = await pageFor(browser, lucia);
    await page.goto(`/messages/${conversationId}`);
    await expect(page.getByText('Mensaje 12:')).toBeVisible();
    await expect.poll(unread).toBe(0);

    await setVisibility(page, 'hidden');
    await sendMessage(request, marcos, lucia, conversationId, 'Te espero en la puerta del gimnasio');
    await expect(page.getByText('Te espero en la puerta del gimnasio')).toBeVisible();
    await expect.poll(unread).toBe(1);

    await setVisibility(page, 'visible');
    await expect.poll(unread).toBe(0);
    await page.context().close();
  });

  test('a mark held on its way never reads a message that came after it (decision 0040)', async ({
    browser,
    request,
  }) => {
    const unread = () => unreadCountOf(request, lucia, conversationId);
    const page = await pageFor(browser, lucia);
    // The page's marks wait here until released, as on a slow link or offline.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = 0;
    let answered = 0;
    await page.context().route(`**/api/messages/conversations/${conversationId}/read`, async (route) => {
      held += 1;
      await released;
      await route.fulfill({ response: await route.fetch() });
      answered += 1;
    });
    await sendMessage(request, marcos, lucia, conversationId, 'Antes de abrir el chat');
    await page.goto(`/messages/${conversationId}`);
    await expect(page.getByText('Antes de abrir el chat')).toBeVisible();
    await expect.poll(() => held).toBe(1);

    await setVisibility(page, 'hidden');
    await sendMessage(request, marcos, lucia, conversationId, 'Llegó con la pantalla apagada');
    await expect(page.getByText('Llegó con la pantalla apagada')).toBeVisible();
    release();
    await expect.poll(() => answered).toBe(1);
    // The held mark read what was on screen when it was made; the later message stays unread.
    expect(await unread()).toBe(1);
    await setVisibility(page, 'visible');
    await expect.poll(unread).toBe(0);
    await page.context().close();
  });
});
