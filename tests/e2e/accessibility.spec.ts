/**
 * QUALITY 29: axe-core finds no serious or critical violation (contrast included) on the screens
 * of both specs, in the light and the dark theme, on a phone-sized viewport, with the WCAG 2.2 AA
 * rules and label-content-name-mismatch (WCAG 2.5.3, off by default in axe; issue #20).
 */
import { registerAccount } from './helpers/accounts.ts';
import { seriousViolations } from './helpers/axe.ts';
import { matchedPair, pageFor, signIn } from './helpers/chat-setup.ts';
import { expect, type Page, test } from './helpers/test.ts';

const THEMES = ['light', 'dark'] as const;

/** The stored theme, and reduced motion so axe never measures a card halfway through a fade. */
async function useTheme(page: Page, theme: (typeof THEMES)[number]): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.addInitScript((stored) => window.localStorage.setItem('theme', stored), theme);
}

for (const theme of THEMES) {
  test(`the access screens pass axe in the ${theme} theme`, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await useTheme(page, theme);
    const found: string[] = [];
    for (const path of ['/login', '/register', '/register/email', '/forgot-password', '/terms', '/esto-no-existe']) {
      await page.goto(path);
      // On a phone /login first shows the preview and its 'Iniciar Sesión' button, so no heading.
      await expect(page.locator('a:visible, button:visible').first()).toBeVisible();
      found.push(...(await seriousViolations(page)));
    }
    expect(found).toEqual([]);
  });

  test(`the signed-in screens pass axe in the ${theme} theme`, async ({ browser, request }) => {
    // Nine screens (the wizard included), each analysed in full: more than the default minute on a busy machine.
    test.setTimeout(120_000);
    const { a, conversationId } = await matchedPair(request);
    // A person who has just registered: /home is the profile wizard.
    const newcomer = await pageFor(browser, await signIn(request, await registerAccount(request, { name: 'Nora' })));
    await newcomer.setViewportSize({ width: 390, height: 844 });
    await useTheme(newcomer, theme);
    await newcomer.goto('/home');
    await expect(newcomer.getByRole('heading', { name: /Crea tu perfil/ })).toBeVisible({ timeout: 15_000 });
    const found: string[] = await seriousViolations(newcomer);
    await newcomer.context().close();

    const page = await pageFor(browser, a);
    await page.setViewportSize({ width: 390, height: 844 });
    await useTheme(page, theme);
    // The deck shows cards (with the Rechazar button) or, with nobody around, "Ajustar preferencias".
    await page.goto('/home');
    await expect(page.getByRole('button', { name: /^(Rechazar|Ajustar preferencias)$/ }).first()).toBeVisible({
      timeout: 15_000,
    });
    found.push(...(await seriousViolations(page)));
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
      found.push(...(await seriousViolations(page)));
    }
    expect(found).toEqual([]);
  });
}
