/**
 * Playwright's `test` with a Content-Security-Policy guard on every journey (QUALITY 10 / issue 9):
 * each page of the test's own context, and of every context the test opens with
 * `browser.newContext` or `chromium.launchPersistentContext`, reports `securitypolicyviolation`
 * events, and the test fails if any came.
 *
 * The contexts a journey opens itself are closed when it ends (Playwright closes only its own
 * `context`): left open, their pages kept their sockets, timers and service workers running in the
 * worker's browser and against the server for the rest of the run, and were traced again in every
 * later test of the worker.
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
      const opened: BrowserContext[] = [];
      await guard(context, violations);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const created = await newContext(options);
        opened.push(created);
        await guard(created, violations);
        return created;
      };
      const launchPersistentContext = chromium.launchPersistentContext.bind(chromium);
      chromium.launchPersistentContext = async (userDataDir, options) => {
        const created = await launchPersistentContext(userDataDir, options);
        opened.push(created);
        await guard(created, violations);
        return created;
      };
      await use(undefined);
      browser.newContext = newContext;
      chromium.launchPersistentContext = launchPersistentContext;
      // Closing an already closed context does nothing.
      await Promise.all(opened.map((created) => created.close()));
      expect(violations, 'Content-Security-Policy violations during the journey').toEqual([]);
    },
    { auto: true },
  ],
});
