/**
 * Issue #22 §1: the install path. Chromium's prompt is captured and offered once, at a moment of
 * value, as a dismissible card (remembered on this device) and in /config; an iPhone gets the two
 * steps instead; an installed app, or a browser that cannot install, shows nothing.
 */
import { seriousViolations } from './helpers/axe.ts';
import { matchedPair, pageFor } from './helpers/chat-setup.ts';
import { fakeInstallPrompt, IPHONE_SAFARI_USER_AGENT, markMomentOfValue } from './helpers/install.ts';
import { expect, type Page, test } from './helpers/test.ts';

const installPrompts = (page: Page) =>
  page.evaluate(() => (window as unknown as { __installPrompts: number }).__installPrompts);

test('the install card waits for the first message, prompts once, and never comes back on this device', async ({
  browser,
  request,
}) => {
  const { a, conversationId } = await matchedPair(request);
  const page = await pageFor(browser, a);
  await page.setViewportSize({ width: 390, height: 844 });
  await fakeInstallPrompt(page);
  const card = page.getByRole('region', { name: 'Instalar Entreno' });

  // Nothing before a moment of value, though the browser could install.
  await page.goto('/messages');
  await expect(page.getByTestId('conversation-item')).toHaveCount(1);
  await expect(card).toHaveCount(0);
  await page.goto('/config');
  await expect(page.getByRole('button', { name: 'Instalar Entreno' })).toBeVisible();

  // The first message sent: the card is offered on the lists, never over the chat's composer.
  await page.goto(`/messages/${conversationId}`);
  await page.getByPlaceholder('Escribe un mensaje...').fill('¿Pierna el jueves?');
  await page.getByRole('button', { name: /enviar/i }).click();
  await expect(page.getByText(/(Enviado|Entregado|Leído)$/)).toBeVisible();
  await expect(card).toHaveCount(0);
  await page.goto('/messages');
  await expect(card).toBeVisible();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await seriousViolations(page)).toEqual([]);

  await card.getByRole('button', { name: 'Instalar', exact: true }).click();
  await expect.poll(() => installPrompts(page)).toBe(1);
  await expect(card).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('conversation-item')).toHaveCount(1);
  await expect(card).toHaveCount(0);
  await page.context().close();
});

test('"Ahora no" dismisses the card for good on this device; /config still offers to install', async ({
  browser,
  request,
}) => {
  const { a } = await matchedPair(request);
  const page = await pageFor(browser, a);
  await fakeInstallPrompt(page);
  await markMomentOfValue(page);
  await page.goto('/matches');
  const card = page.getByRole('region', { name: 'Instalar Entreno' });
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Ahora no' }).click();
  await expect(card).toHaveCount(0);
  for (const path of ['/notifications', '/messages', '/matches']) {
    await page.goto(path);
    await expect(page.locator('main h1')).toBeVisible();
    await expect(card).toHaveCount(0);
  }
  await page.goto('/config');
  await page.getByRole('button', { name: 'Instalar Entreno' }).click();
  await expect.poll(() => installPrompts(page)).toBe(1);
  await page.context().close();
});

test('on an iPhone the same entry opens the two steps of Safari', async ({ browser, request }) => {
  const { a } = await matchedPair(request);
  const context = await browser.newContext({
    userAgent: IPHONE_SAFARI_USER_AGENT,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await context.addInitScript(
    ({ token, stored }) => {
      if (!window.localStorage.getItem('token')) {
        window.localStorage.setItem('token', token);
        window.localStorage.setItem('user', stored);
      }
      window.localStorage.setItem('entreno:install-moment', new Date().toISOString());
    },
    { token: a.token, stored: JSON.stringify(a.user) },
  );
  const page = await context.newPage();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/config');
  await page.getByRole('button', { name: 'Instalar Entreno' }).click();
  const sheet = page.getByRole('dialog', { name: 'Instalar Entreno' });
  const stepList = sheet.getByRole('list', { name: 'Pasos para instalar' });
  await expect(stepList).toBeVisible();
  const steps = stepList.getByRole('listitem');
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText('Toca Compartir');
  await expect(steps.nth(1)).toContainText('Añadir a pantalla de inicio');
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);

  // The card on a list opens the same sheet.
  await page.goto('/notifications');
  const card = page.getByRole('region', { name: 'Instalar Entreno' });
  await card.getByRole('button', { name: 'Instalar', exact: true }).click();
  await expect(stepList).toBeVisible();
  await sheet.getByRole('button', { name: 'Entendido' }).click();
  await expect(sheet).toHaveCount(0);
  await expect(card).toHaveCount(0);
  await context.close();
});

test('nothing is offered where installing is impossible, nor inside the installed app', async ({
  browser,
  request,
}) => {
  const { a } = await matchedPair(request);
  // A browser with no install prompt (no beforeinstallprompt): nothing.
  const page = await pageFor(browser, a);
  await markMomentOfValue(page);
  await page.goto('/config');
  await expect(page.getByRole('heading', { name: 'Aplicación' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Instalar Entreno' })).toHaveCount(0);
  await page.goto('/messages');
  await expect(page.locator('main h1')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Instalar Entreno' })).toHaveCount(0);
  await page.context().close();

  // The installed app (display-mode: standalone), even if a prompt came: nothing.
  const installed = await pageFor(browser, a);
  await installed.addInitScript(() => {
    const original = window.matchMedia.bind(window);
    window.matchMedia = (query: string) =>
      query.includes('display-mode: standalone')
        ? ({ ...original(query), matches: true, media: query, addEventListener() {} } as MediaQueryList)
        : original(query);
  });
  await fakeInstallPrompt(installed);
  await markMomentOfValue(installed);
  await installed.goto('/config');
  await expect(installed.getByRole('heading', { name: 'Aplicación' })).toBeVisible();
  await expect(installed.getByRole('button', { name: 'Instalar Entreno' })).toHaveCount(0);
  await installed.goto('/messages');
  await expect(installed.locator('main h1')).toBeVisible();
  await expect(installed.getByRole('region', { name: 'Instalar Entreno' })).toHaveCount(0);
  await installed.context().close();
});
