import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { OwnProfile } from '#shared/profile/profile-views';
import { ApiRequestError } from '../../services/http.ts';
import { readOwnProfile, selectLocalDb, wipeLocalDb } from '../../services/local-db.ts';
import { loadOwnProfile, ownProfileState, setOwnProfile } from './own-profile-store.ts';

const profileOf = (userId: string, name = 'Lucía') => ({ userId, name }) as unknown as OwnProfile;
const offline = async (): Promise<OwnProfile | null> => {
  throw new ApiRequestError('network', '');
};
/** A page load: nothing on screen yet. */
function newPage() {
  ownProfileState.userId = null;
  ownProfileState.current = { status: 'loading' };
}

afterEach(async () => {
  newPage();
  await wipeLocalDb();
});

describe('own profile offline-first (QUALITY 19)', () => {
  it('stores the profile and shows it on an offline start', async () => {
    const db = selectLocalDb('me-1');
    await loadOwnProfile('me-1', async () => profileOf('me-1'));
    await expect.poll(() => readOwnProfile(db, 'me-1')).toEqual(profileOf('me-1'));
    newPage();
    await loadOwnProfile('me-1', offline);
    expect(ownProfileState.current).toEqual({ status: 'ready', profile: profileOf('me-1') });
  });

  it('remembers that there is no profile yet (the wizard opens offline)', async () => {
    selectLocalDb('me-2');
    await loadOwnProfile('me-2', async () => null);
    newPage();
    await loadOwnProfile('me-2', offline);
    expect(ownProfileState.current).toEqual({ status: 'missing' });
  });

  it('shows the stored copy before the server answers; the answer replaces it', async () => {
    const db = selectLocalDb('me-3');
    setOwnProfile(profileOf('me-3', 'Antes'));
    await expect.poll(() => readOwnProfile(db, 'me-3')).toEqual(profileOf('me-3', 'Antes'));
    newPage();
    let release: (value: OwnProfile) => void = () => {};
    const loading = loadOwnProfile('me-3', () => new Promise((resolve) => (release = resolve)));
    await expect.poll(() => ownProfileState.current.status).toBe('ready');
    release(profileOf('me-3', 'Después'));
    await loading;
    expect(ownProfileState.current).toEqual({ status: 'ready', profile: profileOf('me-3', 'Después') });
    await expect.poll(() => readOwnProfile(db, 'me-3')).toEqual(profileOf('me-3', 'Después'));
  });

  it('is an error offline when nothing is stored', async () => {
    selectLocalDb('me-4');
    await loadOwnProfile('me-4', offline);
    expect(ownProfileState.current).toEqual({ status: 'error', message: 'Error al obtener el perfil' });
  });
});
