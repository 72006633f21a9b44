/** The navigation's unread message total (spec 001 §2 "Mensajes" badge, 99+ above 99). */
import { proxy } from 'valtio';
import { connection } from '../../services/socket.ts';
import { onSignIn, onSignOut } from '../../services/session.ts';
import { tokenStorage } from '../../services/token-storage.ts';
import { chatApi } from './chat-api.ts';

export const unreadState = proxy({ total: 0 });

export function setUnreadTotal(total: number): void {
  unreadState.total = Math.max(0, Math.trunc(total) || 0);
}

export async function refreshUnreadTotal(): Promise<void> {
  try {
    setUnreadTotal((await chatApi.unreadCount()).unreadCount);
  } catch (error) {
    console.warn('[chat] unread count failed', error);
  }
}

let isStarted = false;

/** Fetches the total on sign-in (and at start with a stored session), then follows `unreadCountUpdated`. */
export function startUnreadCount(): void {
  if (isStarted) return;
  isStarted = true;
  onSignIn(() => void refreshUnreadTotal());
  onSignOut(() => setUnreadTotal(0));
  connection.on('unreadCountUpdated', (event) => {
    if (event.kind === 'messages') setUnreadTotal(event.unreadCount);
  });
  if (tokenStorage.readToken()) void refreshUnreadTotal();
}
