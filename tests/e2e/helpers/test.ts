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
 *
 * A journey that fails prints, under its error, the address of each of its open pages and the
 * last console errors and uncaught exceptions of its pages (issue #33: a CI failure should say
 * where the page was and what it complained of).
 */
import { type BrowserContext, test as base, chromium, expect, type Page } from '@playwright/test';

export * from '@playwright/test';

const BINDING = '__entrenoCspViolation';

/** How many console errors a failing journey prints: the last ones, where the trouble shows. */
const CONSOLE_ERRORS_KEPT = 10;

/** Keeps the last console errors and uncaught exceptions of every page of `context`. */
function watchConsole(context: BrowserContext, errors: string[]): void {
  const keep = (page: Page, line: string) => {
    errors.push(`${new URL(page.url()).pathname} ${line}`);
    if (errors.length > CONSOLE_ERRORS_KEPT) errors.shift();
  };
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') keep(page, `console.error: ${message.text()}`);
    });
    page.on('pageerror', (error) => keep(page, `uncaught: ${error.message}`));
  };
  for (const page of context.pages()) watch(page);
  context.on('page', watch);
}

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

/**
 * The tag of a journey that runs with the app's service worker (decision 0060): offline starts and
 * reloads, the outbox's replay, push, installability, updates. Every other journey runs without it:
 * installing it precaches 98 files into a cold Cache Storage and compiles every script for its code
 * cache, about 3 CPU s per fresh context in the headless shell (docs/performance.md "The test suite").
 */
export const SERVICE_WORKER = '@service-worker';

export const test = base.extend<{ cspGuard: undefined }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  serviceWorkers: async ({}, use, testInfo) => {
    await use(testInfo.tags.includes(SERVICE_WORKER) ? 'allow' : 'block');
  },
  cspGuard: [
    async ({ browser, context }, use, testInfo) => {
      const violations: string[] = [];
      const consoleErrors: string[] = [];
      const opened: BrowserContext[] = [];
      const adopt = async (created: BrowserContext) => {
        opened.push(created);
        watchConsole(created, consoleErrors);
        await guard(created, violations);
        return created;
      };
      watchConsole(context, consoleErrors);
      await guard(context, violations);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => adopt(await newContext(options));
      const launchPersistentContext = chromium.launchPersistentContext.bind(chromium);
      chromium.launchPersistentContext = async (userDataDir, options) =>
        adopt(await launchPersistentContext(userDataDir, options));
      await use(undefined);
      browser.newContext = newContext;
      chromium.launchPersistentContext = launchPersistentContext;
      if (testInfo.status !== testInfo.expectedStatus) {
        const pages = [context, ...opened].flatMap((each) => each.pages()).map((page) => `page: ${page.url()}`);
        const errors = consoleErrors.length > 0 ? consoleErrors : ['(no console errors)'];
        // A text attachment is printed under the failure by the list reporter CI uses.
        await testInfo.attach('pages and console errors', {
          body: [...pages, ...errors].join('\n'),
          contentType: 'text/plain',
        });
      }
      // Closing an already closed context does nothing.
      await Promise.all(opened.map((created) => created.close()));
      expect(violations, 'Content-Security-Policy violations during the journey').toEqual([]);
    },
    { auto: true },
  ],
});
