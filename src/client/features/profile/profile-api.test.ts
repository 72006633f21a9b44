import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../services/http.ts';
import { ownProfileFixture } from './own-profile.fixture.ts';

const requestJson = vi.fn();
vi.mock('../../services/http.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../services/http.ts')>()),
  requestJson: (...args: unknown[]) => requestJson(...args),
}));

const { createProfile, PROFILE_CALL_DEFAULTS, updateLocation } = await import('./profile-api.ts');

describe('profile calls (spec 001 §7, §8 "Profile" defaults)', () => {
  beforeEach(() => {
    requestJson.mockReset();
  });

  it('sends PUT /profiles/{userId}/location with { location } and returns the profile', async () => {
    const profile = ownProfileFixture();
    requestJson.mockResolvedValue({ success: true, profile });
    await expect(updateLocation('u1', { latitude: 40.42, longitude: -3.7 })).resolves.toEqual(profile);
    expect(requestJson).toHaveBeenCalledWith('profiles/u1/location', {
      method: 'put',
      json: { location: { latitude: 40.42, longitude: -3.7 } },
    });
  });

  it('says "Error al crear el perfil" and "Error al actualizar la ubicación" when the server gives no message', async () => {
    expect(PROFILE_CALL_DEFAULTS).toEqual({
      create: 'Error al crear el perfil',
      updateLocation: 'Error al actualizar la ubicación',
    });
    requestJson.mockRejectedValue(new ApiRequestError('http', '', 500));
    await expect(createProfile({} as never)).rejects.toMatchObject({
      message: 'Error al crear el perfil',
      status: 500,
    });
    await expect(updateLocation('u1', { latitude: 1, longitude: 1 })).rejects.toMatchObject({
      message: 'Error al actualizar la ubicación',
      status: 500,
    });
    // The server's own message wins.
    requestJson.mockImplementation(async () => {
      throw new ApiRequestError('http', 'La ubicación 0, 0 no es válida', 400);
    });
    await expect(updateLocation('u1', { latitude: 1, longitude: 1 })).rejects.toMatchObject({
      message: 'La ubicación 0, 0 no es válida',
      status: 400,
    });
  });
});
