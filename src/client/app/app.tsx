import { RouterProvider } from '@tanstack/react-router';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import { isProtectedPath } from '#shared/routes';
import { startConversationUpdates } from '../features/chat/conversations-store.ts';
import { startUnreadCount } from '../features/chat/unread-store.ts';
import { startMatchesCount } from '../features/matches/index.ts';
import { startNotifications } from '../features/notifications/index.ts';
import { startPushCleanup } from '../services/push.ts';
import { startSession } from '../services/session.ts';
import { startOffline } from '../services/offline.ts';
import { startConnection } from '../services/socket.ts';
import { serviceWorkerUpdates } from '../services/sw-registration.ts';
import { toast } from '../ui/toast-store.ts';
import { createAppRouter } from './router.tsx';

const router = createAppRouter();

// The session layer (spec 000 §4): start-up check of a stored session, the auth-failure and
// other-tab sign-outs. After a sign-out the person goes to /login; an automatic one on a public
// page (terms, registration…) leaves them where they are.
// Registered before the session is restored, so its onSignIn reaches them: the socket opens,
// the unread totals and the matches count are fetched, the lists follow the live events, and a
// sign-out drops this browser's push subscription.
// The local store, outbox, sync and tab leadership first: the socket opens only in the leading tab.
startOffline();
startConnection();
startUnreadCount();
startConversationUpdates();
startMatchesCount();
startNotifications();
startPushCleanup();

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

startSession({
  onSignedOut(reason) {
    const isOnProtectedPage = isProtectedPath(router.state.location.pathname);
    if (reason !== 'user' && !isOnProtectedPage) return;
    void router.navigate({ to: '/login', replace: true });
    if (reason !== 'user') toast.info(AUTH_MESSAGES.sessionEnded);
  },
});

/** The app: the router (providers that every page needs will wrap it here). */
export function App() {
  return <RouterProvider router={router} />;
}
