/**
 * The signed-in user's own profile: whether it exists decides between the wizard and the deck.
 * The device's copy first (QUALITY 19: an offline start opens the deck, not an error), then the
 * server, whose answer replaces the copy.
 */
import { proxy } from 'valtio';
import type { OwnProfile } from '#shared/profile/profile-views';
import { ApiRequestError } from '../../services/http.ts';
import { dbFor, readOwnProfile, saveOwnProfile } from '../../services/local-db.ts';
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

/** Bumped by every load and change, so an older answer or stored copy never wins. */
let generation = 0;

function store(userId: string, profile: OwnProfile | null): void {
  const db = dbFor(userId);
  if (db) void saveOwnProfile(db, profile).catch((error) => console.warn('[profile] not stored', error));
}

async function readStored(userId: string): Promise<OwnProfile | null | undefined> {
  const db = dbFor(userId);
  try {
    return db ? await readOwnProfile(db, userId) : undefined;
  } catch (error) {
    console.warn('[profile] the stored profile could not be read', error);
    return undefined;
  }
}

/**
 * Loads the profile of `userId`: the stored copy at once when nothing is shown yet, then the
 * server. A failure is an error only when there is nothing to show.
 */
export async function loadOwnProfile(
  userId: string,
  fetcher: (userId: string) => Promise<OwnProfile | null> = fetchOwnProfile,
): Promise<void> {
  const mine = ++generation;
  // Asked at once; the stored copy is read meanwhile.
  const request = fetcher(userId);
  request.catch(() => undefined);
  if (ownProfileState.userId !== userId || ownProfileState.current.status !== 'ready') {
    ownProfileState.userId = userId;
    ownProfileState.current = { status: 'loading' };
    const stored = await readStored(userId);
    if (mine === generation && stored !== undefined) {
      ownProfileState.current = stored ? { status: 'ready', profile: stored } : { status: 'missing' };
    }
  }
  try {
    const profile = await request;
    if (mine !== generation || ownProfileState.userId !== userId) return;
    ownProfileState.current = profile ? { status: 'ready', profile } : { status: 'missing' };
    store(userId, profile);
  } catch (error) {
    if (mine !== generation || ownProfileState.userId !== userId) return;
    if (ownProfileState.current.status === 'ready' || ownProfileState.current.status === 'missing') return;
    const message = error instanceof ApiRequestError && error.message ? error.message : PROFILE_LOAD_FAILED;
    ownProfileState.current = { status: 'error', message };
  }
}

/** The profile was created or edited here: shown and stored at once. */
export function setOwnProfile(profile: OwnProfile): void {
  generation++;
  ownProfileState.userId = profile.userId;
  ownProfileState.current = { status: 'ready', profile };
  store(profile.userId, profile);
}

onSignOut(() => {
  generation++;
  ownProfileState.userId = null;
  ownProfileState.current = { status: 'loading' };
});
