import { RouterProvider } from '@tanstack/react-router';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import { isProtectedPath } from '#shared/routes';
import { startAppNavigation } from '../services/app-launch.ts';
import { startInstallPrompt } from '../services/install-prompt.ts';
import { onSignIn, onSignOut, session, startSession } from '../services/session.ts';
import { serviceWorkerUpdates } from '../services/sw-registration.ts';
import { toast } from '../ui/toast-store.ts';
import { createAppRouter } from './router.tsx';
import { loadSignedInRuntime, signedInRuntimeLoad } from './signed-in-runtime-loader.ts';

const router = createAppRouter();

// The session layer (spec 000 §4): start-up check of a stored session, the auth-failure and
// other-tab sign-outs. After a sign-out the person goes to /login; an automatic one on a public
// page (terms, registration…) leaves them where they are.
// The signed-in runtime (local store, outbox, sync, tab leadership, socket, unread totals,
// matches count, notifications, push clean-up) is loaded lazily so the login route stays small
// (QUALITY 28): at once when a session is stored (an offline start reads the local store without
// waiting for the server), otherwise on sign-in. These listeners are registered before the session
// is restored; the session layer also calls the listeners the runtime adds while they run, so
// the sign-in that loads it still opens the socket and fetches the counts, and a sign-out during
// the load still wipes.
if (session.current()) {
  loadSignedInRuntime().catch((error: unknown) => console.warn('[app] the signed-in runtime did not load', error));
}
onSignIn(() => loadSignedInRuntime());
onSignOut(() => signedInRuntimeLoad()?.catch(() => undefined));

// QUALITY 21: a new version is offered, never applied behind the user's back (a draft would be
// lost); it takes over when they choose "Actualizar".
let isUpdateOffered = false;
serviceWorkerUpdates.subscribe(() => {
  const update = serviceWorkerUpdates.getSnapshot();
  if (update.status !== 'update-available' || isUpdateOffered) return;
  isUpdateOffered = true;
  toast.info('Nueva versión disponible', {
    durationMs: null,
    action: { label: 'Actualizar', onClick: () => update.apply() },
  });
});

// Issue #22: a notification tapped with this window open, or a launch of the installed app (its
// icon, a shortcut) that focused this window, shows its screen here in place: no reload, so
// drafts, scroll positions and everything in memory stay.
startAppNavigation((path) => router.navigate({ href: path }));
// Chromium fires `beforeinstallprompt` once per load, early: captured here for the install card
// and the /config entry (features/install).
startInstallPrompt();

startSession({
  onSignedOut(reason) {
    const isOnProtectedPage = isProtectedPath(router.state.location.pathname);
    if (reason !== 'user' && !isOnProtectedPage) return;
    void router.navigate({ to: '/login', replace: true });
    if (reason !== 'user') toast.info(AUTH_MESSAGES.sessionEnded);
  },
});

/**
 * Resolves the first route (its beforeLoad and lazy component) before the first render. A page
 * rendered at build time (docs/decisions/0031) waits for it, so the client's first render is the
 * same screen, never the pending state, and replaces the static markup in one step.
 */
export function loadInitialRoute(): Promise<void> {
  return router.load();
}

/** The app: the router (providers that every page needs will wrap it here). */
export function App() {
  return <RouterProvider router={router} />;
}
