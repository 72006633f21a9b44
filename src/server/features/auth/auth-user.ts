import type { AuthUser } from '#shared/auth/auth-schemas';
import type { UserRecord } from './user-repository.ts';

/** The user as the client sees it: an allowlist, never the hash, Google subject or location. */
export function toAuthUser(user: UserRecord): AuthUser {
  return {
    userId: user.id,
    name: user.name,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone,
    createdAt: user.createdAt.toISOString(),
    completeProfile: user.completeProfile,
    streak: user.streak,
    lastLoginDate: user.lastLoginDate,
  };
}
