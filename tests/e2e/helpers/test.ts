/**
 * Playwright's `test` with a Content-Security-Policy guard on every journey (QUALITY 10 / issue 9):
 * each page of the test's own context, and of every context the test opens with
 * `browser.newContext` or `chromium.launchPersistentContext`, reports `securitypolicyviolation`
 * events, and the test fails if any came.
 */
import { type BrowserContext, test as base, chromium, expect } from '@playwright/test';

export * from '@playwright/test';

const BINDING = '__entrenoCspViolation';

async function guard(context: BrowserContext, violations: string[]): Promise<void> {
  await context.exposeBinding(BINDING, (_source, violation: string) => {
    violations.push(violation);
  });
  await context.addInitScript((binding) => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as Record<string, (violation: string) => void>)[binding];
      report?.(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} on ${location.pathname}`);
    });
  }, BINDING);
}

export const test = base.extend<{ cspGuard: undefined }>({
  cspGuard: [
    async ({ browser, context }, use) => {
      const violations: string[] = [];
      await guard(context, violations);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const opened = await newContext(options);
        await guard(opened, violations);
        return opened;
      };
      const launchPersistentContext = chromium.launchPersistentContext.bind(chromium);
      chromium.launchPersistentContext = async (userDataDir, options) => {
        const opened = await launchPersistentContext(userDataDir, options);
        await guard(opened, violations);
        return opened;
      };
      await use(undefined);
      browser.newContext = newContext;
      chromium.launchPersistentContext = launchPersistentContext;
      expect(violations, 'Content-Security-Policy violations during the journey').toEqual([]);
    },
    { auto: true },
  ],
});
