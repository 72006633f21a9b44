import { describe, expect, it, vi } from 'vitest';
import { createServiceWorkerUpdates, type UpdateSource } from '../../src/client/services/sw-registration.ts';

/** A stand-in for workbox-window's Workbox and for navigator.serviceWorker. */
function fakeBrowser() {
  let onWaiting = () => {};
  const controllerChange = new EventTarget();
  const source = {
    addEventListener: (_type: 'waiting', listener: () => void) => {
      onWaiting = listener;
    },
    messageSkipWaiting: vi.fn(),
  } satisfies UpdateSource;
  return {
    source,
    container: controllerChange,
    reload: vi.fn(),
    newVersionWaits: () => onWaiting(),
    newWorkerControls: () => controllerChange.dispatchEvent(new Event('controllerchange')),
  };
}

function watched() {
  const browser = fakeBrowser();
  const updates = createServiceWorkerUpdates();
  updates.watch({ source: browser.source, container: browser.container, reload: browser.reload });
  return { browser, updates };
}

function applyUpdate(updates: ReturnType<typeof createServiceWorkerUpdates>) {
  const snapshot = updates.getSnapshot();
  if (snapshot.status !== 'update-available') throw new Error(`expected an update, got ${snapshot.status}`);
  snapshot.apply();
}

describe('service worker updates', () => {
  it('stays idle, with a stable snapshot, until a new version waits', () => {
    const { browser, updates } = watched();
    const first = updates.getSnapshot();
    expect(first).toEqual({ status: 'idle' });
    // The first install's clientsClaim changes the controller without any update.
    browser.newWorkerControls();
    expect(updates.getSnapshot()).toBe(first);
    expect(browser.reload).not.toHaveBeenCalled();
  });

  it('offers a waiting version to subscribers and stops notifying after unsubscribe', () => {
    const { browser, updates } = watched();
    const listener = vi.fn();
    const unsubscribe = updates.subscribe(listener);
    browser.newVersionWaits();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(updates.getSnapshot().status).toBe('update-available');
    unsubscribe();
    browser.newVersionWaits();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('asks the waiting worker to take over and reloads once it controls the page', () => {
    const { browser, updates } = watched();
    browser.newWorkerControls();
    browser.newVersionWaits();
    applyUpdate(updates);
    expect(browser.source.messageSkipWaiting).toHaveBeenCalledTimes(1);
    expect(browser.reload).not.toHaveBeenCalled();
    browser.newWorkerControls();
    browser.newWorkerControls();
    expect(browser.reload).toHaveBeenCalledTimes(1);
  });

  it('only reloads when another tab already activated the new version', () => {
    const { browser, updates } = watched();
    browser.newVersionWaits();
    browser.newWorkerControls();
    expect(browser.reload).not.toHaveBeenCalled();
    applyUpdate(updates);
    expect(browser.source.messageSkipWaiting).not.toHaveBeenCalled();
    expect(browser.reload).toHaveBeenCalledTimes(1);
  });
});
