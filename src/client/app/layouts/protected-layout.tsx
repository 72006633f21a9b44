import { useRouterState } from '@tanstack/react-router';
import { useEffect, useSyncExternalStore } from 'react';
import { useSnapshot } from 'valtio';
import { MessageBanner } from '../../features/chat/index.ts';
import { InstallCard } from '../../features/install/index.ts';
import { shownUnreadTotal, unreadState } from '../../features/chat/unread-store.ts';
import { matchesCountState } from '../../features/matches/index.ts';
import { ModerationNoticeDialog } from '../../features/moderation/moderation-notice.tsx';
import { notificationsState, useBellRing } from '../../features/notifications/index.ts';
import { useMessageAlertsEnabled } from '../../features/settings/index.ts';
import { streakLabel, useStreak } from '../../features/streak/index.ts';
import { UnauthorizedPage } from '../../routes/unauthorized.tsx';
import { useIsOnline } from '../../services/network.ts';
import { startSessionChecks } from '../../services/session.ts';
import { tokenStorage } from '../../services/token-storage.ts';
import { AppShell } from './app-shell.tsx';

/**
 * The server session check of spec 000 §2 (at once, then every 30 s; a failure signs out, → /login)
 * and the frame's live parts, each from its feature's store.
 */
function SignedInArea() {
  useEffect(() => startSessionChecks(), []);
  const unread = useSnapshot(unreadState);
  const matches = useSnapshot(matchesCountState);
  const notifications = useSnapshot(notificationsState);
  const bell = useBellRing(notifications.unreadCount);
  const streak = useStreak();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const openConversationId = /^\/messages\/([^/]+)\/?$/.exec(pathname)?.[1] ?? null;
  const isMessageAlertOn = useMessageAlertsEnabled();
  const isOnline = useIsOnline();
  // The deck and the Mensajes screens show their own "Sin conexión" (with what waits to be sent).
  const hasOwnOfflineNotice = pathname === '/home' || /^\/messages(\/|$)/.test(pathname);
  return (
    <>
      <AppShell
        // Inside a conversation the thread gets the whole height (issue #20); back is in its header.
        isBottomBarHidden={openConversationId !== null}
        status={{
          counts: {
            matches: matches.count,
            messages: shownUnreadTotal(unread),
            notifications: notifications.unreadCount,
          },
          bellRing: bell.ring,
          isBellRinging: bell.isRinging,
          streakLabel: streakLabel(streak),
          isOfflineShown: !isOnline && !hasOwnOfflineNotice,
        }}
      />
      {/* Offered on the lists only: never over the deck's buttons, a chat's composer or a form. */}
      <InstallCard isAllowedHere={/^\/(matches|messages|notifications)\/?$/.test(pathname)} />
      <MessageBanner
        openConversationId={openConversationId}
        // The Mensajes screens show every new message themselves.
        isEnabled={isMessageAlertOn && !/^\/messages(\/|$)/.test(pathname)}
      />
      <ModerationNoticeDialog />
    </>
  );
}

/**
 * Layout of every protected route. Its `beforeLoad` (guards/session-guard.ts) has already cleared
 * an invalid token and sent the user to /login; here a missing token shows the 401 page in place,
 * with the address unchanged, and follows sign-outs from other tabs live. The server session
 * check runs only while a signed-in page is on screen.
 */
export function ProtectedLayout() {
  const stored = useSyncExternalStore(tokenStorage.subscribe, tokenStorage.getSnapshot, () => null);
  if (stored === null) return <UnauthorizedPage />;
  return <SignedInArea />;
}
