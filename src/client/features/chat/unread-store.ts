/**
 * The navigation's unread message total (spec 001 §2 "Mensajes" badge, 99+ above 99): the spec's
 * total of the matches' conversations, plus the unread messages of the groups one has not muted
 * (docs/decisions/0056, amended in session 17), which the spec's call leaves out.
 */
import { proxy } from 'valtio';
import { connection } from '../../services/socket.ts';
import { onSignIn, onSignOut, session } from '../../services/session.ts';
import { tokenStorage } from '../../services/token-storage.ts';
import { chatApi } from './chat-api.ts';

export const unreadState = proxy({ total: 0, groups: 0 });

/** A burst of group messages asks the server once, this long after its last message. */
export const GROUP_UNREAD_REFRESH_MS = 1000;

const asCount = (value: number) => Math.max(0, Math.trunc(value) || 0);

export function setUnreadTotal(total: number): void {
  unreadState.total = asCount(total);
}

/** What the badge shows: the matches' total and the groups'. */
export function shownUnreadTotal(state: { total: number; groups: number }): number {
  return state.total + state.groups;
}

export async function refreshUnreadTotal(): Promise<void> {
  try {
    setUnreadTotal((await chatApi.unreadCount()).unreadCount);
  } catch (error) {
    console.warn('[chat] unread count failed', error);
  }
}

async function refreshGroupUnread(): Promise<void> {
  try {
    unreadState.groups = asCount((await chatApi.groupsUnreadCount()).unreadCount);
  } catch (error) {
    console.warn('[chat] group unread count failed', error);
  }
}

let groupRefresh: ReturnType<typeof setTimeout> | undefined;

/**
 * A group's count is read, not kept per message (decision 0041): a group's message or change
 * reads the total once the burst is over. In the group open on screen, the mark-read's
 * `unreadCountUpdated` (kind `groups`) comes first and makes the read unneeded.
 */
function refreshGroupUnreadSoon(): void {
  clearTimeout(groupRefresh);
  groupRefresh = setTimeout(() => void refreshGroupUnread(), GROUP_UNREAD_REFRESH_MS);
}

function refreshAll(): void {
  void refreshUnreadTotal();
  void refreshGroupUnread();
}

let isStarted = false;

/**
 * Fetches both totals on sign-in (and at start with a stored session) and after a reconnect
 * (what came while the socket was down), then follows `unreadCountUpdated` and the groups' news.
 */
export function startUnreadCount(): void {
  if (isStarted) return;
  isStarted = true;
  onSignIn(refreshAll);
  onSignOut(() => {
    clearTimeout(groupRefresh);
    unreadState.total = 0;
    unreadState.groups = 0;
  });
  connection.on('unreadCountUpdated', (event) => {
    if (event.kind === 'messages') setUnreadTotal(event.unreadCount);
    else if (event.kind === 'groups') {
      clearTimeout(groupRefresh);
      unreadState.groups = asCount(event.unreadCount);
    }
  });
  connection.on('newMessage', (message) => {
    const isGroup = message.receiverId === null;
    const isOwn = message.senderId === session.current()?.user.userId;
    if (isGroup && !isOwn) refreshGroupUnreadSoon();
  });
  connection.on('groupUpdated', refreshGroupUnreadSoon);
  // The first connect after a sign-in follows the sign-in's own reads; a reconnect catches up.
  let wasConnected = false;
  let hasConnected = false;
  onSignOut(() => {
    hasConnected = false;
  });
  connection.subscribe(() => {
    const isConnected = connection.getSnapshot().status === 'connected';
    if (isConnected && !wasConnected) {
      if (hasConnected) refreshAll();
      hasConnected = true;
    }
    wasConnected = isConnected;
  });
  if (tokenStorage.readToken()) refreshAll();
}
