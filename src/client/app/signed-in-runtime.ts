/**
 * What only a signed-in person needs, started once per page load: the local store, outbox, sync
 * and tab leadership (the socket opens only in the leading tab), the socket, the unread totals,
 * the live conversation list, the matches count, the notifications, the profile's position following
 * the device, and the push and chat-draft clean-ups at sign-out. Loaded lazily (`signed-in-runtime-loader.ts`): the login route does not download
 * Dexie, socket.io-client or the signed-in stores (QUALITY 28).
 */
import { startConversationUpdates } from '../features/chat/conversations-store.ts';
import { startUnreadCount } from '../features/chat/unread-store.ts';
import { startMatchesCount } from '../features/matches/index.ts';
import { startNotifications } from '../features/notifications/index.ts';
// Straight from its module: the profile feature's index would bring the wizard into this chunk.
import { startLocationFollow } from '../features/profile/location-follow.ts';
import { startOpenSessions } from '../features/open-sessions/index.ts';
import { startQuedadas, startQuedadaShares } from '../features/quedadas/index.ts';
// Straight from its module: the safety feature's index would bring its dialogs into this chunk.
import { startReportOutbox } from '../features/safety/report-outbox.ts';
import { startDraftCleanup } from '../services/drafts.ts';
import { startOffline } from '../services/offline.ts';
import { startPushCleanup } from '../services/push.ts';
import { startConnection } from '../services/socket.ts';

let isStarted = false;

/** Registers every part's `onSignIn`/`onSignOut` listeners; each start function is idempotent too. */
export function startSignedInRuntime(): void {
  if (isStarted) return;
  isStarted = true;
  // The offline layer first: the socket opens only in the leading tab it elects.
  startOffline();
  startConnection();
  startUnreadCount();
  startConversationUpdates();
  startMatchesCount();
  startNotifications();
  startQuedadas();
  startQuedadaShares();
  startOpenSessions();
  startReportOutbox();
  startPushCleanup();
  startDraftCleanup();
  startLocationFollow();
}
