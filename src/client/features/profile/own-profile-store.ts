/** The signed-in user's own profile: whether it exists decides between the wizard and the deck. */
import { proxy } from 'valtio';
import type { OwnProfile } from '#shared/profile/profile-schema';
import { ApiRequestError } from '../../services/http.ts';
import { onSignOut } from '../../services/session.ts';
import { fetchOwnProfile } from './profile-api.ts';

export const PROFILE_LOAD_FAILED = 'Error al obtener el perfil';

export type OwnProfileState =
  | { status: 'loading' }
  | { status: 'missing' }
  | { status: 'ready'; profile: OwnProfile }
  | { status: 'error'; message: string };

export const ownProfileState = proxy<{ current: OwnProfileState; userId: string | null }>({
  current: { status: 'loading' },
  userId: null,
});

/** Loads the profile of `userId`; a reload keeps showing the known profile until the answer. */
export async function loadOwnProfile(userId: string): Promise<void> {
  if (ownProfileState.userId !== userId || ownProfileState.current.status !== 'ready') {
    ownProfileState.current = { status: 'loading' };
  }
  ownProfileState.userId = userId;
  try {
    const profile = await fetchOwnProfile(userId);
    if (ownProfileState.userId !== userId) return;
    ownProfileState.current = profile ? { status: 'ready', profile } : { status: 'missing' };
  } catch (error) {
    if (ownProfileState.userId !== userId) return;
    const message = error instanceof ApiRequestError && error.message ? error.message : PROFILE_LOAD_FAILED;
    ownProfileState.current = { status: 'error', message };
  }
}

export function setOwnProfile(profile: OwnProfile): void {
  ownProfileState.userId = profile.userId;
  ownProfileState.current = { status: 'ready', profile };
}

onSignOut(() => {
  ownProfileState.userId = null;
  ownProfileState.current = { status: 'loading' };
});
