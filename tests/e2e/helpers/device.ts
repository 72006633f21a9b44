import { expect, type Page } from '@playwright/test';
import { LOCAL_DB_PREFIX } from '#shared/offline';

/**
 * The app's service worker is active for its scope: from now on every page load (a reload, a new
 * page, a navigation) is answered by it, with or without the network.
 *
 * Not the same as this page's `navigator.serviceWorker.controller`: the first install claims the
 * pages open when it activates, but `clients.claim()` skips a document still loading at that moment
 * (Service Workers §Clients.claim: a client not yet execution-ready), and such a document stays
 * uncontrolled until its next load. A journey that moves between pages while the worker installs
 * can land on exactly that document; waiting for it to be controlled then waits forever (CI, session
 * 11: offline-tabs hung 120 s there).
 */
export async function waitForActiveWorker(page: Page, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.active?.state === 'activated';
    },
    undefined,
    { timeout },
  );
}

/** A `meta` row of the user's database on the device (IndexedDB `entreno-<userId>`), or '' when absent. */
export function deviceMeta(page: Page, userId: string, key: string): Promise<string> {
  return page.evaluate(
    ({ name, key }) =>
      new Promise<string>((resolve) => {
        const opening = indexedDB.open(name);
        opening.onerror = () => resolve('');
        opening.onsuccess = () => {
          const db = opening.result;
          if (!db.objectStoreNames.contains('meta')) {
            db.close();
            resolve('');
            return;
          }
          const reading = db.transaction('meta').objectStore('meta').get(key);
          reading.onsuccess = () => {
            db.close();
            resolve(String((reading.result as { value?: string } | undefined)?.value ?? ''));
          };
          reading.onerror = () => {
            db.close();
            resolve('');
          };
        };
      }),
    { name: `${LOCAL_DB_PREFIX}${userId}`, key },
  );
}

/**
 * The device has written its copy of a list (the `saved:…` mark of SAVED_AT in local-db.ts). A
 * screen shows the server's answer first and stores it right after; a page load in between (a
 * journey's `goto`, never a tap) aborts that write, and the list would not be on the device.
 */
export async function expectDeviceCopy(page: Page, userId: string, key: string): Promise<void> {
  await expect.poll(() => deviceMeta(page, userId, key), { message: `the device's ${key}` }).not.toBe('');
}

/** How many rows a store of the user's database on the device holds (0 when it does not exist yet). */
export function deviceRows(page: Page, userId: string, store: string): Promise<number> {
  return page.evaluate(
    ({ name, store }) =>
      new Promise<number>((resolve) => {
        const opening = indexedDB.open(name);
        opening.onerror = () => resolve(0);
        opening.onsuccess = () => {
          const db = opening.result;
          if (!db.objectStoreNames.contains(store)) {
            db.close();
            resolve(0);
            return;
          }
          const counting = db.transaction(store).objectStore(store).count();
          counting.onsuccess = () => {
            db.close();
            resolve(counting.result);
          };
          counting.onerror = () => {
            db.close();
            resolve(0);
          };
        };
      }),
    { name: `${LOCAL_DB_PREFIX}${userId}`, store },
  );
}
