/**
 * Registers the service worker (sw/) and tells the UI when a new version waits, so it can offer
 * "Nueva versión disponible" instead of reloading under the user's draft (QUALITY 21). The only
 * module that imports workbox-window.
 */
import { Workbox } from 'workbox-window';

export const SW_URL = '/sw.js';

/** Long-lived sessions (an installed app left open) otherwise only look for a new version on a page load. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export type ServiceWorkerUpdate = { status: 'idle' } | { status: 'update-available'; apply(): void };

/** The shape `useSyncExternalStore` reads. */
export type ServiceWorkerUpdateStore = {
  subscribe(listener: () => void): () => void;
  /** The same object until the status changes. */
  getSnapshot(): ServiceWorkerUpdate;
};

/** The part of workbox-window's `Workbox` this module uses, so tests can pass a fake. */
export type UpdateSource = {
  addEventListener(type: 'waiting', listener: () => void): void;
  /** Posts `{ type: 'SKIP_WAITING' }` to the waiting worker, if there is one. */
  messageSkipWaiting(): void;
};

export type WatchOptions = {
  source: UpdateSource;
  /** Fires `controllerchange` when a new worker takes control (`navigator.serviceWorker`). */
  container: Pick<ServiceWorkerContainer, 'addEventListener'>;
  reload(): void;
};

export type ServiceWorkerUpdates = ServiceWorkerUpdateStore & {
  /** Follows a registered worker: a waiting version becomes `update-available`. */
  watch(options: WatchOptions): void;
};

const IDLE: ServiceWorkerUpdate = { status: 'idle' };

/** Builds the update store; the app uses `serviceWorkerUpdates`, tests build their own. */
export function createServiceWorkerUpdates(): ServiceWorkerUpdates {
  const listeners = new Set<() => void>();
  let snapshot: ServiceWorkerUpdate = IDLE;

  const publish = (next: ServiceWorkerUpdate) => {
    snapshot = next;
    for (const listener of listeners) listener();
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => snapshot,
    watch({ source, container, reload }) {
      let isApplying = false;
      let isReloading = false;
      // Another tab may already have activated the waiting version: this page is then controlled by
      // it and only needs the reload.
      let hasNewController = false;

      const reloadOnce = () => {
        if (isReloading) return;
        isReloading = true;
        reload();
      };
      const apply = () => {
        if (hasNewController) return reloadOnce();
        isApplying = true;
        source.messageSkipWaiting();
      };

      container.addEventListener('controllerchange', () => {
        if (isApplying) reloadOnce();
        else hasNewController = true;
      });
      source.addEventListener('waiting', () => {
        // A freshly waiting worker has not taken over yet, whatever changed control before (the
        // first install's clientsClaim also fires controllerchange).
        hasNewController = false;
        publish({ status: 'update-available', apply });
      });
    },
  };
}

/** Whether a new version of the app waits; read it with `useSyncExternalStore`. */
export const serviceWorkerUpdates: ServiceWorkerUpdates = createServiceWorkerUpdates();

let isRegistered = false;

/**
 * Registers /sw.js in production builds (the dev server has no worker) after the page has loaded,
 * watches for updates and asks the browser to keep our storage. Safe to call more than once.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || isRegistered || !('serviceWorker' in navigator)) return;
  isRegistered = true;
  requestPersistentStorage();

  const workbox = new Workbox(SW_URL, { scope: '/' });
  serviceWorkerUpdates.watch({
    source: workbox,
    container: navigator.serviceWorker,
    reload: () => window.location.reload(),
  });
  workbox
    .register()
    .then((registration) => {
      if (registration) scheduleUpdateChecks(registration);
    })
    .catch((error: unknown) => {
      // The app still works online without a worker; only offline start and updates are lost.
      console.warn('Service worker registration failed', error);
    });
}

function scheduleUpdateChecks(registration: ServiceWorkerRegistration): void {
  setInterval(() => {
    if (document.visibilityState !== 'visible' || !navigator.onLine) return;
    registration.update().catch(() => {
      // A failed check (flaky network, server restarting) is retried at the next interval.
    });
  }, UPDATE_CHECK_INTERVAL_MS);
}

/** Without it the browser may evict IndexedDB (conversations, the outbox) under storage pressure. */
function requestPersistentStorage(): void {
  // Older browsers have no StorageManager at all, whatever the DOM types say.
  const storage: StorageManager | undefined = navigator.storage;
  if (!storage?.persist || !storage.persisted) return;
  void storage
    .persisted()
    .then((isPersisted) => isPersisted || storage.persist())
    .catch(() => false);
}
