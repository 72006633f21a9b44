import type { Page } from '@playwright/test';

/** Safari on an iPhone (iOS 18): no install prompt, the share sheet's "Añadir a pantalla de inicio". */
export const IPHONE_SAFARI_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/**
 * Chromium's `beforeinstallprompt`, as the browser fires it on an installable page: a test context
 * is off the record, where Chromium never offers to install. The page records each `prompt()` in
 * `window.__installPrompts` and the user accepts.
 */
export async function fakeInstallPrompt(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const scope = window as unknown as { __installPrompts: number };
    scope.__installPrompts = 0;
    window.addEventListener('load', () => {
      const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: async () => {
          scope.__installPrompts += 1;
        },
        userChoice: Promise.resolve({ outcome: 'accepted', platform: 'web' }),
      });
      window.dispatchEvent(event);
    });
  });
}

/** This device has had its moment of value already (a first match or message), so the card is due. */
export async function markMomentOfValue(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (!window.localStorage.getItem('entreno:install-moment')) {
      window.localStorage.setItem('entreno:install-moment', new Date().toISOString());
    }
  });
}
