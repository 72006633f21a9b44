/// <reference lib="webworker" />
import { installLifecycle } from './lifecycle.ts';
import { installNavigation } from './navigation.ts';
import { installNotificationClick } from './notification-click.ts';
import { installOutboxSync } from './outbox-sync.ts';
import { installPhotoCache } from './photo-cache.ts';
import { installPrecache } from './precache.ts';
import { installPush } from './push.ts';

declare const self: ServiceWorkerGlobalScope & {
  /** Replaced at build time by vite-plugin-pwa with the list of files to precache. */
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

// Order matters: Workbox tries routes in registration order, so the precache answers its own
// files before the navigation route looks at page loads. Each later feature (photo cache, push,
// notification click, outbox wake-up) is one more `install…` module in this folder, called here.
installLifecycle(self);
installPrecache(self.__WB_MANIFEST);
installPhotoCache();
installNavigation();
installPush(self);
installNotificationClick(self);
installOutboxSync(self);
