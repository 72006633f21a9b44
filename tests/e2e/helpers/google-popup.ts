import type { BrowserContext, Page } from '@playwright/test';

/**
 * Presses "… con Google" on the page and, in the local stand-in's popup (tests/helpers/
 * google-stand-in.ts), chooses "another account" and fills it in; resolves once the popup closed.
 */
export async function signInWithGooglePopup(
  page: Page,
  context: BrowserContext,
  account: { email: string; name: string },
): Promise<void> {
  const button = page.getByRole('button', { name: /con Google/ });
  const [popup] = await Promise.all([context.waitForEvent('page'), button.click()]);
  await popup.getByLabel('Correo electrónico').fill(account.email);
  await popup.getByLabel('Nombre', { exact: true }).fill(account.name);
  await popup.getByLabel('Apellidos').fill('Ortiz Vega');
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Continuar' }).click();
  await closed;
}
