import type { AuthUser } from '#shared/auth/auth-schemas';
import { signIn } from '../../services/session.ts';

/**
 * For sign-ins completed elsewhere (Google, the registration wizard) that stored the session
 * themselves: runs the session layer's sign-in (the `onSignIn` listeners, the login streak) on the
 * same token, kept where they put it (local storage unless told otherwise).
 */
export function adoptSignedInSession(
  session: { token: string; user: AuthUser },
  area: 'local' | 'session' | 'both' = 'local',
): Promise<unknown> {
  return signIn({ token: session.token, user: session.user, area });
}
