import { redirect } from '@tanstack/react-router';
import { checkSessionToken } from '#shared/session-token';
import { tokenStorage } from '../../services/token-storage.ts';

/** What the stored token allows (spec 000 §2, §4, §5). */
export type SessionAccess = 'anonymous' | 'authenticated' | 'invalid';

/** Pure decision: no token is anonymous, a token failing the client check is invalid. */
export function resolveSessionAccess(token: string | null, nowMs: number): SessionAccess {
  if (token === null) return 'anonymous';
  return checkSessionToken(token, nowMs).status === 'valid' ? 'authenticated' : 'invalid';
}

/**
 * `beforeLoad` of the protected layout. An invalid or expired token is cleared from both
 * storages with the stored user, and the user goes to /login. With no token at all nothing
 * happens here: the layout renders the 401 page in place (spec 000 §6, 001 §2).
 */
export function guardProtectedRoute(): void {
  const access = resolveSessionAccess(tokenStorage.readToken()?.token ?? null, Date.now());
  if (access === 'invalid') {
    tokenStorage.clear();
    throw redirect({ to: '/login', replace: true });
  }
}

/** `beforeLoad` of `/`: signed in goes to /home; a bad token is cleared and the login screen shows. */
export function redirectSignedInFromRoot(): void {
  const access = resolveSessionAccess(tokenStorage.readToken()?.token ?? null, Date.now());
  if (access === 'authenticated') throw redirect({ to: '/home', replace: true });
  if (access === 'invalid') tokenStorage.clear();
}
