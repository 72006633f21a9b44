import { useSyncExternalStore } from 'react';
import { parseStoredUser } from '../../services/session.ts';
import { tokenStorage } from '../../services/token-storage.ts';

function readUserId(): string {
  return parseStoredUser(tokenStorage.readUser())?.userId ?? '';
}

/** The signed-in user's id ('' when signed out), following storage changes. */
export function useCurrentUserId(): string {
  return useSyncExternalStore(tokenStorage.subscribe, readUserId, () => '');
}
