/**
 * QUALITY 29: axe-core finds no serious or critical violation (contrast included) on the screens
 * of both specs, in the light and the dark theme, on a phone-sized viewport, with the WCAG 2.2 AA
 * rules and label-content-name-mismatch (WCAG 2.5.3, off by default in axe; issue #20).
 */
import { registerAccount } from './helpers/accounts.ts';
import { seriousViolations } from './helpers/axe.ts';
import { matchedPair, pageFor, signIn } from './helpers/chat-setup.ts';
import { fakeInstallPrompt, IPHONE_SAFARI_USER_AGENT, markMomentOfValue } from './helpers/install.ts';
import { expect, type Page, test } from './helpers/test.ts';

/**
 * axe's serious findings on what `page` shows, in the light theme and then the dark one. No theme
 * is stored, so the app follows the system's (spec 000 §2 "Theme": `system`), and the
 * page switches live when the emulated system does: one load of each screen serves both themes.
 */
async function violationsInBothThemes(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    // Reduced motion too, so axe never measures a card halfway through a fade.
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    // A colour transition of the switch still running would be measured halfway.
    await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
    found.push(...(await seriousViolations(page)).map((violation) => `[${colorScheme}] ${violation}`));
  }
  return found;
}

test('the access screens pass axe in both themes', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const found: string[] = [];
  for (const path of ['/login', '/register', '/register/email', '/forgot-password', '/terms', '/esto-no-existe']) {
    await page.goto(path);
    // On a phone /login first shows the preview and its 'Iniciar Sesión' button, so no heading.
    await expect(page.locator('a:visible, button:visible').first()).toBeVisible();
    found.push(...(await violationsInBothThemes(page)));
  }
  expect(found).toEqual([]);
});

test('the signed-in screens pass axe in both themes', async ({ browser, request }) => {
  // Nine screens (the wizard included), each analysed in full twice: more than the default minute on a busy machine.
  test.setTimeout(180_000);
  const { a, conversationId } = await matchedPair(request);
  // A person who has just registered: /home is the profile wizard.
  const newcomer = await pageFor(browser, await signIn(request, await registerAccount(request, { name: 'Nora' })));
  await newcomer.setViewportSize({ width: 390, height: 844 });
  await newcomer.goto('/home');
  await expect(newcomer.getByRole('heading', { name: /Crea tu perfil/ })).toBeVisible({ timeout: 15_000 });
  const found: string[] = await violationsInBothThemes(newcomer);
  await newcomer.context().close();

  const page = await pageFor(browser, a);
  await page.setViewportSize({ width: 390, height: 844 });
  // The deck shows cards (with the Rechazar button) or, with nobody around, "Ajustar preferencias".
  await page.goto('/home');
  await expect(page.getByRole('button', { name: /^(Rechazar|Ajustar preferencias)$/ }).first()).toBeVisible({
    timeout: 15_000,
  });
  found.push(...(await violationsInBothThemes(page)));
  const screens: Array<[string, string]> = [
    ['/matches', 'Marcos'],
    ['/messages', 'Marcos'],
    [`/messages/${conversationId}`, 'Marcos'],
    ['/notifications', 'Notificaciones'],
    ['/config', 'Privacidad y Datos'],
    ['/edit-profile', 'Editar perfil'],
  ];
  for (const [path, landmark] of screens) {
    await page.goto(path);
    await expect(page.getByText(landmark).filter({ visible: true }).first()).toBeVisible({ timeout: 15_000 });
    found.push(...(await violationsInBothThemes(page)));
  }
  expect(found).toEqual([]);
});

test('the install card and the iPhone install sheet pass axe in both themes', async ({ browser, request }) => {
  const { a } = await matchedPair(request);
  const page = await pageFor(browser, a);
  await page.setViewportSize({ width: 390, height: 844 });
  await fakeInstallPrompt(page);
  await markMomentOfValue(page);
  await page.goto('/matches');
  await expect(page.getByRole('region', { name: 'Instalar Entreno' })).toBeVisible({ timeout: 15_000 });
  const found: string[] = await violationsInBothThemes(page);
  await page.context().close();

  const iphone = await browser.newContext({
    userAgent: IPHONE_SAFARI_USER_AGENT,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await iphone.addInitScript(
    ({ token, stored }) => {
      window.localStorage.setItem('token', token);
      window.localStorage.setItem('user', stored);
    },
    { token: a.token, stored: JSON.stringify(a.user) },
  );
  const phone = await iphone.newPage();
  await phone.goto('/config');
  await phone.getByRole('button', { name: 'Instalar Entreno' }).click();
  await expect(phone.getByRole('list', { name: 'Pasos para instalar' })).toBeVisible();
  found.push(...(await violationsInBothThemes(phone)));
  await iphone.close();
  expect(found).toEqual([]);
});
